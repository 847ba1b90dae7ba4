"""Where sentences end, decided once for every app: chunking a document, quoting the sentence of
a mention to a reviewer, and the extractive summary.

A sentence ends at `.`, `!`, `?` or `…` (after any closing quote or bracket) followed by white
space and a capital or a digit, so "e.g. the pump" and "3.5 bar" stay whole."""

from __future__ import annotations

import re

SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
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
    """The sentence that holds the character at `offset`, stripped."""
    for a, b in sentence_spans(text):
        if offset < b or b == len(text):
            return text[a:b].strip()
    return ""
