"""Postal addresses by their words (order, abbreviation and typos tolerated): exact, close,
similar or different."""

from __future__ import annotations

from rapidfuzz import fuzz

from apps.resolution.comparisons import MISSING, Compared
from apps.resolution.comparisons.text_forms import comparable

CLOSE_RATIO = 85
SIMILAR_RATIO = 60


def compare_addresses(a: object, b: object) -> Compared:
    ca, cb = comparable(str(a or "")), comparable(str(b or ""))
    if not ca or not cb:
        return Compared("address", MISSING)
    if sorted(ca.split()) == sorted(cb.split()):
        return Compared("address", "exact", f"address '{a}' = '{b}'")
    ratio = max(fuzz.token_sort_ratio(ca, cb), fuzz.token_set_ratio(ca, cb) - 5)
    if ratio >= CLOSE_RATIO:
        level = "close"
    elif ratio >= SIMILAR_RATIO:
        level = "similar"
    else:
        level = "different"
    return Compared("address", level, f"address '{a}' / '{b}' (words {ratio:.0f}%)")
