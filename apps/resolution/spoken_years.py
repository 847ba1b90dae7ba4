"""Years as people say them and a speech recogniser writes them ("born nineteen ninety six",
"going since two thousand and sixteen", "twenty twelve", "born in seventy three"), rewritten
in digits so that a transcript's birth or founding year is read like a typed note's."""

from __future__ import annotations

import re

_UNITS = "one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
VALUES = {
    **{w: i + 1 for i, w in enumerate(_UNITS)},
    **{w: i + 10 for i, w in enumerate(_TEENS)},
    **{w: (i + 2) * 10 for i, w in enumerate(_TENS)},
}
_UNIT = "|".join(_UNITS)
# 10..99 and "oh five" as said after a century ("twelve", "ninety six", "ninety-six"), and 1..99
_TENS_ON = rf"(?:oh[ -](?:{_UNIT})|(?:{'|'.join(_TENS)})(?:[ -](?:{_UNIT}))?|{'|'.join(_TEENS)})"
_TWO = rf"(?:{_TENS_ON}|{_UNIT})"
# "nineteen ninety six", "twenty twelve" (no one says "twenty five" for 2005: a number)
_CENTURY = re.compile(
    rf"\b(?:(eighteen|nineteen)(?: hundred(?: and)?)? ({_TWO})|(twenty) ({_TENS_ON}))\b", re.I
)
_THOUSANDS = re.compile(rf"\btwo thousand(?:,? and)? ({_TWO})\b", re.I)
# "born in seventy three": a century left unsaid, after a word of birth
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_BORN_SHORT = re.compile(rf"\b(born(?: in)?|birth year|year of birth) ({_TWO})\b", re.I)


def years_written(text: str) -> str:
    """`text` with its spoken years in digits ('nineteen ninety six' -> '1996'); a text saying
    none comes back as it was."""
    if not re.search(r"teen|ty|thousand", text, re.I):
        return text
    text = _CENTURY.sub(lambda m: str(_century(m.group(1) or m.group(3))
                                      + _number(m.group(2) or m.group(4))), text)  # fmt: skip
    text = _THOUSANDS.sub(lambda m: str(2000 + _number(m.group(1))), text)
    return _BORN_SHORT.sub(lambda m: f"{m.group(1)} {_short_year(_number(m.group(2)))}", text)


def first_year(text: str) -> str:
    """The first year of `text` once its spoken years are in digits, or ''."""
    year = _YEAR.search(years_written(text))
    return year.group(1) if year else ""


def _century(word: str) -> int:
    return {"eighteen": 1800, "nineteen": 1900, "twenty": 2000}[word.lower()]


def _number(said: str) -> int:
    return sum(VALUES.get(word, 0) for word in re.split(r"[ -]", said.lower()))


def _short_year(number: int) -> int:
    """A two-figure birth year: this century's only when it could be a child's (born 2015)."""
    return 2000 + number if number < 20 else 1900 + number
