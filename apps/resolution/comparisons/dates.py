"""Dates (birth, founding): exact, close (a typo: one digit, two adjacent digits swapped, day
and month swapped, one day or month off), or conflicting, at the precision both sides give
(YYYY, YYYY-MM, YYYY-MM-DD). A typist's slip is `close`, weighed by the model; only a date no
slip explains is a `conflict`, which forbids an automatic merge. A year alone ("born in 1961", as
notes write it) is weaker evidence than a whole date: `year` when equal, `year_close` when one
digit apart or two swapped (weighed against: more often two people than a slip)."""

from __future__ import annotations

from apps.resolution.comparisons import MISSING, Compared


def _parts(value: object) -> list[str]:
    return str(value).strip().split("-") if value not in (None, "") else []


def compare_dates(key: str, a: object, b: object) -> Compared:
    pa, pb = _parts(a), _parts(b)
    if not pa or not pb:
        return Compared(key, MISSING)
    depth = min(len(pa), len(pb))
    pa, pb = pa[:depth], pb[:depth]
    shown = f"{key} {'-'.join(pa)} / {'-'.join(pb)}"
    if depth == 1 and pa == pb:  # a year alone: one of some fifty a tenant's people share
        return Compared(key, "year", shown + " (the year only)")
    if pa == pb:
        return Compared(key, "exact", shown)
    da, db = "".join(pa), "".join(pb)
    if depth == 1 and len(da) == len(db) and sum(x != y for x, y in zip(da, db, strict=True)) == 1:
        # Two years a digit apart are more often two people than a slip (1963 / 1968).
        return Compared(key, "year_close", shown + " (years one digit apart)")
    if depth == 1 and adjacent_swap(da, db):
        # So are two years with their last digits swapped (1979 / 1997: standups seed 4 merged
        # namesakes on it as on a whole date's slip); a swap inside a whole date stays `close`.
        return Compared(key, "year_close", shown + " (years two digits swapped)")
    if len(da) == len(db) and sum(x != y for x, y in zip(da, db, strict=True)) == 1:
        return Compared(key, "close", shown + " (one digit apart)")
    if adjacent_swap(da, db):
        return Compared(key, "close", shown + " (two adjacent digits swapped)")
    if depth == 3 and pa[0] == pb[0] and (pa[1], pa[2]) == (pb[2], pb[1]):
        return Compared(key, "close", shown + " (day and month swapped)")
    if pa[0] == pb[0] and depth >= 2 and _one_apart(pa[1:], pb[1:]):
        return Compared(key, "close", shown + " (one day or month apart)")
    return Compared(key, "conflict", shown)


def adjacent_swap(a: str, b: str) -> bool:
    """True when b is a with exactly two neighbouring characters swapped (1965 / 1956): the
    commonest typing slip after a wrong key, which an edit distance counts as two edits."""
    if len(a) != len(b):
        return False
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return (
        len(diffs) == 2
        and diffs[1] == diffs[0] + 1
        and (a[diffs[0]], a[diffs[1]]) == (b[diffs[1]], b[diffs[0]])
    )


def _one_apart(a: list[str], b: list[str]) -> bool:
    diffs = [abs(int(x) - int(y)) for x, y in zip(a, b, strict=True) if x != y]
    return len(diffs) == 1 and diffs[0] == 1
