"""Entity types as evidence: a type an agent or a kind stated is a wall (only that type is
compared), a type an extractor guessed is not. The small NER models confuse products, companies
and people ("Anthropic" an Object, "Anthropic PBC" an Organization, "GPT-4" a Person), so a
guessed type is compared across the types it is known to be confused with, by level:
`same`, or `compatible` (a known confusion); never across unrelated types (a Person and a
Location)."""

from __future__ import annotations

from apps.resolution.comparisons import Compared

# Types an extractor's guess is known to swap, each with the types it may really be.
CONFUSIONS = {
    "Organization": ("Object", "Person", "Location"),
    "Object": ("Organization", "Person"),
    "Person": ("Organization", "Object"),
    "Location": ("Organization",),
    "Event": ("Object",),
}


def compatible_types(kind: str) -> tuple[str, ...]:
    """The type itself, then the types a guess of it may stand for."""
    return (kind, *CONFUSIONS.get(kind, ()))


def types_may_meet(kind: str, guessed: bool, other: str, other_guessed: bool) -> bool:
    """Whether two entities of these types may be one: the same type, or one of them guessed
    and the other among its known confusions."""
    if kind == other:
        return True
    return (guessed or other_guessed) and other in CONFUSIONS.get(kind, ())


def compare_types(kind: str, guessed: bool, other: str, other_guessed: bool) -> Compared:
    if kind == other:
        return Compared("type", "same", f"both {kind}")
    how = "guessed" if guessed and other_guessed else "one guessed"
    return Compared("type", "compatible", f"{kind} / {other} ({how}: a known NER confusion)")


def trusted_type(kind: str, guessed: bool, other: str, other_guessed: bool) -> tuple[str, bool]:
    """The type a merged entity keeps: a stated type over a guessed one, else the first."""
    if guessed and not other_guessed:
        return other, False
    return kind, guessed and other_guessed
