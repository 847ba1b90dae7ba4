"""Where sentences end, decided once for every app: chunking a document, quoting the sentence of
a mention to a reviewer, and the extractive summary.

A sentence ends at `.`, `!`, `?` or `…` (after any closing quote or bracket) followed by white
space and a capital or a digit, so "e.g. the pump" and "3.5 bar" stay whole; never at the full
stop of an initial or of a title before a name ("C. Babbage", "Dr. Watson"), so a reviewer is
not quoted "Its designer, C." ("I." still ends one; the price: "vitamin C. Then" stays one
sentence)."""

from __future__ import annotations

import re

# Each look-behind holds alternatives of one width (Python's rule for look-behinds). An initial
# is any capital but "I", which ends "Neither did I."
NOT_AN_INITIAL_OR_TITLE = (
    r"(?<!\b[A-HJ-Z]\.)(?<!\b(?:Mr|Ms|Dr|St|Mt|Lt)\.)"
    r"(?<!\b(?:Mrs|Gen|Col|Sgt|Rev|Hon|Gov|Sen)\.)(?<!\b(?:Prof|Capt)\.)"
)
# "No." before a number ("Difference Engine No. 2") ends no sentence either.
SENTENCE_END = re.compile(
    NOT_AN_INITIAL_OR_TITLE + r"(?<=[.!?…])(?!(?<=\bNo\.)\s+\d)[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])"
)
_LINES = re.compile(r"\n+")


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of each sentence of text[start:end], in order, white space between
    them left out; together they cover the range."""
    end = len(text) if end is None else end
    spans, cursor = [], start
    for match in SENTENCE_END.finditer(text, start, end):
        spans.append((cursor, match.start()))
        cursor = match.end()
    spans.append((cursor, end))
    return spans


def sentences(text: str) -> list[str]:
    """The sentences of a text, stripped, none empty; a line break ends one too (chat lines and
    lists have no full stop)."""
    return [
        s
        for line in _LINES.split(text or "")
        for a, b in sentence_spans(line)
        if (s := line[a:b].strip())
    ]


def sentence_at(text: str, offset: int) -> str:
    """The sentence that holds the character at `offset`, stripped; a line break ends one too,
    so a heading above the sentence is not quoted with it."""
    start = text.rfind("\n", 0, max(offset, 0)) + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    for a, b in sentence_spans(text, start, end):
        if offset < b or b == end:
            return text[a:b].strip()
    return ""
