"""Context as evidence: the entities named beside each side (in the same chunks, or related to
it), compared by their names and keys, not their uids, since a neighbour may be a duplicate
itself ("Northwind Robotics" and "Northwind Robotics GmbH" are one neighbour).

Levels, from the neighbours both sides name alike (an exact or variant name of a compatible type):
- `many`: two or more shared, one of them not a place, and no employer in conflict (below);
- `shared`: one shared neighbour that is not a place, and no employer in conflict;
- `place`: only places shared, or a shared neighbour beside another employer;
- `conflict`: nothing shared, and a person whose organisations (its employer) or places named
  beside it all differ from the other side's (another employer, another city), none of them
  a misspelling of the other's;
- `none`: two people with neighbours, none alike (for others: missing, as they are named
  beside many);
- missing when one side has none, or when the names are not identical or variants
  (records.CONTEXT_NAMES).

A person has one employer and one home town at a time, so only for people does a disjoint set
of organisations or places count against; an organisation is named beside many people and
cities, so for the rest only what is shared counts."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from itertools import islice

from wordfreq import zipf_frequency

from apps.resolution.comparisons import MISSING, Compared
from apps.resolution.comparisons.entity_types import types_may_meet
from apps.resolution.comparisons.names import compare_names, misspelt
from apps.resolution.comparisons.text_forms import comparable_tokens, initials

MAX_NEIGHBOURS = 40
COMMON_ZIPF = 4.0  # wordfreq's scale: 'email' 4.7, 'minutes' 5.3; 'crochet' 3.3, 'kuching' 2.4
ALIKE = ("exact", "variant")
_PLACES = ("Location",)
_DIMENSIONS = ("Organization", "Location")  # a person's: another employer, another city
# A side named beside more firms or towns than this is named in notes about many people (a
# stand-up, a digest): those are theirs, so none differing says nothing of this one.
MAX_OWN = 2


def neighbour_kind(a: str, b: str) -> str:
    """The rules two names are compared by: a person's when both are people, an
    organisation's (legal forms, acronyms) when either is one, else a thing's."""
    if a == b:
        return a
    return "Organization" if "Organization" in (a, b) else "Object"


def compare_context(
    kind: str,
    mine: Sequence[tuple[str, str]],
    theirs: Sequence[tuple[str, str]],
    own: Sequence[str] = (),
    settled: frozenset[str] = frozenset(),
) -> Compared:
    """`mine` and `theirs`: (type, name) of the entities named beside each side; `own`: both
    sides' names, so a neighbour that is a part of them ('Castellanos' beside 'Elena
    Castellanos', a split of the entity itself) is not counted as a neighbour; `settled`: the
    types whose tie the two sides share outright (an employer, a city: records_compare), so
    their other neighbours of that type say nothing against them."""
    own = list(dict.fromkeys(own))
    own_words = [_words(o) for o in own]
    # Its names' initials, and its names written as initials ('TB').
    own_initials = (frozenset(initials(o) for o in own) - {""},
                frozenset(o.strip().casefold() for o in own if _INITIALS.match(o)))  # fmt: skip
    mine = list(islice((n for n in dict.fromkeys(mine) if _kept(n, own_words, own_initials)),
                       MAX_NEIGHBOURS))  # fmt: skip
    theirs = list(islice((n for n in dict.fromkeys(theirs) if _kept(n, own_words, own_initials)),
                         MAX_NEIGHBOURS))  # fmt: skip
    if not mine or not theirs:
        return Compared("context", MISSING)
    shared: list[tuple[str, str, str]] = []
    covered: set[str] = set()  # the types the shared neighbours were given, on either side
    for my_type, my_name in mine:
        for their_type, their_name in theirs:
            if not types_may_meet(my_type, True, their_type, True):
                continue
            if _alike(neighbour_kind(my_type, their_type), my_name, their_name):
                shared.append((my_type, my_name, their_name))
                covered |= {my_type, their_type}
                break
    conflicts = []
    if kind == "Person":
        for dimension in _DIMENSIONS:
            mine_d = {n for t, n in mine if t == dimension}
            theirs_d = {n for t, n in theirs if t == dimension}
            if (
                mine_d
                and theirs_d
                and dimension not in covered | settled
                and max(len(mine_d), len(theirs_d)) <= MAX_OWN
                and not _near(dimension, mine_d, theirs_d)
            ):
                conflicts.append(f"{dimension.lower()}s differ ({_few(mine_d)} / {_few(theirs_d)})")
    firm = [s for s in shared if s[0] not in _PLACES or covered - set(_PLACES)]
    employer_differs = any(c.startswith("organizations") for c in conflicts)
    named = ", ".join(f"'{a}'" + (f" ~ '{b}'" if a != b else "") for _, a, b in shared[:4])
    but = f"; but {'; '.join(conflicts)}" if conflicts else ""
    if firm and not employer_differs:
        level = "many" if len(shared) >= 2 else "shared"
        return Compared("context", level, f"named beside {named}{but}")
    if shared:
        return Compared("context", "place", f"named beside {named}{but}")
    if conflicts:
        return Compared("context", "conflict", "; ".join(conflicts))
    if kind != "Person":  # an organisation or a thing is named beside many: no evidence
        return Compared("context", MISSING)
    return Compared("context", "none", f"no neighbour alike ({_few(n for _, n in mine)})")


@functools.lru_cache(maxsize=65536)  # pure; each match's neighbours meet the window's again
def _alike(kind: str, a: str, b: str) -> bool:
    return compare_names(kind, [a], [b]).level in ALIKE


def _near(kind: str, mine: set[str], theirs: set[str]) -> bool:
    """Some name of one side is a slip of the other's ('Minstomi Precision' / 'Minatomi
    Precision Co., Ltd.'): notes misspell, so that is no other employer or city."""
    return any(misspelt(kind, a, b) for a in mine for b in theirs)


def _kept(
    neighbour: tuple[str, str],
    own_words: Sequence[frozenset[str]],
    own_initials: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> bool:
    """A neighbour that says who a side is: not a part of its own name (`own_words`: the words
    of each of its names), nor its name and its initials the one for the other (`own_initials`:
    of its names, and those written as initials: 'TB' beside 'Thanakorn Boonmee' is the
    person twice, as minutes name attendees), and not one common word a note capitalised
    ("Email", "Minutes", "May" beside two namesakes says nothing); a firm or a place keeps its
    name whatever its frequency ("Apple", "Paris")."""
    type_, name = neighbour
    if type_ not in ("Organization", "Location") and _common_word(name):
        return False
    of_names, written = own_initials
    if initials(name) in written or _INITIALS.match(name) and name.strip().casefold() in of_names:
        return False
    words = _words(name)
    return not (words and any(words <= o for o in own_words))


_INITIALS = re.compile(r"^\s*[A-Z]{2,4}\s*$")


# Both pure and asked again for each pair an entity is in (its neighbours, its names).
@functools.lru_cache(maxsize=65536)
def _words(name: str) -> frozenset[str]:
    return frozenset(comparable_tokens(name))


@functools.lru_cache(maxsize=65536)
def _common_word(name: str) -> bool:
    return " " not in name.strip() and zipf_frequency(name.strip().casefold(), "en") >= COMMON_ZIPF


def _few(names) -> str:
    names = sorted(set(names))
    return ", ".join(f"'{n}'" for n in names[:3]) + (" ..." if len(names) > 3 else "")
