"""Which entity active in a document a name found in a chunk names, across the types the small
NER model confuses: a lone surname or first name, a surname of several words, a firm's short
name, an acronym, typed otherwise than the name it shortens (docs/concepts/text-identity.md)."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

import jellyfish
from unidecode import unidecode

from apps.graph.nodes import ENTITY_TYPES
from apps.ingestion.given_names import given_name_gender, opens_with_given_name
from apps.resolution.comparisons.organisation_names import acronym

if TYPE_CHECKING:
    from apps.ingestion.working_memory import ActiveEntity, ShortTermState

ACRONYM = re.compile(r"^[A-Z][A-Z&]{1,7}$")
_MODEL = re.compile(r"^([^\W\d_]{3,})[- ]?\d+$")  # one word and a number: 'haldo-510'
TYPO_JW = 0.88  # each word of a name written twice in one document, one of them misspelt
HONORIFICS = {"mr", "mrs", "ms", "dr", "prof", "sir", "lady", "lord", "miss"}


def name_owner(state: ShortTermState, given: str, type_: str) -> tuple[ActiveEntity | None, str]:
    """The active entity `given` names, and its type. The small model types short and unfamiliar
    names unreliably ("Lovelace" as an organisation, "Kavitha" as a place), so a part of an
    active entity's name (a surname, a first name, a firm's first words), its acronym or a
    misspelling of it takes that entity and its type; a known place stays one ("Paris" after
    "Paris Hilton") and any other name keeps the type it was given."""
    known = state.canonical(given, type_)
    if known:
        return known, type_
    if " " in given.strip():
        return _several_words(state, given, type_)
    word = unidecode(given.strip()).lower()  # as _name_words: 'Élodie' is 'elodie'
    for other in ENTITY_TYPES:
        found = state.canonical(given, other) if other != type_ else None
        if found is None:
            continue
        # "Visit: Kaplanoğlu. Kaplanoğlu = sales director": the thing named first is the person
        # a later mention's words show (name_types.person_cued); the name becomes a person's.
        if (
            type_ == "Person"
            and other == "Object"
            and unidecode(found.name.strip()).lower() == word
        ):
            found.type = "Person"
            return found, "Person"
        # A person NER typed as a thing ("Rafael Petrakis" an Object) is named by a surname too.
        if other in ("Person", "Object") and _name_words(found.name)[-1:] == [word]:
            return found, other
        # A colleague by a first name ("Kenji" after "Kenji Mbeki").
        if other == "Person" and type_ != "Location" and _name_words(found.name)[:1] == [word]:
            return found, other
        if ACRONYM.match(given.strip()) and acronym(found.name) == word:
            return found, other
        # A model's name without its number, typed a firm or a place ("Haldo" after "Haldo510"):
        # the thing, as "Tamber" after "Tamber 9".
        model = _MODEL.match(unidecode(found.name.strip()).lower()) if other == "Object" else None
        if model and model.group(1) == word:
            return found, other
        # The first word of a name seen in this document, typed a place ("Kavitha" after
        # "Kavitha Rao", "Obelo" after "Obelo 7"), is that name unless it is a known place
        # ("Paris" after "Paris Hilton", "Georgia" after "Georgia Whitfield").
        if (type_ == "Location" and _name_words(found.name)[:1] == [word]
                and not _place(given.strip())):  # fmt: skip
            return found, other
        # A firm's first word typed a thing or a person ("Tupana" after "Tupana Bio Ltda.") is
        # the firm, unless it is a known first name ("Morgan" may be a person).
        if (other == "Organization" and _name_words(found.name)[:1] == [word]
                and (type_ == "Object" or type_ == "Person" and not opens_with_given_name(given))):  # fmt: skip
            return found, other
    return None, type_


def _several_words(
    state: ShortTermState, given: str, type_: str
) -> tuple[ActiveEntity | None, str]:
    """A misspelt person's name is that person (_misspelt_person); words that end an active
    person's name, typed a thing or a place GeoNames does not know ("Te Awhitu" after "Rangi Te
    Awhitu"), are that person; words
    that open an active firm's name, typed a person or a thing ("Ferrandis Industrial" after
    "Ferrandis Industrial S.L."), are that firm."""
    words = _name_words(given)
    misspelt = _misspelt_person(state, words, type_)
    if misspelt is not None:
        return misspelt, "Person"
    person = (state.canonical(given, "Person")
              if type_ in ("Object", "Organization", "Location") else None)  # fmt: skip
    if person and _name_words(person.name)[-len(words) :] == words:
        if type_ != "Location" or not _place(given.strip()):  # "Te Awhitu brought ..."
            return person, "Person"
    firm = state.canonical(given, "Organization") if type_ in ("Person", "Object") else None
    if firm and _name_words(firm.name)[: len(words)] == words:
        return firm, "Organization"
    return None, type_


def _name_words(name: str) -> list[str]:
    return [w for w in re.findall(r"[\w'-]+", unidecode(name).lower()) if w not in HONORIFICS]


def _misspelt_person(state: ShortTermState, words: list[str], type_: str) -> ActiveEntity | None:
    """A person's full name written again in one note with a typo ("Lwwazi Mabandla" beside
    "Lwazi Mabandla": as many words, each with the same first letter and within TYPO_JW, and
    not two known first names) is that person, however the model typed either of them."""
    view = state.view()
    for name, kind in (*reversed(view.active_entities), *reversed(view.transitional)):
        theirs = _name_words(name)
        if len(theirs) != len(words) or len(words) < 2 or theirs == words:
            continue
        if kind != "Person" and (kind != "Object" or type_ != "Person"):
            continue  # the model types a name it does not know a thing; two things stay two
        if words[0] != theirs[0] and all(
            given_name_gender(w.capitalize()) for w in (words[0], theirs[0])
        ):
            continue  # two first names ("Maria" / "Mario"): two people
        if all(a[0] == b[0] and jellyfish.jaro_winkler_similarity(a, b) >= TYPO_JW
               for a, b in zip(words, theirs, strict=True)):  # fmt: skip
            found = state.canonical(name, kind)
            if found is not None:
                found.type = "Person"
            return found
    return None


def _place(word: str) -> bool:
    # Imported here: the extraction package imports working_memory, which imports this module.
    from apps.ingestion.extraction.place_names import is_place_name

    return is_place_name(word)


def given_names_completed(mentions: list) -> list:
    """A person named by a given name before the chunk names them in full ("it's Fatima, Fatima
    Bennani"; "hi Marcus ... Marcus Ellery") is that person, when one full name of the chunk
    opens with it, as a first name after the full one is (`name_owner`); so is a firm named
    by its first words before its full name."""
    full: dict[str, set[str]] = {}
    for m in mentions:
        words = m.name.split()
        if m.type == "Person" and len(words) >= 2:
            full.setdefault(unidecode(words[0]).casefold(), set()).add(m.name)
    firms = {m.name for m in mentions if m.type == "Organization" and len(m.name.split()) >= 2}
    out = []
    for m in mentions:
        names = (
            full.get(unidecode(m.name.strip()).casefold(), set()) if m.type == "Person" else set()
        )
        if len(names) == 1 and " " not in m.name.strip() and m.via != "reference":
            m = dataclasses.replace(m, name=next(iter(names)), via="state")
        elif m.type == "Organization" and m.via != "reference":
            # "frostvik here ... Summary: Frostvik Cold Chain AB": a firm's first words before
            # the chunk names it in full, as they are after it (`name_owner`)
            words = _name_words(m.name)
            longer = {f for f in firms if len(_name_words(f)) > len(words)
                      and _name_words(f)[: len(words)] == words}  # fmt: skip
            if len(longer) == 1:
                m = dataclasses.replace(m, name=next(iter(longer)), via="state")
        out.append(m)
    return out
