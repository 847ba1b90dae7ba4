"""Who a pronoun names, so that what a sentence says of "he", "she", a quoted "I" or a
speaker's "I" is the person's (mention_attributes reads it as a mention of that person's
name)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from apps.ingestion.extraction.note_words import CLOCK
from apps.ingestion.extraction.spoken_names import INTRO_AFTER, INTRO_WORDS
from apps.ingestion.given_names import given_name_gender

_SUBJECT_PRONOUNS = frozenset(("he", "she"))
# A transcript's or a chat log's turn: a line opening with a speaker's label and a colon, after
# an optional time stamp ("[00:11:02] Nadia Okafor: I live in Lyon.", "(34:37) OKAFOR: I'm ...");
# no label holds a phone number or a bracket ("Voicemail (+1 303 555 0197): hi, ...").
_TURN = re.compile(rf"^[ \t]*(?:{CLOCK}[ \t]*)?((?![^:\n]*\d{{3}})[^:\n(),+]{{1,48}}?):[ \t]", re.M)


@dataclass(frozen=True)
class Pronoun:
    start: int
    end: int
    name: str
    type: str = "Person"


def pronoun_mentions(doc, mentions: Sequence) -> list[Pronoun]:
    """'He', 'she' as a sentence's subject: the one person of a fitting given name (or of one
    the table lacks) named in that sentence or the one before ("Yaw Asiedu called. He holds
    the position of operations manager."); when none is, the first such person the chunk
    names, its topic ("Returned Anneke Bosman's call. Their director is Aoife Brennan. Re
    the quote. She is head of facilities.": Anneke Bosman)."""
    people = sorted((m for m in mentions if m.type == "Person"), key=lambda m: m.start)
    found = []
    for token in doc:
        if token.lower_ not in _SUBJECT_PRONOUNS or token.dep_ not in ("nsubj", "nsubjpass"):
            continue
        gender = "female" if token.lower_ == "she" else "male"
        before = [m for m in people if m.end <= token.idx and _fits(m.name, gender)]
        recent = {m.name for m in before if m.start >= _sentence_before(token).start_char}
        if len(recent) > 1:  # "X handles that, she's the buyer, Y handles that, she's ...": Y
            recent = _clause_before(doc, token, before, people) or recent  # else no one
        if len(recent) == 1 or before and not recent:
            who = recent.pop() if recent else _fullest(before[0].name, before)
            found.append(Pronoun(token.idx, token.idx + len(token), who))
    return found + _quoted_writers(doc, people) + _speakers(doc, people)


def _clause_before(doc, token, before: list, people: list) -> set[str]:
    """The person named last before the pronoun, when a comma closes that person's clause and
    no other name stands between, within a few words of its own sentence: one speaks of each
    in turn. "Maria told Anna she was promoted" stays no one's."""
    last = before[-1]
    between = doc.text[last.end : token.idx]
    if (
        last.start < token.sent.start_char
        or "," not in between
        or len(between.split()) > _CLAUSE_WORDS
        or any(last.end <= m.start < token.idx for m in people)
    ):
        return set()
    return {last.name}


_CLAUSE_WORDS = 8


def _fullest(name: str, named: list) -> str:
    """'Anneke Bosman' for 'Bosman' when the chunk names her in full too ("Bosman's call
    (Anneke Bosman)")."""
    return next((m.name for m in named if m.name.split()[-1:] == [name] != m.name.split()), name)


def _fits(name: str, gender: str) -> bool:
    first = name.split()[0] if name.split() else ""
    said = given_name_gender(first.title() if first.isupper() else first)  # 'ARVID SANDELL:'
    return said is None or said == gender


def labels_turn(text: str, mention) -> bool:
    """Whether `mention` is a turn's speaker label ("[00:45:16] ARVID SANDELL: ..."): the parse
    makes it the subject of the line's verb, but what the turn says is of the speaker's "I"."""
    turn = _TURN.match(text, text.rfind("\n", 0, mention.start) + 1)
    return turn is not None and turn.start(1) <= mention.start and mention.end == turn.end(1)


def _speakers(doc, people: list) -> list[Pronoun]:
    """'I' as a subject on a line whose label names a person: the speaker, so "Rafael Quintero:
    Right. I live in Dublin." says where Rafael Quintero lives (`turns_of`)."""
    turns = turns_of(doc.text, people)
    if not turns:  # no labelled line: the whole text is one speaker's, if it introduces one
        turns = [(0, len(doc.text), _one(set(_introduced(doc.text, people))), "")]
    return [Pronoun(token.idx, token.idx + len(token), who)
            for token in doc if _first_person(token)
            for start, end, who, _ in turns if who and start <= token.idx < end]  # fmt: skip


def _first_person(token) -> bool:
    """'I' as a subject, or 'my' before a role's noun ("my title's project engineer")."""
    if token.text == "I":
        return token.dep_ in ("nsubj", "nsubjpass")
    return token.lower_ == "my" and token.dep_ == "poss" and token.head.lemma_ in _ROLE_NOUNS


_ROLE_NOUNS = frozenset("title role job position".split())


def turns_of(text: str, people: list) -> list[tuple[int, int, str | None, str]]:
    """(start, end, speaker's name or None, label) of each labelled line's words. The turn is
    the line: a label in a later line is another turn. A label that names no one ("Caller:")
    is the person its turns introduce ("Caller: hi, it's Marcus Ellery"; a name given right
    after another speaker asked for it: "Agent: and your name?" / "Caller: Noor Haddad"),
    and so is a text
    without labels that one person introduces (a voicemail: "Henrik Solbakken here, ...")."""
    turns, labels = [], {}
    for turn in _TURN.finditer(text):
        named = [m for m in people if turn.start(1) <= m.start and m.end <= turn.end(1)]
        end = text.find("\n", turn.end())
        end = len(text) if end < 0 else end
        label = turn.group(1).strip().casefold()
        if named:
            turns.append((turn.end(), end, named[-1].name, label))
            continue
        said = [m for m in people if turn.end() <= m.start < end]
        introduced = _introduced(text, said)
        asked = turns[-1] if turns and turns[-1][3] != label else None
        if asked and said and _ASKS_NAME.search(text, asked[0], asked[1]):
            # "Agent: sorry, I didn't catch your name" / "Caller: Noor Haddad, sorry"
            introduced += [m.name for m in said[:1] if m.start - turn.end() <= _ANSWER_OPENS]
        labels.setdefault(label, set()).update(introduced)
        turns.append((turn.end(), end, None, label))
    return [(start, end, who or _one(labels.get(label, set())), label)
            for start, end, who, label in turns]  # fmt: skip


_ASKS_NAME = re.compile(
    r"\b(?:(?:your|a|the|full|first|last) name|who (?:am i|is this|'s this|is calling|'s calling)"
    r"|who am i (?:speaking|talking) (?:to|with))\b",
    re.I,
)
_ANSWER_OPENS = 24  # characters of fillers before the name an answer gives ("oh it's, um, ")
_INTRO_BEFORE = re.compile(
    INTRO_WORDS + r"\W*(?:\w+\W+){0,2}$", re.I
)  # "it's marcus, Marcus Ellery"


def _introduced(text: str, people: list) -> list[str]:
    return [m.name for m in people if _INTRO_BEFORE.search(text, max(0, m.start - 40), m.start)
            or INTRO_AFTER.match(text[m.end : m.end + 12])]  # fmt: skip


def _one(names: set[str]) -> str | None:
    """The one person `names` name: "Fatima" and "Fatima Bennani" ("it's Fatima, Fatima
    Bennani") are one, the fullest."""
    fullest = max(names, key=lambda n: (len(n.split()), n), default=None)
    whole = set(fullest.split()) if fullest else set()
    return fullest if names and all(set(n.split()) <= whole for n in names) else None


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
