"""Argument components a document states: claims, premises and assumptions, as the short-term
state reads them ("We assume that ...", "Our premise is ...", "We claim ..."). The state keeps
the last one as its current branch ("this assumption" points back to it); each is also written
to the long-term graph as an :Argument linked to its chunk and to the entities it names
(`argument_writes`)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

KINDS = ("claim", "premise", "assumption")
_ASSUMPTION = re.compile(r"\b(?:assume|suppose|presuppose)", re.IGNORECASE)
_PREMISE = re.compile(r"\bpremise", re.IGNORECASE)
MAX_TEXT = 1000


@dataclass(frozen=True)
class ArgumentSpan:
    """A stated argument component; offsets relative to its chunk; `about` the names of the
    entities mentioned inside it."""

    kind: str
    text: str
    start: int
    end: int
    about: tuple[str, ...] = ()


def argument_kind(sentence: str) -> str:
    if _PREMISE.search(sentence):
        return "premise"
    if _ASSUMPTION.search(sentence):
        return "assumption"
    return "claim"


def argument_span(text: str, start: int, end: int) -> ArgumentSpan | None:
    """The sentence text[start:end] as a component (leading space trimmed), or None if empty."""
    while start < end and text[start].isspace():
        start += 1
    sentence = text[start:end].strip()
    if not sentence:
        return None
    return ArgumentSpan(argument_kind(sentence), sentence[:MAX_TEXT], start, end)


def argument_uid(chunk_uid: str, start: int) -> str:
    """Derived from the chunk and the offset: a replayed chunk writes the same node."""
    return hashlib.sha256(f"argument:{chunk_uid}:{start}".encode()).hexdigest()[:32]
