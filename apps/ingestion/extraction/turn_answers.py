"""What a speaker answers when asked who they are: in a transcript, a turn that asks for a job,
a city or a year of birth ("Agent: and your job title?") and the next turn, another speaker's
("Caller: a head of facilities, yeah"), give that speaker the field, though the answer has no
subject for the parse to tie it to; and a turn that says "my title's X" (which the parse reads
as a possessive) or "X here" gives its speaker the job X. The speaker is the one `turns_of` names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.ingestion.extraction.place_names import is_city
from apps.ingestion.extraction.pronoun_mentions import turns_of
from apps.resolution.role_words import titled
from apps.resolution.spoken_years import first_year

_ASKS = {
    "role": re.compile(
        r"\b(?:job title|(?:your|the) (?:role|title|job|position)|what (?:is it )?(?:that )?you do"
        r"|what do you do)\b",
        re.I,
    ),
    "city": re.compile(
        r"\b(?:city|town|whereabouts|where are you|where(?: are)? you based|which office)\b", re.I
    ),
    "born": re.compile(r"\b(?:year of birth|date of birth|birth year|born)\b", re.I),
}
# What opens an answer without saying anything: fillers, "yeah", "I'm", "it's", "so".
_OPENING = re.compile(
    r"^(?:(?:um|uh|erm|er|oh|yeah|yes|so|well|right|okay|ok|sure|i'm|i am|it's|it is"
    r"|we're|the|a|an)\W+)+",
    re.I,
)
_ROLE = re.compile(r"^([a-z][a-z-]*(?: [a-z][a-z-]*){0,3})$")
_SAYS_ROLE = re.compile(
    r"\bmy (?:job )?(?:title|role|position)(?:'s| is)\s+(?:an? |the )?([a-z][a-z -]{0,60}?)"
    r"(?=\s+(?:but|and|so|at|for|here|there|now)\b|[,.;!?\n]|$)"
    r"|(?:^|[,.:]\s*)(?:(?:the|an?)\s+)?([a-z][a-z -]{0,40}?)\s+here\b",  # "office manager here"
    re.I,
)


def answers_read(text: str, mentions: Sequence) -> dict[str, dict[str, str]]:
    """name -> {role, city, born} from the answers each speaker gives to a question asking
    for one, in the turn right after it."""
    people = sorted((m for m in mentions if m.type == "Person"), key=lambda m: m.start)
    # A city the model typed a person's name is the answer's place ("Caller: Monterrey").
    places = [m for m in mentions if m.type == "Location" or is_city(m.name)]
    turns = turns_of(text, people)
    found: dict[str, dict[str, str]] = {}
    for start, end, who, _ in turns:  # "my title's project engineer but ...": the parse's 'title's'
        said = _SAYS_ROLE.search(text, start, end)
        if who and said:
            role = _value("role", said.group(1) or said.group(2), [])
            if role:
                found.setdefault(who, {})["role"] = role
    for (q_start, q_end, _, asker), (start, end, who, label) in zip(turns, turns[1:], strict=False):
        if not who or label == asker:
            continue
        question = text[q_start:q_end]
        for key, asks in _ASKS.items():
            if not asks.search(question):
                continue
            value = _value(key, text[start:end], [p for p in places if start <= p.start < end])
            if value:
                found.setdefault(who, {}).setdefault(key, value)
    return found


def _value(key: str, answer: str, places: list) -> str:
    first = re.split(r"[,.;!?]| -- ", answer.strip(), maxsplit=1)[0]
    if key == "city":
        return places[0].name if places else ""
    if key == "born":
        return first_year(answer)
    words = _OPENING.sub("", first.strip()).casefold()
    role = _ROLE.match(words)
    return words if role and titled(words.split()) else ""
