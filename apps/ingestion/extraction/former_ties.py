"""A person's former employer: "ex-Tessaro Packaging", "i used to be at Tessaro", "formerly of
Brandvik", "previously with Ostara", "left Brandvik in 2019", "came to us from Ostara", "was at
Brandvik before". The firm is a firm like any
employer (firm_cues types it, `former_runs` finds it where the model misses it), but the tie
is no current employer: a namesake who works there now is another person, and two notes of one
person, one naming where she worked and one where she works, do not disagree.

mention_attributes reads such a tie as `former_employer`; resolution.text_evidence keeps that
firm out of the person's neighbours, so it is no shared context either."""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from apps.ingestion.extraction.note_words import COMMON_ZIPF
from apps.ingestion.extraction.place_names import is_place_name
from apps.ingestion.given_names import given_name_gender

# The words right before the firm; "left" only ties, it finds nothing ("left Ana a message").
_CUE = (
    r"\bex-|\bformerly(?:\s+(?:of|at|with|worked\s+(?:at|for)|employed\s+(?:at|by)))?"
    r"|\bpreviously(?:\s+(?:worked\s+)?(?:at|with|of|for)|\s+(?:was|were)\s+(?:at|with))"
    r"|\bused\s+to\s+(?:be|work)\s+(?:at|for|with|over\s+at)"
    r"|\bformer\s+(?:employer|company|firm)\s*[:=-]?"
    r"|\b(?:back\s+)?when\s+(?:i|he|she)\s+was\s+(?:at|with)"
    r"|\bbefore\s+(?:that|this)\W+(?:\w+\s+){0,2}(?:was|were|worked)\s+(?:at|with|for)"
    r"|\bcame\s+(?:to\s+us\s+|over\s+)?from"
)
# After the firm: "was at Tessaro before", "with Tessaro until 2019".
_FORMER_AFTER = re.compile(
    r"\s*,?\s*(?:before(?=\s*(?:[.,;)\n]|$|this\b|joining\b|moving\b|coming\b))"
    r"|until\s+(?:19|20)\d\d)",
    re.IGNORECASE,
)
_FORMER_BEFORE = re.compile(rf"(?:{_CUE}|\b(?:left|quit)\b)\s*$", re.IGNORECASE)
_FINDS_BEFORE = re.compile(rf"(?:{_CUE})\s*$", re.IGNORECASE)
_WINDOW = 48
_RUN = re.compile(r"(?:(?<=\b[eE]x-)|(?<![\w-]))[A-Z][^\W\d_]+(?:[ -][A-Z][^\W\d_]+){0,3}(?![\w-])")


def former_cued(text: str, start: int, end: int) -> bool:
    """Whether a former employer's cue stands right before the firm at `start`, on its line,
    or right after it (at `end`)."""
    before = text[max(0, start - _WINDOW) : start]
    return bool(_FORMER_BEFORE.search(before.rsplit("\n", 1)[-1]) or _FORMER_AFTER.match(text, end))


def former_runs(text: str) -> list[tuple[int, int]]:
    """The extents of capitalised words after a former employer's cue ("ex-Tessaro Packaging"),
    which the tagger reads as adjectives and the model misses; no place, no person's name."""
    found = []
    for run in _RUN.finditer(text):
        before = text[max(0, run.start() - _WINDOW) : run.start()].rsplit("\n", 1)[-1]
        name = run.group(0)
        if not _FINDS_BEFORE.search(before) or is_place_name(name):
            continue
        if given_name_gender(name.split()[0]) or (
            " " not in name and zipf_frequency(name.lower(), "en") >= COMMON_ZIPF
        ):
            continue  # "used to work with Ana Ruiz"; "ex-Army"
        found.append((run.start(), run.end()))
    return found
