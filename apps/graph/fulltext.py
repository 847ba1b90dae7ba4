"""Caller text made safe for Lucene's query syntax (full-text indexes): the text is passed as a
$parameter, and its special characters are escaped so it is searched as words, never parsed."""

import re

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_WORD = re.compile(r"\w+", re.UNICODE)
# Two edits' automaton costs Lucene ~2 ms a term to build, one edit a fifth of that: the gate's
# searches (many terms per chunk) keep two for long words only, where one typo and one variant
# letter meet more often; a person typing a search keeps two everywhere ("okaf" finds Okafor).
LONG_WORD = 8
# English function words (the common stop-word list of NLTK): in a search of free text by its
# words they match nearly everything, so a ranking by them is noise; names and content words
# are what a search by words adds to a search by meaning.
STOP_WORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves s t d ll m o re ve y
""".split()
)


def fulltext_terms(
    text: str,
    *,
    fuzzy: bool = False,
    one_edit_below: int = 0,
    max_terms: int = 16,
    content_only: bool = False,
) -> str:
    """Words of `text` as an OR query of escaped terms ('' when it has no word characters).
    `fuzzy` adds Lucene's edit-distance operator to words of four letters or more: two edits,
    one for words shorter than `one_edit_below` (a transposition counts one); `content_only`
    leaves out STOP_WORDS."""
    words = _WORD.findall(text.lower())
    words = [w for w in words if not (content_only and w in STOP_WORDS)][:max_terms]
    terms = []
    for word in words:
        escaped = _SPECIAL.sub(r"\\\1", word)
        edits = "" if not fuzzy or len(word) < 4 else "~1" if len(word) < one_edit_below else "~"
        terms.append(escaped + edits)
    return " OR ".join(terms)


def fulltext_phrase(text: str) -> str:
    """The whole text as one quoted phrase, escaped."""
    return '"' + _SPECIAL.sub(r"\\\1", text.strip()) + '"'


def scoped_query(
    terms: str,
    fields: tuple[str, ...],
    *,
    also: dict[str, str] | None = None,
    **required: str | tuple[str, ...] | None,
) -> str:
    """`terms` (a fulltext_terms query) searched in `fields` only, and every `required` field
    holding its value as a phrase, so Lucene applies the tenant (and type, status) filters
    before it ranks and cuts: a large tenant cannot crowd a small one out of its hits. Callers
    still compare the exact value afterwards (a phrase of one tenant could sit inside another's).
    `also` maps further fields to their own terms, any of which may match instead. A `required`
    tuple is any of its values. '' when there are no terms."""
    wanted = [f"{field}:({terms})" for field in fields if terms]
    wanted += [f"{field}:({own})" for field, own in (also or {}).items() if own]
    if not wanted:
        return ""
    filters = [
        f"+{field}:{fulltext_phrase(value)}" if isinstance(value, str)
        else f"+{field}:(" + " OR ".join(fulltext_phrase(v) for v in value) + ")"
        for field, value in required.items() if value
    ]  # fmt: skip
    return " ".join([*filters, "+(" + " ".join(wanted) + ")"])


def entity_words_query(
    tenant: str, terms: str, *, type: str | tuple[str, ...] | None = None,
    keys: tuple[str, ...] = (),
) -> str:  # fmt: skip
    """The entity_names query for the tenant's active entities (of `type`, or of any of a tuple
    of types, when given); `keys`
    (resolution's blocking keys: phonetic codes, acronyms, identifier digests; plain
    lower-case letters and digits) may match the `name_keys` field instead of the words."""
    also = {"name_keys": " OR ".join(_SPECIAL.sub(r"\\\1", k) for k in keys)} if keys else None
    return scoped_query(terms, ("name", "aliases"), also=also, tenant=tenant, type=type,
                        status="active")  # fmt: skip
