"""Roles by their words (what a note says a thing is: apps.resolution.role_words): `same` when
the head words (the last of each) are one and their other words do not say two kinds of it,
`related` when another word is shared ('logistics firm' / 'logistics company'), `different`
when none is (a nurse and a pilot, a drone and a battery pack) or when one head word is
qualified two ways ('fleet manager' / 'category manager': two jobs, a namesake's; 'manager' /
'product manager' and 'senior engineer' / 'software engineer' stay `same`); missing when
either side has none."""

from __future__ import annotations

from apps.resolution.comparisons import MISSING, Compared

# Words before a head word that say a rank or whose it is, not which kind of job or thing.
QUALIFIERS = frozenset(
    "of the a an its their his her our my senior junior principal staff lead head chief deputy "
    "assistant associate acting interim former new current regional global general".split()
)


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
                kinds_a, kinds_b = set(wa[:-1]) - QUALIFIERS, set(wb[:-1]) - QUALIFIERS
                if not kinds_a or not kinds_b or kinds_a & kinds_b:
                    return Compared("role", "same", f"'{ra}' / '{rb}'")
                continue  # one head word, two kinds of it
            if set(wa) & set(wb):
                best = "related"
    return Compared("role", best, f"'{a}' / '{b}'")


def _roles(value: object) -> list[str]:
    return [r.strip() for r in str(value).casefold().split(";") if r.strip()]
