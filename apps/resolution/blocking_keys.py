"""Blocking keys: what finds an entity's possible matches besides its words and meaning. Kept
on the entity as `name_keys` (a list in the `entity_names` full-text index), looked up with the
candidate's own keys (gate.claim_and_matches), so a match spelled another way is found by an index:

- a phonetic key (Metaphone, `jellyfish`) of each name word: 'Smyth' finds 'Smith', 'Katherine'
  finds 'Catherine' when the fuzzy words do not reach;
- an organisation's acronym, and a name that is one ('IBM' finds 'International Business
  Machines' and the reverse);
- a digest of each identifier (email, phone by its last nine digits, web domain, `id:<system>`),
  stated or learned from text: a record with a garbled name is still found by its id. The
  digest is one plain token, so Lucene matches it exactly;
- a name with digits, written together ('cpgpt4' for 'GPT-4', 'GPT 4' and 'GPT4'), whatever
  type NER gave it;
- a person's given name with the names it is a nickname of (`nicknames`): 'Robert Smith' is
  found for 'Bob Smith' among a hundred Smiths, where the shared surname alone ranks them all
  alike. The entity keeps its given name and that name's canonical forms, each joined to its
  surname's sound; the asking side adds its given name's nicknames too, so any pair of one
  surname's sound that the name comparison calls nicknames
  (comparisons.person_names.same_given_name) shares a key.

Every key is lower-case letters and digits with a two-letter prefix of its kind, so a key
never equals a word of a name.
"""

from __future__ import annotations

import functools
import hashlib
import re

import jellyfish
from unidecode import unidecode

from apps.resolution.comparisons.identifiers import EXTERNAL_ID_PREFIX, domain_of
from apps.resolution.comparisons.organisation_names import acronym
from apps.resolution.comparisons.person_names import nickname_relatives, parsed
from apps.resolution.comparisons.phones import phone_normal
from apps.resolution.comparisons.records import values_compared

MAX_KEYS = 40
_WORD = re.compile(r"[a-z]+")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&]{1,7}$")
_PHONE_DIGITS = 9
_COMPACT_CHARS = 16


@functools.lru_cache(maxsize=20000)
def _phonetic(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", jellyfish.metaphone(word).lower())


def _digest(kind: str, value: str) -> str:
    return "id" + hashlib.sha1(f"{kind}\x00{value}".encode()).hexdigest()[:16]


def name_keys_of(kind: str, names: tuple[str, ...] | list[str]) -> list[str]:
    """Phonetic keys of each name's words (three letters or more) and, for an organisation,
    its acronym; a name that looks like an acronym ('IBM') is one."""
    keys: list[str] = []
    for name in names:
        plain = unidecode(name)
        for word in _WORD.findall(plain.lower()):
            code = _phonetic(word) if len(word) >= 3 else ""
            if code:
                keys.append("ph" + code)
        if _ACRONYM.match(plain.strip()):
            keys.append("ac" + re.sub(r"[^a-z0-9]", "", plain.lower()))
        elif kind in ("Organization", "Object") and (short := acronym(name)):
            keys.append("ac" + short)
        compact = re.sub(r"[^a-z0-9]", "", plain.lower())
        if re.search(r"\d", compact) and len(compact) <= _COMPACT_CHARS:
            keys.append("cp" + compact)  # 'GPT-4' / 'GPT4', 'Z 9' / 'Z-9' / 'Z9'
    return keys


def nickname_keys_of(names, *, asked: bool = False) -> list[str]:
    """For each name with a surname whose given name has nicknames or is one: the name and the
    names it is a nickname of (what an entity keeps; with `asked` its nicknames too, what a
    candidate asks with), each joined to the surname's phonetic key. Joined, a key rises only
    the people of that surname's sound: a bare given-name key would rise every William of the
    tenant above 'Wiliam Smith' for 'William Smith', crowding out the typist's slip."""
    keys: list[str] = []
    for name in names:
        given, _, last, _ = parsed(name)
        surname = _phonetic(re.sub(r"[^a-z]", "", last)) if len(last) >= 2 else ""
        if len(given) < 2 or not surname:
            continue
        canonicals, nicknames = nickname_relatives(given)
        if canonicals or nicknames:
            related = {given, *canonicals, *(nicknames if asked else ())}
            keys += [f"nk{re.sub(r'[^a-z]', '', n)}9{surname}" for n in sorted(related)]
    return keys


def identifier_keys_of(values: dict) -> list[str]:
    """Digests of the identifiers, stated or learned from text (records.values_compared)."""
    values, _ = values_compared(values)
    keys = []
    if email := str(values.get("email") or "").strip().casefold():
        keys.append(_digest("email", email))
    if phone := phone_normal(values.get("phone")):
        keys.append(_digest("phone", phone[-_PHONE_DIGITS:]))
    if domain := domain_of(values):
        keys.append(_digest("domain", domain))
    for key, value in sorted(values.items()):
        if key.startswith(EXTERNAL_ID_PREFIX) and str(value).strip():
            keys.append(_digest(key, str(value).strip().casefold()))
    return keys


def blocking_keys(kind: str, names, values: dict, *, asked: bool = False) -> list[str]:
    """Every key of a record (identifiers, then names, then a person's nickname keys), unique,
    at most MAX_KEYS; `asked`: the keys a candidate searches with (nickname_keys_of)."""
    keys = identifier_keys_of(values) + name_keys_of(kind, names)
    if kind == "Person":
        keys += nickname_keys_of(names, asked=asked)
    return list(dict.fromkeys(keys))[:MAX_KEYS]
