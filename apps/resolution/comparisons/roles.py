"""Roles by their words (what a note says a thing is: apps.resolution.role_words): `same` when
the head words (the last of each) are one, `related` when another word is shared ('logistics
firm' / 'logistics company'), `different` when none is (a nurse and a pilot, a drone and a
battery pack); missing when either side has none."""

from __future__ import annotations

from apps.resolution.comparisons import MISSING, Compared


def _head(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def compare_roles(a: object, b: object) -> Compared:
    """The best level over the roles each side holds ('; ' between two a merge kept)."""
    if not a or not b:
        return Compared("role", MISSING)
    best = "different"
    for ra in _roles(a):
        for rb in _roles(b):
            wa, wb = [_head(w) for w in ra.split()], [_head(w) for w in rb.split()]
            if wa and wb and wa[-1] == wb[-1]:
                return Compared("role", "same", f"'{ra}' / '{rb}'")
            if set(wa) & set(wb):
                best = "related"
    return Compared("role", best, f"'{a}' / '{b}'")


def _roles(value: object) -> list[str]:
    return [r.strip() for r in str(value).casefold().split(";") if r.strip()]
