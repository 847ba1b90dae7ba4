"""Who or what a thing is tied to, as the parse of its sentences says (the learned values
`text:employer`, `text:city`, `text:maker`: apps.ingestion.extraction.mention_attributes; a
person's pastime, `text:hobby`: apps.resolution.hobby_words), or as an agent states them
(`employer`, `city`, `maker`, `hobby`). One comparison each, so that a shared
employer, a shared city and a shared job add up instead of standing for one another:

- `same`: a value of one side names a value of the other (organisations by their names without
  legal forms, an acronym, or a short name that opens the long one: 'Corvane' / 'Corvane
  Analytics Inc.'; places by their comparable form; pastimes by a word that tells which);
- `different`: both sides have values and none is alike nor a misspelling of the other
  (weighed mildly: a looser tie, "X emailed Y", can differ for one person); never for an
  organisation's city, as a firm is named beside its offices and its clients' towns;
- missing when either side has none.

Which comparisons an entity type has: a person's employer, city and hobby, an organisation's
city, a thing's maker."""

from __future__ import annotations

import functools

from apps.resolution.comparisons import MISSING, Compared
from apps.resolution.comparisons.names import misspelt
from apps.resolution.comparisons.organisation_names import acronym, legal_base
from apps.resolution.comparisons.text_forms import comparable
from apps.resolution.hobby_words import hobbies_alike

AFFILIATIONS = ("employer", "city", "maker", "hobby")
# Where a person worked ("ex-Tessaro", "used to be at Tessaro"): no comparison of its own, and
# no neighbour of either side (records_compare), so a namesake working there now shares nothing.
FORMER_EMPLOYER = "former_employer"
OF_KIND = {
    "Person": ("employer", "city", "hobby"),
    "Organization": ("city",),
    "Object": ("maker",),
}
_NAMED = {"employer": "Organization", "city": "Location", "maker": "Organization"}
SEPARATOR = "; "
MAX_VALUES = 6


def affiliation_values(value: object) -> list[str]:
    """The names a value holds ('Corvane Analytics; Halden Health')."""
    if not value:
        return []
    return [v.strip() for v in str(value).split(";") if v.strip()][:MAX_VALUES]


def compare_affiliation(key: str, kind: str, a: object, b: object) -> Compared:
    if key not in OF_KIND.get(kind, ()):
        return Compared(key, MISSING)
    mine, theirs = affiliation_values(a), affiliation_values(b)
    if not mine or not theirs:
        return Compared(key, MISSING)
    for x in mine:
        for y in theirs:
            if _alike(key, x, y):
                shown = f"'{x}'" if x == y else f"'{x}' ~ '{y}'"
                return Compared(key, "same", shown)
    if kind == "Organization":
        return Compared(
            key, MISSING
        )  # a firm is named beside many places: only a shared one counts
    if key in _NAMED and any(misspelt(_NAMED[key], x, y) for x in mine for y in theirs):
        return Compared(key, MISSING)  # 'Minstomi Precision' / 'Minatomi': a slip, not another
    return Compared(key, "different", f"{_few(mine)} / {_few(theirs)}")


@functools.lru_cache(maxsize=65536)
def _alike(key: str, a: str, b: str) -> bool:
    if key == "city":
        return comparable(a) == comparable(b) != ""
    if key == "hobby":
        return hobbies_alike(a, b)
    ba, bb = legal_base(a), legal_base(b)
    if not ba or not bb:
        return False
    if ba == bb:
        return True
    short, long = sorted((ba.split(), bb.split()), key=len)
    if long[: len(short)] == short and len("".join(short)) >= 4:
        return True  # 'Corvane' / 'Corvane Analytics'
    return (len(short) == 1 and short[0] == acronym(" ".join(long))) or (
        comparable(a).replace(" ", "") == comparable(b).replace(" ", "")
    )


def _few(values: list[str]) -> str:
    return ", ".join(f"'{v}'" for v in values[:3])
