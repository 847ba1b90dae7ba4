"""Ways of writing a person's name that the small NER model cuts or mistypes, whoever wrote
the note:

- surname first, as lists and records write it ("Varga, Iker"): the model reads two entities,
  often a firm and a person, and the firm becomes the person's employer. A capitalised word
  the parse calls a proper noun, no place, a comma, then a known given name (gender-guesser's
  list), with no surname or list after it, is one person, named "Iker Varga";
- an initial and a surname ("A. Novotný"), typed a thing or a firm: a person's, unless it has
  a legal form ("J. Crew Inc." stays a firm);
- a bullet of another script or a symbol opening the span ("Δ Moravek Logistik Oy"): the
  name starts after it.
"""

from __future__ import annotations

import calendar
import re
import unicodedata

from apps.ingestion.extraction.name_types import organisation_form
from apps.ingestion.extraction.place_names import is_place_name
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import NamedSpan

_WORD = r"[^\W\d_]+(?:[-'][^\W\d_]+)?"  # capitalised in any script: checked in _capitalised
# Not after a word of the same name (a firm's 'Acme Corp, Maria'), nor before a surname or
# in a list ('Sveinsson, Wanjiru Novak', 'Trinh, Novak and Obi').
_INVERTED = re.compile(
    rf"(?<![\w,'-])({_WORD}), ({_WORD})(?![\w'-])(?! [A-Z])(?!,? (?:and|or|&) [A-Z]|, [A-Z])"
)
_CALENDAR = frozenset(
    w.casefold() for w in [*calendar.month_name, *calendar.month_abbr, *calendar.day_name,
                           *calendar.day_abbr, "Sept"] if w
)  # fmt: skip
_INITIAL_SURNAME = re.compile(r"^[A-Z]\. ?[^\W\d_]+(?:[- ][^\W\d_]+)?$")


def inverted_names(doc, spans: list[NamedSpan], text: str) -> list[NamedSpan]:
    """`spans` with each "Surname, Given" (module docstring) one Person span named "Given
    Surname", in place of the spans inside it."""
    out = list(spans)
    for found in _INVERTED.finditer(text):
        surname, given = found.group(1), found.group(2)
        start, end = found.span()
        if not (_capitalised(surname) and _capitalised(given)):
            continue
        if not _surname_then_given(doc, text, found.start(1), surname, given):
            continue
        if any(s.start < start < s.end or s.start < end < s.end for s in out):
            continue  # a longer name holds it
        out = [s for s in out if not (start <= s.start and s.end <= end)]
        out.append(NamedSpan(text[start:end], start, end, "Person", f"{given} {surname}"))
    return sorted(out, key=lambda s: s.start)


def _surname_then_given(doc, text: str, start: int, surname: str, given: str) -> bool:
    """A known given name after a word that is none ('Smith, John') is one person's name; two
    given names are two people ('Maria, John'), and two surnames ('Okafor, Lindqvist') too,
    which is why a given name the list does not know ('Wanjiru') joins nothing."""
    if {given.casefold(), surname.casefold()} & _CALENDAR:
        return False  # 'Tsao, Dec 3', 'On 9 Dec, Tsao wrote': a date
    if given_name_gender(surname) is not None or given_name_gender(given) is None:
        return False
    if is_place_name(surname) or is_place_name(given):
        return False  # 'Lyon, France'
    before = text[:start].rstrip(" ")
    if before[-1:].isalpha() and before.split()[-1][:1].isupper():
        return False  # 'Acme Corp, Maria': the comma ends a longer name
    token = doc.char_span(start, start + len(surname), alignment_mode="expand")
    return token is not None and all(t.pos_ == "PROPN" for t in token)


def initial_surname_typed(span: NamedSpan) -> NamedSpan:
    """'A. Novotný' typed a thing or a firm is a person's name (module docstring)."""
    surface = span.surface.strip()
    if span.type == "Person" or span.name or not _INITIAL_SURNAME.match(surface):
        return span
    if not _capitalised(surface.split(".", 1)[1].strip()):
        return span
    if organisation_form(surface):
        return span  # a legal form or a trade: a firm's
    return NamedSpan(span.surface, span.start, span.end, "Person")


def bullet_cut(span: NamedSpan) -> NamedSpan:
    """A span opening with one character of another script or a symbol ('Δ Moravek'): without
    it."""
    head, _, rest = span.surface.partition(" ")
    rest = rest.lstrip()
    if len(head) != 1 or not rest[:1].isupper() or _latin_letter(head):
        return span
    cut = len(span.surface) - len(rest)
    return NamedSpan(span.surface[cut:], span.start + cut, span.end, span.type, span.name)


def _capitalised(words: str) -> bool:
    return all(w[:1].isupper() and w[1:2].islower() for w in re.split(r"[ '-]", words) if w)


def _latin_letter(char: str) -> bool:
    return char.isalpha() and unicodedata.name(char, "").startswith("LATIN")
