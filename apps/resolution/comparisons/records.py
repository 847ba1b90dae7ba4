"""Every comparison of two records of one entity type, in a fixed order: what the match model
weighs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.addresses import compare_addresses
from apps.resolution.comparisons.dates import compare_dates
from apps.resolution.comparisons.descriptions import compare_descriptions
from apps.resolution.comparisons.identifiers import (
    compare_domains,
    compare_emails,
    compare_external_ids,
)
from apps.resolution.comparisons.names import compare_names
from apps.resolution.comparisons.phones import compare_phones

COMPARISONS = ("name", "born", "phone", "email", "domain", "external_id", "address",
               "description")  # fmt: skip


@dataclass(frozen=True)
class Record:
    """One side: its names (name first, then aliases) and values."""

    names: Sequence[str]
    values: dict = field(default_factory=dict)


def records_compare(
    kind: str, mine: Record, theirs: Record, *, semantic: float | None = None
) -> list[Compared]:
    """One Compared per comparison of COMPARISONS; `semantic` is the cosine of the two
    descriptions' embeddings (None when either has none)."""
    a, b = mine.values, theirs.values
    date_key = "born" if kind == "Person" else "founded"
    born = compare_dates(date_key, a.get(date_key), b.get(date_key))
    return [
        compare_names(kind, mine.names, theirs.names),
        Compared("born", born.level, born.detail),
        compare_phones(a.get("phone"), b.get("phone")),
        compare_emails(a.get("email"), b.get("email")),
        compare_domains(a, b),
        compare_external_ids(a, b),
        compare_addresses(a.get("address"), b.get("address")),
        compare_descriptions(semantic),
    ]
