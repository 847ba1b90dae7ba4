"""Model numbers in a note ("Strata-X6", "Lumen X5", "GPT-4", "V 7", "Z5", "kumo-28"): the
small model cuts them at the hyphen ("Strata"), misses them, or types them an Event, so they are
found in the text as well and replace the spans inside or across them."""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import NamedSpan

_CODE = re.compile(
    r"(?<![\w@.+/-])(?:[A-Z][a-z]+(?:-?[A-Z]{1,2}\d{1,4}[a-z]?| [A-Z]{1,2}\d{1,4}[a-z]?|-\d{1,4}"
    r"| ?\d{1,2}(?![\d:.,]\d))"
    r"|[A-Z]{1,4}-?\d{1,4}[A-Za-z]?|[B-HJ-Z]{1,3} \d{1,4})(?![\w-])"
)
# The same in lower case, as chat writes it ("trying the kumo-28", "the vexa 39"): a word no
# dictionary knows (wordfreq), so "top 10", "covid-19" and "user42" stay words.
# A year after a word is a date ("yob 1979", "est 1998"), no model.
_LOWER_CODE = re.compile(r"(?<![\w@.+/-])([a-z]{3,})(?:-| )?(?!(?:19|20)\d\d\b)\d{1,4}(?![\w-])")
_RARE_ZIPF = 2.5
# A capitalised word and a small number that name no product ("Room 5", "May 3", "Step 2").
_NOT_NUMBERED = frozenset(
    "room page chapter level section version phase step table figure gate floor day week month "
    "year top over under only just nearly around about almost some all building unit suite "
    "apartment apt no number part episode season volume vol act scene line row item grade "
    "class team group round stage tier size zone sector block lot route highway platform "
    "terminal hall plan option issue ticket sprint rev ver pier dock bay lane box appendix "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday "
    "friday saturday sunday mon tue wed thu fri sat sun".split()
)
NOT_CODES = re.compile(r"^(?:Q[1-4]|H[12]|FY\d+)$")  # quarters, halves, fiscal years
_NOT_STEMS = frozenset(
    "in on at by for the and from to of as since until after before during "
    "with about than or but".split()
)  # "In Q3": no code's stem


def with_codes(spans: list[NamedSpan], text: str) -> list[NamedSpan]:
    """`spans` with the model numbers of `text` (_CODE) whole: a span inside or across a code is
    replaced by the code (typed as a span of exactly its extent was, else an Object; never an
    Event, a Person or a Location, which a code is not, nor a word and its number a firm); a longer span holding a code is kept."""
    out = list(spans)
    lower = [f for f in _LOWER_CODE.finditer(text) if _rare(f.group(1))]
    for found in sorted([*_CODE.finditer(text), *lower], key=lambda f: f.start()):
        (start, end), code = found.span(), found.group(0)
        stem, _, rest = code.partition(" ")
        if rest and stem.lower() in _NOT_STEMS:
            start, code = start + len(stem) + 1, rest
        if NOT_CODES.match(code) or not any(c.isalpha() for c in code):
            continue
        stem_word = re.match(r"[A-Za-z]+", code)
        if (stem_word and re.fullmatch(r"[A-Z][a-z]+ ?\d{1,2}", code)
                and (stem_word.group(0).casefold() in _NOT_NUMBERED | _NOT_STEMS)):  # fmt: skip
            continue
        over = [s for s in out if s.start < end and start < s.end]
        if any(s.start <= start and end <= s.end and (s.start, s.end) != (start, end)
               for s in over):  # fmt: skip
            continue  # "Kestrel Z5 Pro": the longer name stands
        same = [s.type for s in over if (s.start, s.end) == (start, end)]
        # A word and its number ('Presk 7', 'Lumen-X5') is a product, whatever NER said.
        numbered = re.fullmatch(r"[^\W\d_]+[ -]?[A-Z]{0,2}\d+[a-z]?", code) is not None
        kind = (same[0] if same and same[0] not in ("Event", "Person", "Location")
                and not (numbered and same[0] == "Organization") else "Object")  # fmt: skip
        out = [s for s in out if s not in over]
        out.append(NamedSpan(code, start, end, kind))
    return sorted(out, key=lambda s: s.start)


_UNITS = "one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUMBER_SAID = (rf"(?:(?:{'|'.join(_TENS)})(?:[ -](?:{'|'.join(_UNITS)}))?"
                rf"|{'|'.join(_TEENS)}|{'|'.join(_UNITS)})")  # fmt: skip
# A model number said in words, as a speech recogniser writes it ("the brisa eight", "the Arvo
# seven", "the fenra forty-two", "the Z twenty seven"): a word no dictionary knows well and no
# given name, or a capital letter after 'the', then a number below a hundred.
_SPOKEN_CODE = re.compile(
    rf"(?<![\w@.+/-])([A-Za-z][a-z]{{2,}}|[B-HJ-Z])[ -]({_NUMBER_SAID})(?![\w-])", re.IGNORECASE
)
_THE = re.compile(r"\b(?:the|a|an|our|your|their|my)\s+$", re.IGNORECASE)
_SPOKEN_STEM_ZIPF = 3.0  # 'vela' 2.7, 'arvo' 2.4; 'pixel' 3.7, 'chapter' 4.7


def spoken_codes(spans: list[NamedSpan], text: str) -> list[NamedSpan]:
    """`spans` with each model number said in words (_SPOKEN_CODE) an Object whose name has
    the digits ('brisa eight' is 'brisa 8'), replacing the spans inside or across it."""
    out = list(spans)
    for found in _SPOKEN_CODE.finditer(text):
        stem, number = found.group(1), found.group(2).lower()
        after_the = _THE.search(text, 0, found.start())
        if len(stem) == 1 and not (stem.isupper() and after_the):
            continue  # "the Z twenty seven", not "a two" or "z six"
        person = given_name_gender(stem) and not after_the
        if (number == "one" or person or stem.lower() in _NOT_NUMBERED | _NOT_STEMS
                or len(stem) > 1 and zipf_frequency(stem.lower(), "en") >= _SPOKEN_STEM_ZIPF):  # fmt: skip
            continue  # "a Frostvik one"; "Anna two days ago", but "the Arvo seven"
        start, end = found.span()
        over = [s for s in out if s.start < end and start < s.end]
        if any(s.start < start or end < s.end for s in over):
            continue  # a longer name holds it
        out = [s for s in out if s not in over]
        name = f"{stem} {_said_value(number)}"
        out.append(NamedSpan(found.group(0), start, end, "Object", name))
    return sorted(out, key=lambda s: s.start)


def _said_value(number: str) -> int:
    """'forty-two' -> 42, 'seven' -> 7, 'thirteen' -> 13."""
    words = re.split(r"[ -]", number)
    if words[0] in _TENS:
        return 10 * (_TENS.index(words[0]) + 2) + (
            _UNITS.index(words[1]) + 1 if len(words) > 1 else 0
        )
    return (_TEENS.index(words[0]) + 10) if words[0] in _TEENS else _UNITS.index(words[0]) + 1


def _rare(stem: str) -> bool:
    return stem not in _NOT_NUMBERED | _NOT_STEMS and zipf_frequency(stem, "en") < _RARE_ZIPF
