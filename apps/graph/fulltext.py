"""Caller text made safe for Lucene's query syntax (full-text indexes): the text is passed as a
$parameter, and its special characters are escaped so it is searched as words, never parsed."""

import re

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_WORD = re.compile(r"\w+", re.UNICODE)


def fulltext_terms(text: str, *, fuzzy: bool = False, max_terms: int = 16) -> str:
    """Words of `text` as an OR query of escaped terms ('' when it has no word characters).
    `fuzzy` adds Lucene's ~ edit-distance operator to words of four letters or more."""
    words = _WORD.findall(text.lower())[:max_terms]
    terms = []
    for word in words:
        escaped = _SPECIAL.sub(r"\\\1", word)
        terms.append(f"{escaped}~" if fuzzy and len(word) >= 4 else escaped)
    return " OR ".join(terms)
