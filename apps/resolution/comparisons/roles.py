"""Roles by their words (what a note says a thing is: apps.resolution.role_words): `same` when
the head words (the last of each) are one, `related` when another word is shared ('logistics
firm' / 'logistics company'), `different` when none is (a nurse and a pilot, a drone and a
battery pack); missing when either side has none."""

from __future__ import annotations

from apps.resolution.comparisons import MISSING, Compared


def _head(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def compare_roles(a: object, b: object) -> Compared:
    if not a or not b:
        return Compared("role", MISSING)
    wa = [_head(w) for w in str(a).casefold().split()]
    wb = [_head(w) for w in str(b).casefold().split()]
    shown = f"'{a}' / '{b}'"
    if wa and wb and wa[-1] == wb[-1]:
        return Compared("role", "same", shown)
    if set(wa) & set(wb):
        return Compared("role", "related", shown)
    return Compared("role", "different", shown)
