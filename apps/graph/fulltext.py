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


def fulltext_phrase(text: str) -> str:
    """The whole text as one quoted phrase, escaped."""
    return '"' + _SPECIAL.sub(r"\\\1", text.strip()) + '"'


def scoped_query(
    terms: str,
    fields: tuple[str, ...],
    *,
    also: dict[str, str] | None = None,
    **required: str | None,
) -> str:
    """`terms` (a fulltext_terms query) searched in `fields` only, and every `required` field
    holding its value as a phrase, so Lucene applies the tenant (and type, status) filters
    before it ranks and cuts: a large tenant cannot crowd a small one out of its hits. Callers
    still compare the exact value afterwards (a phrase of one tenant could sit inside another's).
    `also` maps further fields to their own terms, any of which may match instead.
    '' when there are no terms."""
    wanted = [f"{field}:({terms})" for field in fields if terms]
    wanted += [f"{field}:({own})" for field, own in (also or {}).items() if own]
    if not wanted:
        return ""
    filters = [f"+{field}:{fulltext_phrase(value)}" for field, value in required.items() if value]
    return " ".join([*filters, "+(" + " ".join(wanted) + ")"])


def entity_words_query(
    tenant: str, terms: str, *, type: str | None = None, keys: tuple[str, ...] = ()
) -> str:
    """The entity_names query for the tenant's active entities (of `type`, when given); `keys`
    (resolution's blocking keys: phonetic codes, acronyms, identifier digests; plain
    lower-case letters and digits) may match the `name_keys` field instead of the words."""
    also = {"name_keys": " OR ".join(_SPECIAL.sub(r"\\\1", k) for k in keys)} if keys else None
    return scoped_query(terms, ("name", "aliases"), also=also, tenant=tenant, type=type,
                        status="active")  # fmt: skip
