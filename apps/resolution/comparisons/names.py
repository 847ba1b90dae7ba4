"""The name comparison of two entities: the best level over every pair of their names and
aliases, by the entity type's rules (people parsed, organisations without legal forms)."""

from __future__ import annotations

from collections.abc import Iterable

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.organisation_names import compare_organisation_name
from apps.resolution.comparisons.person_names import compare_person_name
from apps.resolution.comparisons.text_forms import comparable

NAME_LEVELS = ("exact", "variant", "close", "similar", "different")  # strongest first


def compare_names(kind: str, mine: Iterable[str], theirs: Iterable[str]) -> Compared:
    best = None
    for a in dict.fromkeys(mine):
        for b in dict.fromkeys(theirs):
            if _compact(a) == _compact(b) and comparable(a) != comparable(b):
                found = Compared("name", "variant", f"'{a}' and '{b}' differ only in spacing "
                                 "or punctuation")  # fmt: skip
            elif kind == "Person":
                found = compare_person_name(a, b)
            else:
                found = compare_organisation_name(a, b, legal_forms=kind == "Organization")
            if best is None or NAME_LEVELS.index(found.level) < NAME_LEVELS.index(best.level):
                best = found
            if best.level == "exact":
                return best
    return best or Compared("name", "different", "no names")


def _compact(name: str) -> str:
    """'GPT-4', 'GPT 4' and 'gpt4' alike."""
    return comparable(name).replace(" ", "")
