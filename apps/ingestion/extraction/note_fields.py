"""Notes written as fields rather than sentences ("Contact: Dr. Sabbagh | IT director |
Galway", "Azzouni - COO @ Hoshizora Robotics", "Lukas Oberwinkler (CFO, Oxalis Devices)"),
where the parse ties nothing: the fields after a person's name, up to the next person, say
what they are (`role`: a short lower-case phrase ending in a job's head word, or a title), who they work for (`employer`:
an organisation named there) and where (`city`: a place named there).

A fallback for what the parse left out (mention_attributes fills a key from here only when the
parse gave it none): a field belongs to the person named last before it on the same line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.resolution.role_words import on_roll, titled

# What separates fields in a note: pipes, dashes or '=' between spaces, '@', parentheses,
# semicolons, commas, colons, and the end of a line or a sentence.
_FIELD_END = re.compile(r"\s+[|–—=-]\s+|\s*[|@;()\[\]]\s*|[,:]\s+|\n|(?<=[.!?])\s+")
_ROLE = re.compile(r"^(?:an? |the )?((?:[A-Z]{2,4} )?[a-z][a-z-]*(?: [a-z][a-z-]*){0,2})$")
MAX_FIELDS = 3  # after the name, labels not counted
_LABEL = re.compile(r"[a-z][a-z.]{0,11}")  # "role", "org", "city" before a colon
_LABELLED = {"city": "city", "town": "city", "location": "city", "based": "city", "org": "employer",
             "company": "employer", "employer": "employer", "firm": "employer"}  # fmt: skip
_SENTENCE_END = re.compile(r"(?<![A-Z][a-z])(?<![A-Z])[.!?](?:\s|$)")  # not "Dr." or "K.K."


def fields_read(text: str, mentions: Sequence, titles: frozenset[str],
                not_roles: frozenset[str]) -> dict[str, dict[str, str]]:  # fmt: skip
    """name -> {role, employer, city} read from the fields after each person's mention."""
    cuts = [0, *(m.end() for m in _FIELD_END.finditer(text)), len(text)]
    starts = [m.start() for m in _FIELD_END.finditer(text)] + [len(text)]
    fields = list(zip(cuts[:-1], starts, strict=False))
    found: dict[str, dict[str, str]] = {}
    people = [m for m in mentions if m.type == "Person"]
    # "X, taking notes; The Lirra 3 comes from Minstomi": a field naming a thing is the thing's
    others = [m for m in mentions if m.type in ("Person", "Object")]
    for person in people:
        at = next((i for i, (s, e) in enumerate(fields) if s <= person.start < max(e, s + 1)),
                  None)  # fmt: skip
        if at is None:
            continue
        got = found.setdefault(person.name, {})
        if any(person.end <= p.start < fields[at][1] for p in people):
            continue  # "X met Y ...": what follows is Y's
        previous_end, read, label = fields[at][1], 0, None
        for start, end in fields[at + 1 :]:
            if read >= MAX_FIELDS:
                break
            between = text[previous_end:start]
            if (
                "\n" in between
                # pos keeps the field's own last character: the separator after "there." is
                # the space alone, the stop stays in the field before it
                or _SENTENCE_END.search(text, previous_end - 1, start)
                or any(start <= p.start < end for p in others if p.name != person.name)
            ):
                break  # another line or sentence, or another person's or thing's fields
            previous_end = end
            if text[end : end + 1] == ":" and _LABEL.fullmatch(text[start:end]):
                label = _LABELLED.get(text[start:end])  # the next field is its value:
                continue  # "city: Dundee" names a place, whatever type the model gave it
            read += 1
            inside = [m for m in mentions if start <= m.start < end and m.name != person.name]
            for m in inside:
                key = label or {"Organization": "employer", "Location": "city"}.get(m.type)
                if key:
                    got.setdefault(key, m.name)
            words = text[start:end].strip().rstrip(".!?")
            role = _ROLE.match(words)
            if role and on_roll(text, start) and words.split()[0].casefold() in ("a", "an", "the"):
                role = None  # "Present: X, the night-shift lead": another attendee
            label = None
            if not inside and role and "role" not in got:
                phrase = role.group(1).casefold()
                last = phrase.split()[-1]
                if (
                    titled(phrase.split())
                    and last not in not_roles
                    and phrase.split()[0] not in ("is", "was")
                ):
                    got["role"] = phrase
            elif not inside and words and words.split()[0].casefold().strip(".") in titles:
                got.setdefault("role", words.casefold()[:40])  # "COO", "VP Sales"
    return {name: got for name, got in found.items() if got}
