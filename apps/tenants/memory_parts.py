"""What each memory app tells tenancy about itself, registered from its AppConfig.ready(): the
counts of its memory a tenant's dashboard, stats route and usage samples show, what its jobs are
called on the pages, which of its jobs erase people's data (the console's erasure page), and
which are housekeeping (a job the app runs for every tenant on a clock, which puts no memory in
it), and the card of its own an app may put on the dashboard. Tenancy stands below every memory app (docs/concepts/layers.md), so it names none of their
labels or job kinds: it iterates this registry.

A count is a Cypher `COUNT { ... }` subquery over `$tenant`, kept beside the app that owns the
label; tenancy sends all of them as one query (one round trip), in registration order."""

from __future__ import annotations

import re
from dataclasses import dataclass

COUNT_NAME = re.compile(r"[a-z][a-z_]{0,39}")


@dataclass(frozen=True)
class MemoryPart:
    app: str  # the app label
    counts: tuple[tuple[str, str], ...] = ()  # (name, "COUNT { MATCH ... {tenant: $tenant} }")
    job_labels: tuple[tuple[str, str], ...] = ()  # (job kind, what the pages call it)
    erasure_job_kinds: tuple[str, ...] = ()
    housekeeping_job_kinds: tuple[str, ...] = ()
    dashboard_card: str = ""  # a template the dashboard includes: the app's own card of jobs
    dashboard_card_job_kinds: tuple[str, ...] = ()  # shown there, not under "other work"


_parts: dict[str, MemoryPart] = {}


def memory_part_register(part: MemoryPart) -> None:
    """Add (or replace: ready() may run twice in tests) an app's part. A count's name is a plain
    identifier and its subquery is scoped to `$tenant`, checked here, at start."""
    for name, subquery in part.counts:
        if not COUNT_NAME.fullmatch(name) or not subquery.startswith("COUNT {"):
            raise ValueError(f"{part.app}: a count is a name and a COUNT {{ }} subquery: {name}")
        if "$tenant" not in subquery:
            raise ValueError(f"{part.app}: the count {name} is not scoped to $tenant")
    _parts[part.app] = part


def memory_parts() -> list[MemoryPart]:
    return list(_parts.values())


def memory_counts_query() -> str | None:
    """One query returning every registered count by name (None: no app registered one)."""
    counts = [(name, subquery) for part in _parts.values() for name, subquery in part.counts]
    if not counts:
        return None
    return "RETURN " + ", ".join(subquery + " AS " + name for name, subquery in counts)


def job_label(kind: str) -> str:
    """What the pages call a kind of job; a kind no app registered shows as it is stored."""
    for part in _parts.values():
        for registered, label in part.job_labels:
            if registered == kind:
                return label
    return kind


def erasure_job_kinds() -> tuple[str, ...]:
    return tuple(kind for part in _parts.values() for kind in part.erasure_job_kinds)


def housekeeping_job_kinds() -> tuple[str, ...]:
    return tuple(kind for part in _parts.values() for kind in part.housekeeping_job_kinds)


def dashboard_cards() -> list[str]:
    return [part.dashboard_card for part in _parts.values() if part.dashboard_card]


def dashboard_card_job_kinds() -> tuple[str, ...]:
    return tuple(kind for part in _parts.values() for kind in part.dashboard_card_job_kinds)
