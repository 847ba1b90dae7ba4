"""Who a pronoun names, so that what a sentence says of "he", "she", a quoted "I" or a
speaker's "I" is the person's (mention_attributes reads it as a mention of that person's
name)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from apps.ingestion.extraction.note_words import CLOCK

_SUBJECT_PRONOUNS = frozenset(("he", "she"))
# A transcript's or a chat log's turn: a line opening with a speaker's label and a colon, after
# an optional time stamp ("[00:11:02] Nadia Okafor: I live in Lyon.", "(34:37) OKAFOR: I'm ...").
_TURN = re.compile(rf"^[ \t]*(?:{CLOCK}[ \t]*)?([^:\n]{{1,48}}?):[ \t]", re.M)


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
    return found + _quoted_writers(doc, people) + _speakers(doc, people)


def labels_turn(text: str, mention) -> bool:
    """Whether `mention` is a turn's speaker label ("[00:45:16] ARVID SANDELL: ..."): the parse
    makes it the subject of the line's verb, but what the turn says is of the speaker's "I"."""
    turn = _TURN.match(text, text.rfind("\n", 0, mention.start) + 1)
    return turn is not None and turn.start(1) <= mention.start and mention.end == turn.end(1)


def _speakers(doc, people: list) -> list[Pronoun]:
    """'I' as a subject on a line whose label names a person: the speaker, so "Rafael Quintero:
    Right. I live in Dublin." says where Rafael Quintero lives. The turn is the line: a label
    in a later line is another turn."""
    text, turns = doc.text, []
    for turn in _TURN.finditer(text):
        named = [m for m in people if turn.start(1) <= m.start and m.end <= turn.end(1)]
        if named:
            end = text.find("\n", turn.end())
            turns.append((turn.end(), len(text) if end < 0 else end, named[-1].name))
    return [Pronoun(token.idx, token.idx + 1, who)
            for token in doc if token.text == "I" and token.dep_ in ("nsubj", "nsubjpass")
            for start, end, who in turns if start <= token.idx < end]  # fmt: skip


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
