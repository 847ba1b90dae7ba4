"""Identifiers: email (case-insensitive), web domain (from `url` or `domain`, without `www.`) and
external ids `id:<system>`, exact or conflicting. An external id one typing slip off (one character
wrong, missing or extra, or two adjacent characters swapped: optimal string alignment distance 1)
is kept apart as `typo`, which the model weighs on its own; only a `conflict` forbids a merge."""

from __future__ import annotations

from urllib.parse import urlsplit

from rapidfuzz.distance import OSA

from apps.resolution.comparisons import MISSING, Compared
from apps.resolution.comparisons.dates import adjacent_swap

TYPO_MIN_CHARS = 6
EXTERNAL_ID_PREFIX = "id:"


def compare_emails(a: object, b: object) -> Compared:
    if not a or not b:
        return Compared("email", MISSING)
    same = str(a).strip().casefold() == str(b).strip().casefold()
    return Compared("email", "exact" if same else "conflict", f"email {a} / {b}")


def domain_of(values: dict) -> str:
    raw = str(values.get("domain") or values.get("url") or "").strip().casefold()
    if not raw:
        return ""
    host = urlsplit(raw if "//" in raw else "//" + raw).hostname or ""
    return host.removeprefix("www.")


def compare_domains(a: dict, b: dict) -> Compared:
    da, db = domain_of(a), domain_of(b)
    if not da or not db:
        return Compared("domain", MISSING)
    return Compared("domain", "exact" if da == db else "conflict", f"domain {da} / {db}")


def compare_external_ids(a: dict, b: dict) -> Compared:
    """Over the systems both sides name: any different id is a conflict (a typo when one slip
    apart), else exact when at least one agrees."""
    systems = sorted(k for k in a.keys() & b.keys() if k.startswith(EXTERNAL_ID_PREFIX))
    if not systems:
        return Compared("external_id", MISSING)
    worst = "exact"
    shown = []
    for system in systems:
        x, y = str(a[system]).strip().casefold(), str(b[system]).strip().casefold()
        shown.append(f"{system} {a[system]} / {b[system]}")
        if x == y:
            continue
        if min(len(x), len(y)) >= TYPO_MIN_CHARS and OSA.distance(x, y) == 1:
            worst = "typo" if worst == "exact" else worst
            swapped = adjacent_swap(x, y)
            shown[-1] += (
                " (two adjacent characters swapped)" if swapped else " (one character apart)"
            )
        else:
            worst = "conflict"
    return Compared("external_id", worst, "; ".join(shown))
