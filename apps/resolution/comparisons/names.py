"""The name comparison of two entities: the best level over every pair of their names and
aliases, by the entity type's rules (people parsed, organisations without legal forms)."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.organisation_names import compare_organisation_name
from apps.resolution.comparisons.person_names import compare_person_name
from apps.resolution.comparisons.text_forms import comparable

_DIGITS = re.compile(r"\d+")
NAME_LEVELS = (
    "exact",
    "variant",
    "close",
    "surname",
    "given",
    "similar",
    "different",
)  # strongest first


def compare_names(kind: str, mine: Iterable[str], theirs: Iterable[str]) -> Compared:
    """The best level over every pair of names, each side's own name first; a detail that
    found it through an alias names that side's own name too."""
    mine, theirs = list(dict.fromkeys(mine)), list(dict.fromkeys(theirs))
    own = (mine[0], theirs[0]) if mine and theirs else None
    if _full(mine) and _full(theirs):
        # 'Marchetti' after 'Priya Marchetti' and after 'Yara Marchetti' is each one's surname,
        # not a name the two share ('Kestrel' of 'Kestrel Analytics' and 'Kestrel Robotics'
        # alike): two sides with full names are compared by their full names.
        mine, theirs = _full(mine), _full(theirs)
    if kind == "Person" and bool(_full(mine)) != bool(_full(theirs)):
        said = (_surname_said(mine, theirs) or _surname_said(theirs, mine)
                or _given_said(mine, theirs) or _given_said(theirs, mine))  # fmt: skip
        if said:
            return said
    best, pair = _best_pair(kind, mine, theirs)
    if best is None:
        return Compared("name", "different", "no names")
    return best if pair == own else _own_names_said(best, pair, own)


def _surname_said(lone: list[str], full: list[str]) -> Compared | None:
    """'Asiedu' beside 'Yaw Asiedu' (or beside an entity that keeps 'Asiedu' as an alias,
    because a note named both): the surname a person is called by, the level `surname` either
    way, so the order notes arrive in does not decide the level; weaker than an identical name,
    as two people of one surname are common."""
    if _full(lone) or not _full(full):
        return None
    for word in lone:
        for name in _full(full):
            if comparable(word) and comparable(name).split()[-1] == comparable(word):
                return Compared("name", "surname", f"'{word}' is the surname of '{name}'")
    return None


def _given_said(lone: list[str], full: list[str]) -> Compared | None:
    """'Harpreet' beside 'Harpreet Dhillon', whether or not a note that named both left
    'Harpreet' as an alias: the level `given` either way. Identical to the alias it would be
    `exact`, as strong as a full name, and which notes came first would decide it."""
    if _full(lone) or not _full(full):
        return None
    for word in lone:
        for name in _full(full):
            if comparable(word) and comparable(name).split()[0] == comparable(word):
                return Compared("name", "given", f"'{word}' is the given name of '{name}'")
    return None


def _best_pair(kind: str, mine: list[str], theirs: list[str]):
    """The strongest comparison of a name of each side, and that pair of names."""
    best, pair = None, None
    for a in mine:
        for b in theirs:
            found = _pair_compared(kind, a, b)
            if best is None or NAME_LEVELS.index(found.level) < NAME_LEVELS.index(best.level):
                best, pair = found, (a, b)
            if best.level == "exact":
                return best, pair
    return best, pair


# One pair of names is compared the same way every time (pure rules and tables); a window's
# candidates meet the same matches and neighbours again and again.
@functools.lru_cache(maxsize=65536)
def _pair_compared(kind: str, a: str, b: str) -> Compared:
    codes = model_codes(a), model_codes(b)
    if codes[0] and codes[1] and codes[0] != codes[1]:
        return Compared("name", "different", f"'{a}' and '{b}': model numbers differ "
                        f"({'/'.join(codes[0])} / {'/'.join(codes[1])})")  # fmt: skip
    if bool(codes[0]) != bool(codes[1]) and _stem(a if codes[0] else b) == comparable(
        b if codes[0] else a
    ):  # "Zinnia" beside "Zinnia-8": notes drop a model's number once it is named
        return Compared("name", "variant", f"'{a}' and '{b}': a model name without its number")
    if _compact(a) == _compact(b) and comparable(a) != comparable(b):
        if codes[0]:  # 'Pyxo-23', 'Pyxo 23', 'pyxo23': one model number written three ways
            return Compared("name", "exact", f"'{a}' and '{b}': one model name written two ways")
        return Compared("name", "variant", f"'{a}' and '{b}' differ only in spacing "
                        "or punctuation")  # fmt: skip
    if kind == "Person":
        return compare_person_name(a, b)
    return compare_organisation_name(a, b, legal_forms=kind == "Organization")


@functools.lru_cache(maxsize=65536)
def misspelt(kind: str, a: str, b: str) -> bool:
    """Whether one name is a slip of the other ('Minstomi Precision' / 'Minatomi Precision Co.,
    Ltd.'): neither the same name nor another one."""
    return compare_names(kind, [a], [b]).level in ("close", "similar")


def _own_names_said(found: Compared, pair: tuple[str, str], own: tuple[str, str]) -> Compared:
    """'Corvane Analytics Inc.' = 'Corvane Analytics Inc.' says nothing of a pair whose one side
    is named so by an alias: that side's name is written as "'Corvane Analytics' (alias
    'Corvane Analytics Inc.')", in place, else (a detail about parts of the names) before it."""
    shown = [f"'{name}'" if name == main else f"'{main}' (alias '{name}')"
             for name, main in zip(pair, own, strict=True)]  # fmt: skip
    detail, at = found.detail, 0
    for name, side in zip(pair, shown, strict=True):
        where = detail.find(f"'{name}'", at)
        if where < 0:
            return dataclasses.replace(found, detail=f"{shown[0]} / {shown[1]}: {found.detail}")
        detail = detail[:where] + side + detail[where + len(name) + 2 :]
        at = where + len(side)
    return dataclasses.replace(found, detail=detail)


def _full(names: list[str]) -> list[str]:
    return [n for n in names if len(comparable(n).split()) >= 2]


@functools.lru_cache(maxsize=65536)
def model_codes(name: str) -> tuple[str, ...]:
    """The numbers written in a name ('V-7' -> ('7',), 'Helix X2' -> ('2',)): two names whose
    numbers differ name two models, however alike their letters ('V-7' / 'V-8')."""
    return tuple(_DIGITS.findall(comparable(name)))


def _compact(name: str) -> str:
    """'GPT-4', 'GPT 4' and 'gpt4' alike."""
    return comparable(name).replace(" ", "")


def _stem(name: str) -> str:
    """A model name's words before its number ('Zinnia-8' -> 'zinnia'), when they are a word of
    at least four letters; else ''."""
    words = comparable(name).split()
    while words and any(c.isdigit() for c in words[-1]):
        words.pop()
    glued = re.match(r"([a-z]+)\d+$", comparable(name))
    stem = " ".join(words) if words else glued.group(1) if glued else ""
    return stem if len(stem.replace(" ", "")) >= 4 else ""
