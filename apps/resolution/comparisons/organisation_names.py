"""Names of organisations and other things: legal forms normalised (`cleanco`: 'Acme Inc.' is
'ACME'), an acronym against its expansion ('IBM', 'International Business Machines')."""

from __future__ import annotations

import functools

import jellyfish
from cleanco import basename
from rapidfuzz import fuzz
from unidecode import unidecode

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.text_forms import comparable

CLOSE_JW = 0.92
SIMILAR_RATIO = 85
_MORE_FORMS = {"pbc", "spc", "cic", "bv", "nv", "oy", "ab", "as", "sarl", "srl", "spa"}
_GLUE = {"of", "and", "the", "for", "de", "du", "der", "und", "la", "le", "y", "et"}


@functools.lru_cache(maxsize=20000)
def legal_base(name: str) -> str:
    """The name without its legal form(s): 'Acme Holdings, Inc.' -> 'acme holdings'."""
    text = unidecode(name)
    base = comparable(basename(basename(text))) or comparable(text)
    words = base.split()
    while len(words) > 1 and words[-1] in _MORE_FORMS:  # forms cleanco does not know
        words.pop()
    return " ".join(words)


def acronym(name: str) -> str:
    words = [w for w in legal_base(name).split() if w not in _GLUE]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def _is_acronym_of(short: str, long: str) -> bool:
    token = comparable(short).replace(" ", "")
    return 2 <= len(token) <= 8 and " " not in comparable(short) and token == acronym(long)


def compare_organisation_name(a: str, b: str, *, legal_forms: bool = True) -> Compared:
    ca, cb = comparable(a), comparable(b)
    if ca and ca == cb:
        return Compared("name", "exact", f"'{a}' = '{b}'")
    if legal_forms:
        ba, bb = legal_base(a), legal_base(b)
        if ba and ba == bb:
            return Compared("name", "variant", f"'{a}' and '{b}' differ only in the legal form")
        if _is_acronym_of(a, b) or _is_acronym_of(b, a):
            return Compared("name", "variant", f"'{a}' / '{b}': an acronym and its expansion")
    else:
        ba, bb = ca, cb
        if sorted(ca.split()) == sorted(cb.split()):
            return Compared("name", "variant", f"'{a}' and '{b}': the same words in another order")
    jw = jellyfish.jaro_winkler_similarity(ba, bb)
    if jw >= CLOSE_JW:
        return Compared("name", "close", f"'{a}' ~ '{b}' (Jaro-Winkler {jw:.2f})")
    ratio = fuzz.token_set_ratio(ba, bb)
    if ratio >= SIMILAR_RATIO:
        return Compared("name", "similar", f"'{a}' resembles '{b}' (tokens {ratio:.0f}%)")
    return Compared("name", "different", f"'{a}' and '{b}' are different names")
