"""One spelling for comparing: transliterated to Latin (`unidecode`), case folded, punctuation
and spacing collapsed. 'Müller' and 'MULLER', 'Владимир' and 'Vladimir' compare alike."""

from __future__ import annotations

import functools
import re

from unidecode import unidecode

_NON_WORD = re.compile(r"[^a-z0-9]+")


# Scoring asks for the same few hundred names' forms hundreds of thousands of times a batch.
@functools.lru_cache(maxsize=65536)
def comparable(text: str) -> str:
    return _NON_WORD.sub(" ", unidecode(text or "").casefold()).strip()


def comparable_tokens(text: str) -> list[str]:
    return comparable(text).split()


@functools.lru_cache(maxsize=65536)
def initials(name: str) -> str:
    """'mlt' of 'Mei-Ling Tsao', the first letter of each word (compared as `comparable`
    spells); none of a name of one word."""
    words = comparable_tokens(name)
    return "".join(w[0] for w in words) if len(words) >= 2 else ""
