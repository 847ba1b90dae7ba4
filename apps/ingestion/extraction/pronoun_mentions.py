"""Who a pronoun names, so that what a sentence says of "he", "she" or a quoted "I" is the
person's (mention_attributes reads it as a mention of that person's name)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_SUBJECT_PRONOUNS = frozenset(("he", "she"))


@dataclass(frozen=True)
class Pronoun:
    start: int
    end: int
    name: str
    type: str = "Person"


def pronoun_mentions(doc, mentions: Sequence) -> list[Pronoun]:
    """'He', 'she' as a sentence's subject: the person the chunk named last before it, when
    only one person was named in that sentence or the one before ("Yaw Asiedu called. He holds
    the position of operations manager.")."""
    people = sorted((m for m in mentions if m.type == "Person"), key=lambda m: m.start)
    found = []
    for token in doc:
        if token.lower_ not in _SUBJECT_PRONOUNS or token.dep_ not in ("nsubj", "nsubjpass"):
            continue
        before = [m for m in people if m.end <= token.idx]
        if not before:
            continue
        last = before[-1]
        recent = {m.name for m in before if m.start >= _sentence_before(token).start_char}
        if len(recent) <= 1:
            found.append(Pronoun(token.idx, token.idx + len(token), last.name))
    return found + _quoted_writers(doc, people)


def _quoted_writers(doc, people: list) -> list[Pronoun]:
    """'I' as a subject in a quoted reply ("On 01.02., Rói Joensen wrote:" then lines opening
    with '>'): the writer, so "> As head of legal I can sign off" is Rói Joensen's job."""
    blocks, text, at = [], doc.text, 0
    for line in text.splitlines(keepends=True):
        start, at = at, at + len(line)
        if line.rstrip().endswith("wrote:"):
            writers = [m for m in people if start <= m.start and m.end <= at]
            blocks.append([at, at, writers[-1].name if writers else None])
        elif blocks and line.lstrip().startswith(">") and blocks[-1][1] == start:
            blocks[-1][1] = at
    found = []
    for token in doc:
        if token.text != "I" or token.dep_ not in ("nsubj", "nsubjpass"):
            continue
        for start, end, writer in blocks:
            if writer and start <= token.idx < end:
                found.append(Pronoun(token.idx, token.idx + 1, writer))
    return found


def _sentence_before(token):
    sent = token.sent
    return sent.doc[sent.start - 1].sent if sent.start > 0 else sent
