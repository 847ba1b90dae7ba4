"""Names of people: parsed (`nameparser`: first, middle, last, suffix), so that an initial, a
nickname (`nicknames`), a dropped middle name or swapped order still reads as the same name, and
'John Smith Jr.' is not 'John Smith Sr.'."""

from __future__ import annotations

import functools
import threading

import jellyfish
import nameparser
from nameparser import HumanName
from nicknames import NickNamer
from rapidfuzz import fuzz
from unidecode import unidecode

from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.text_forms import comparable

# Jaro-Winkler at or above this on both first and last name is a typo, not another name
# (FEBRL's corrupted duplicates sit above it; distinct common names mostly below).
CLOSE_JW = 0.88
SIMILAR_RATIO = 85
GENERATIONS = {"jr": "jr", "junior": "jr", "sr": "sr", "senior": "sr",
               "i": "i", "ii": "ii", "iii": "iii", "iv": "iv"}  # fmt: skip


@functools.cache
def _nicknamer() -> NickNamer:
    return NickNamer()


# Parsing is the costliest part of scoring a match, so each parse is kept: in the process
# (PARSES names), and on the entity when it is written (`parse_stored`, read back with the
# match by `parse_restore`). A kept parse stands for its name under this parser only.
PARSE_VERSION = f"nameparser {nameparser.__version__}, rules 1"  # bump when parsed() changes
PARSES = 20000
_parses: dict[str, tuple[str, str, str, str]] = {}
_parses_lock = threading.Lock()


def parsed(name: str) -> tuple[str, str, str, str]:
    """(first, middle, last, generation), each folded; a lone word is a last name."""
    known = _parses.get(name)
    if known is None:
        known = _parse(name)
        _remember(name, known)
    return known


def parse_stored(name: str) -> list[str]:
    """What an entity keeps of its name's parse: the version, the name, then `parsed(name)`."""
    return [PARSE_VERSION, name, *parsed(name)]


def parse_kept(kind: str, name: str) -> list[str] | None:
    """What an entity of `kind` keeps of its name's parse: a person's `parse_stored`, else None."""
    return parse_stored(name) if kind == "Person" else None


def parse_restore(stored: list[str] | None) -> None:
    """Take a parse kept on an entity (`parse_stored`) as this process's, if this parser made it."""
    if stored and len(stored) == 6 and stored[0] == PARSE_VERSION and stored[1] not in _parses:
        _remember(stored[1], tuple(stored[2:]))


def _remember(name: str, parts: tuple[str, str, str, str]) -> None:
    with _parses_lock:
        if len(_parses) >= PARSES:  # the oldest first
            _parses.pop(next(iter(_parses)))
        _parses[name] = parts


def _parse(name: str) -> tuple[str, str, str, str]:
    human = HumanName(unidecode(name))
    first, middle, last = comparable(human.first), comparable(human.middle), comparable(human.last)
    if first and not last:
        first, last = "", first
    generation = GENERATIONS.get(comparable(human.suffix).split(" ")[0], "") if human.suffix else ""
    return first, middle, last, generation


def same_given_name(a: str, b: str) -> str:
    """Why two first names are one ('' if they are not): equal, an initial, a nickname."""
    if not a or not b:
        return ""
    if a == b:
        return "same first name"
    short, long = sorted((a, b), key=len)
    if len(short) == 1 and long.startswith(short):
        return f"'{short}' is the initial of '{long}'"
    namer = _nicknamer()
    if (
        b in namer.nicknames_of(a)
        or a in namer.nicknames_of(b)
        or (namer.canonicals_of(a) & namer.canonicals_of(b))
    ):
        return f"'{a}' and '{b}' are nicknames of one name"
    return ""


def nickname_relatives(given: str) -> tuple[set[str], set[str]]:
    """The names a given name is a nickname of, and its own nicknames: two names that
    same_given_name calls nicknames of one name share a name of the first set, or one is in the
    other's second set."""
    namer = _nicknamer()
    return set(namer.canonicals_of(given)), set(namer.nicknames_of(given))


def _middle_compatible(a: str, b: str) -> bool:
    return not a or not b or a == b or a[0] == b[0] and (len(a) == 1 or len(b) == 1)


def compare_person_name(a: str, b: str) -> Compared:
    ca, cb = comparable(a), comparable(b)
    if ca and ca == cb:
        return Compared("name", "exact", f"'{a}' = '{b}'")
    fa, ma, la, ga = parsed(a)
    fb, mb, lb, gb = parsed(b)
    if ga and gb and ga != gb:
        return Compared("name", "different", f"'{a}' and '{b}' are different generations")
    if sorted(ca.split()) == sorted(cb.split()):
        return Compared("name", "variant", f"'{a}' and '{b}': the same names in another order")
    shorter, longer = sorted((ca.split(), cb.split()), key=len)
    if len(shorter) >= 2 and set(shorter) < set(longer) and shorter[0] == longer[0]:
        return Compared("name", "variant", f"'{a}' and '{b}': one has more names")
    if la and la == lb and _middle_compatible(ma, mb):
        why = same_given_name(fa, fb)
        if why:
            return Compared("name", "variant", f"same last name, {why}")
    for (f1, l1), (f2, l2) in (((fa, la), (fb, lb)), ((fa, la), (lb, fb))):
        if f1 and f2 and l1 and l2:
            jf = jellyfish.jaro_winkler_similarity(f1, f2)
            jl = jellyfish.jaro_winkler_similarity(l1, l2)
            if min(jf, jl) >= CLOSE_JW:
                return Compared("name", "close", f"'{a}' ~ '{b}' (Jaro-Winkler {jf:.2f}, {jl:.2f})")
    ratio = fuzz.token_set_ratio(ca, cb)
    jw = jellyfish.jaro_winkler_similarity(ca, cb)
    sounds = la and lb and jellyfish.metaphone(la) == jellyfish.metaphone(lb)
    if ratio >= SIMILAR_RATIO or jw >= 0.9 or sounds and fa[:1] == fb[:1]:
        return Compared("name", "similar", f"'{a}' resembles '{b}' (tokens {ratio:.0f}%)")
    return Compared("name", "different", f"'{a}' and '{b}' are different names")
