"""Every comparison of two records of one entity type, in a fixed order: what the match model
weighs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from apps.resolution.comparisons import MISSING, Compared
from apps.resolution.comparisons.addresses import compare_addresses
from apps.resolution.comparisons.context import compare_context, neighbour_kind
from apps.resolution.comparisons.dates import compare_dates
from apps.resolution.comparisons.descriptions import compare_descriptions
from apps.resolution.comparisons.entity_types import compare_types
from apps.resolution.comparisons.identifiers import (
    compare_domains,
    compare_emails,
    compare_external_ids,
)
from apps.resolution.comparisons.names import compare_names, model_codes
from apps.resolution.comparisons.phones import compare_phones
from apps.resolution.comparisons.roles import compare_roles

COMPARISONS = ("name", "born", "phone", "email", "domain", "external_id", "address",
               "description", "type", "context", "role", "rare_name")  # fmt: skip
LEARNED_PREFIX = "text:"
# Context is evidence for an identical or variant name only: two entities named in one chunk
# share its neighbours, and a name a slip apart with agreeing context is still a reviewer's.
CONTEXT_NAMES = ("exact", "variant")  # a value learned from text (apps.resolution.text_evidence)
# Context that agrees: what lets a rare model name count (rare_name).
AGREEING = {("context", "shared"), ("context", "many"), ("role", "same")}
# A name is rare when at most this many other entities of the type carry it (a duplicate that
# waits for a reviewer is one of them).
RARE_CARRIERS = 2


@dataclass(frozen=True)
class Record:
    """One side: its names (name first, then aliases) and values; its type when it may differ
    from the other side's, whether an extractor guessed it, and the (type, name) of the
    entities named beside it."""

    names: Sequence[str]
    values: dict = field(default_factory=dict)
    type: str | None = None
    guessed: bool = False
    context: Sequence[tuple[str, str]] = ()


def values_compared(values: dict) -> tuple[dict, set[str]]:
    """The values a comparison reads: each key's stated value, else the one learned from text
    (never outranking a stated one); and the keys taken from text."""
    out = {k: v for k, v in values.items() if not k.startswith(LEARNED_PREFIX)}
    learned = set()
    for key, value in values.items():
        if key.startswith(LEARNED_PREFIX):
            plain = key.removeprefix(LEARNED_PREFIX)
            if plain not in out:
                out[plain] = value
                learned.add(plain)
    return out, learned


def records_compare(
    kind: str,
    mine: Record,
    theirs: Record,
    *,
    semantic: float | None = None,
    rare: bool = False,
) -> list[Compared]:
    """One Compared per comparison of COMPARISONS; `semantic` is the cosine of the two
    descriptions' embeddings (None when either has none); `rare`: the candidate's name is
    carried by at most RARE_CARRIERS other entities of its type in the tenant. A value learned from text says so in
    its detail."""
    a, learned_a = values_compared(mine.values)
    b, learned_b = values_compared(theirs.values)
    other_kind = theirs.type or kind
    names_kind = neighbour_kind(mine.type or kind, other_kind)
    date_key = "born" if kind == "Person" else "founded"
    born = compare_dates(date_key, a.get(date_key), b.get(date_key))
    found = [
        compare_names(names_kind, mine.names, theirs.names),
        Compared("born", born.level, born.detail),
        compare_phones(a.get("phone"), b.get("phone")),
        compare_emails(a.get("email"), b.get("email")),
        compare_domains(a, b),
        compare_external_ids(a, b),
        compare_addresses(a.get("address"), b.get("address")),
        compare_descriptions(semantic),
    ]
    learned = learned_a | learned_b
    marked = {"born": date_key, "domain": "url"}
    for i, compared in enumerate(found):
        keys = {compared.comparison, marked.get(compared.comparison, "")}
        if compared.level != MISSING and keys & learned:
            found[i] = Compared(compared.comparison, compared.level,
                                f"{compared.detail}, learned from text")  # fmt: skip
    found.append(
        compare_types(mine.type or kind, mine.guessed, other_kind, theirs.guessed)
        if mine.type and theirs.type and (mine.guessed or theirs.guessed)
        else Compared("type", MISSING)
    )  # fmt: skip
    names = (*mine.names, *theirs.names)
    coded = all(model_codes(n) for n in (mine.names[0], theirs.names[0]))
    if found[0].level not in CONTEXT_NAMES:  # as context_counts says
        found.append(Compared("context", MISSING))
    else:  # a model number guessed a Person is no person: no employer or city conflicts
        found.append(compare_context("Object" if coded else kind, mine.context, theirs.context,
                                     names))  # fmt: skip
    role = compare_roles(a.get("role"), b.get("role"))
    if role.level != "different" and found[0].level not in CONTEXT_NAMES:
        role = Compared("role", MISSING)  # a role agreeing beside a name a slip apart: a reviewer's
    if role.level != MISSING and "role" in learned:
        role = Compared("role", role.level, f"{role.detail}, learned from text")
    found.append(role)
    agreeing = {(c.comparison, c.level) for c in found} & AGREEING
    if rare and coded and found[0].level in CONTEXT_NAMES and agreeing:
        why = ", ".join(sorted(f"{c} {level}" for c, level in agreeing))
        found.append(Compared("rare_name", "code", f"a model name few entities of the tenant "
                              f"carry, with agreeing context ({why})"))  # fmt: skip
    else:
        found.append(Compared("rare_name", MISSING))
    return found


def context_counts(kind: str, my_names, their_names, my_type=None, their_type=None) -> bool:
    """Whether `records_compare` reads the two sides' neighbours at all (beside a name in
    CONTEXT_NAMES only): a reader may leave them unread otherwise (gate_batch.contexts_fill)."""
    names_kind = neighbour_kind(my_type or kind, their_type or kind)
    return compare_names(names_kind, my_names, their_names).level in CONTEXT_NAMES
