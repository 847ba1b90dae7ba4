"""Entity types the small NER model gets wrong, corrected from the name itself.

The model types a person's name as an organisation or a place in passing ("According to Sofia
Petrakis, the firm ...") and a company as a thing; the short-term state then points "the
company" at a person. Three signals on the name and where it stands:

- a speaker label ("Kenji: we shipped ...", a name and a colon opening a line) is a person; a span
  the model ran across the colon ("Ingrid: Redfern Health Inc") is split there;
- a legal form ("Ltd", "Inc", "GmbH", cleanco's list) or an organisation word ("Group",
  "Holdings", "Bank") ending the name makes it an organisation;
- two or three capitalised words opening with a given name (gender-guesser's list of about
  40,000 first names, offline) and no legal form make a person ("Calder Health Ltd" stays an
  organisation; "Calder Freight", a firm named after a given name, is read as a person: the cost
  of the rule, measured in docs/benchmarks/long-documents.md);
- a trade word ending the name ("Silverfin Foods", "Vantor Logistics") makes an organisation,
  and so does a head office after any name ("Zelenka has its head office in", "Velamar is
  headquartered in");
- a person's name and "of" and a capitalised name in one span ("Rafael Petrakis of HB") are
  split into the person and the organisation;
- a large city's name where a place stands ("based in Tampere", "Izmir-based") is a place
  (place_names); a given name typed a place where none stands, no place the tables know, is a
  person ("is with Ruxandra"), and so is a place "looped in"; a name with a digit is no person;
- a name of one to three words that the words right after it say is a person's is a person's,
  whatever the model typed: a job ("Azzouni, VP Sales at ...", "Kaplanoğlu = regional sales
  director", "Vuong (ops lead)"), a birth year ("Bae born 1964", "Kaplanoğlu: YOB 1980"), a
  hobby ("Halvor is really into krav maga"), or an honorific before it ("Ms. Nwakaego"), or
  its age asked ("how old is Vukotic?", "born 1989 (Nkoulou)"). Not a city the place table knows, not a legal form.
"""

from __future__ import annotations

import re

from cleanco import basename

from apps.ingestion.extraction.firm_cues import firm_cued
from apps.ingestion.extraction.place_names import (
    based_here,
    is_city,
    is_place_name,
    looks_like_place,
    placed_here,
    settled_here,
)
from apps.ingestion.extraction.spoken_names import PARTICLES
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import NamedSpan
from apps.resolution.comparisons.organisation_names import (
    TRADE_WORDS,
    comparable,
    legal_base,
    trade_named,
)
from apps.resolution.comparisons.text_forms import initials
from apps.resolution.role_words import ROLE_HEADS

ORGANISATION_WORDS = {"group", "holdings", "bank", "partners", "associates", "corporation",
                      "company", "foundation", "institute", "university", "trust"}  # fmt: skip
# "Rafael Petrakis of HB": a person's name and an organisation the model ran into one span.
_OF = " of "
_WORD = re.compile(r"^[^\W\d_][^\W\d_'-]+$")  # a capitalised word, any script: 'Tõnis'
# Any script's letters, hyphened or with an apostrophe: 'Kaplanoğlu', 'Restrepo-Uribe', "O'Neill".
NAME_WORD_PATTERN = r"[^\W\d_]+(?:['-][^\W\d_]+)*"
_NAME_WORD = re.compile(rf"^{NAME_WORD_PATTERN}$")
_HONORIFIC_BEFORE = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+$")
# After the name: a separator or 'is/was (a|the)', then within four words a role's head word.
_ROLE_LEAD = re.compile(
    r"^\s*(?:[,([:=|–—-]|\bis\b|\bwas\b|\bas\b)\s*(?:(?:is|was|as|a|an|the|our|their)\s+)*"
)
# "got a job at Pelagos as an engineer", "joined Kestrel as CTO": the role is the subject's.
_EMPLOYER_BEFORE = re.compile(r"\b(?:at|for|joined|joins|join)\s+$", re.IGNORECASE)
_PHRASE_ENDS = frozenset("at of in for from and with to on by".split())
_ADJECTIVE_HEADS = frozenset("lead head chief associate assistant executive owner operator".split())
# "Zelenka has its head office in Brno", "Velamar is headquartered in Valencia": a firm.
_FIRM_AFTER = re.compile(
    r"(?:'s)?\s+(?:(?:has|had) its (?:head office|headquarters|hq)|(?:is|was) "
    r"(?:headquartered|incorporated)|headquarters)",
    re.IGNORECASE,
)
_LOOPED_IN = re.compile(r"\bloop(?:ed|ing|s)? in $", re.IGNORECASE)  # "Loop in Linh Vuong"
_INITIALS = re.compile(r"^\s*\(([^\W\d_]{2,4})\)")
# "Halvor is really into krav maga", "Sargsyan has been doing kitesurfing lately".
_HOBBY_AFTER = re.compile(
    r"^\s+(?:is|was|has been|got)\s+(?:really\s+|totally\s+|very\s+|big\s+|so\s+)?"
    r"(?:into|doing)\s+[a-z]",
)
_PERSON_BEFORE = re.compile(r"(?:\bhow old is|\bborn(?: in)? \d{4} \()\s*$", re.IGNORECASE)
_PER_BEFORE = re.compile(r"\b(?:per|from)\s+$", re.IGNORECASE)
# A line's label that names a person's part ("Caller: Ama Owusu", "Contact: ...").
_PART_LABEL = re.compile(
    r"(?:^|\n)[ \t]*(?:caller|customer|client|contact|name|attendee|interviewee|candidate"
    r"|visitor|guest|patient)[ \t]*:[ \t]*$", re.IGNORECASE)  # fmt: skip
_BORN_AFTER = re.compile(r"^\s*[,:(=-]?\s*(?:was\s+)?(?:born\b|b\.|yob\b|dob\b)", re.IGNORECASE)


def _capitalised(word: str) -> bool:
    return bool(_WORD.match(word)) and word[0].isupper() and word[1:].islower()


def organisation_form(name: str) -> bool:
    words = name.split()
    return len(words) > 1 and (
        basename(name).strip() != name.strip()
        or legal_base(name) != comparable(name)
        or words[-1].lower() in ORGANISATION_WORDS | TRADE_WORDS
    )


def _person_of(span: NamedSpan) -> list[NamedSpan] | None:
    """'Rafael Petrakis of HB' -> the person and the organisation, when the words before ' of '
    are two or three capitalised words opening with a known first name."""
    at = span.surface.find(_OF)
    head, tail = span.surface[:at], span.surface[at + len(_OF) :]
    words = head.split()
    if at <= 0 or not tail[:1].isupper() or not 2 <= len(words) <= 3:
        return None
    if not all(_capitalised(w) for w in words) or not given_name_gender(words[0]):
        return None
    tail_start = span.start + at + len(_OF)
    return [NamedSpan(head, span.start, span.start + at, "Person"),
            NamedSpan(tail, tail_start, span.end, "Organization")]  # fmt: skip


def retyped(text: str, span: NamedSpan) -> list[NamedSpan]:
    """The span with its type corrected, or split at a speaker label's colon."""
    colon = span.surface.find(": ")
    line_start = text.rfind("\n", 0, span.start) + 1
    if colon > 0 and not text[line_start : span.start].strip():
        label = span.surface[:colon]
        rest_start = span.start + colon + 2
        rest = NamedSpan(span.surface[colon + 2 :], rest_start, span.end, span.type)
        return [NamedSpan(label, span.start, span.start + colon, "Person"), *retyped(text, rest)]
    if span.name:  # the tenant's graph knows this name and its type
        return [span]
    if span.type != "Organization" and firm_cued(text, span):
        return [NamedSpan(span.surface, span.start, span.end, "Organization")]  # firm_cues
    if (text[span.end : span.end + 1] == ":" and not text[line_start : span.start].strip()
            and len(span.surface.split()) <= 3
            and not any(c.isdigit() for c in span.surface)):  # fmt: skip
        return [NamedSpan(span.surface, span.start, span.end, "Person")]
    split = _person_of(span)
    if split:
        return split
    if organisation_form(span.surface):
        return [NamedSpan(span.surface, span.start, span.end, "Organization")]
    if span.type in ("Object", "Organization") and looks_like_place(text, span.start, span.end):
        return [NamedSpan(span.surface, span.start, span.end, "Location")]  # place_names
    if span.type == "Location" and _LOOPED_IN.search(text, max(0, span.start - 12), span.start):
        return [NamedSpan(span.surface, span.start, span.end, "Person")]  # no place is looped in
    if (
        span.type == "Location"
        and " " not in span.surface
        and given_name_gender(span.surface)
        and not is_place_name(span.surface)
        and not placed_here(text, span.start, span.end)
    ):
        return [NamedSpan(span.surface, span.start, span.end, "Person")]  # "is with Ruxandra"
    if span.type == "Person" and any(c.isdigit() for c in span.surface):
        return [NamedSpan(span.surface, span.start, span.end, "Object")]  # "Loaner Lirra32"
    if (
        span.type == "Person"
        and looks_like_place(text, span.start, span.end)
        and not any(given_name_gender(w) for w in span.surface.split())
    ):  # "data engineer, Tampere.": a city in a field, no given name ('Florence' stays)
        return [NamedSpan(span.surface, span.start, span.end, "Location")]
    if (
        is_city(span.surface)
        and based_here(text, span.end)
        or settled_here(text, span.start, span.end)
    ):  # "Izmir-based", "in Valencia" typed a person
        return [NamedSpan(span.surface, span.start, span.end, "Location")]  # place_names
    if _FIRM_AFTER.match(text, span.end):  # no person has a head office
        return [NamedSpan(span.surface, span.start, span.end, "Organization")]
    if span.type != "Person" and person_cued(text, span):
        return [NamedSpan(span.surface, span.start, span.end, "Person")]
    words = [w for w in span.surface.split() if w not in PARTICLES]  # 'Pieter de Wolf'
    if (
        span.type != "Person"
        and 2 <= len(words) <= 3
        and all(all(_capitalised(p) for p in w.split("-")) for w in words)
        and given_name_gender(words[0].split("-")[0])
    ):  # fmt: skip ('Mei-Ling Tsao')
        return [NamedSpan(span.surface, span.start, span.end, "Person")]
    return [span]


def _initials_after(words: list[str], after: str) -> bool:
    """ "Aroha Paewai (AP)", "Mei-Ling Tsao (MLT)": a name glossed with its initials is a
    person's (minutes shorten attendees so; a firm's short form is its name's first word)."""
    glossed = _INITIALS.match(after)
    if not glossed or len(words) < 2:
        return False
    return comparable(glossed.group(1)) == initials(" ".join(words))


def person_cued(text: str, span: NamedSpan) -> bool:
    """Whether the words around a name of one to three words say it is a person's (module
    docstring)."""
    words = span.surface.split()
    if not 1 <= len(words) <= 3 or not all(_NAME_WORD.match(w) and w[0].isupper() for w in words):
        return False
    if is_city(span.surface) or organisation_form(span.surface):
        return False
    before = text[max(0, span.start - 24) : span.start]
    if _HONORIFIC_BEFORE.search(before[-6:]) or _PERSON_BEFORE.search(before):
        return True
    if _PER_BEFORE.search(before) and given_name_gender(words[0]):
        return True  # "ex-Nordhavn, per Anahit", "Email from Arnaud": a source, a sender
    if len(words) >= 2 and _PART_LABEL.search(before) and not trade_named(span.surface):
        return True  # "Caller: Ama Owusu." (the model's firm); one word may be a firm's
    after = text[span.end : span.end + 80].split("\n", 1)[0]
    if _BORN_AFTER.match(after) or _initials_after(words, after) or _HOBBY_AFTER.match(after):
        return True
    lead = _ROLE_LEAD.match(after)
    if (
        lead
        and after.lstrip().startswith("as ")
        and _EMPLOYER_BEFORE.search(text[max(0, span.start - 12) : span.start])
    ):
        lead = None  # "a job at Pelagos as an engineer": the role is the subject's
    if lead:
        tokens = after[lead.end() :].split()[:5]
        for i, token in enumerate(tokens[:4]):
            word = token.strip(".,;:()[]").lower()
            if word in ROLE_HEADS:
                nxt = tokens[i + 1].strip("()[].,").lower() if i + 1 < len(tokens) else ""
                # 'the lead product': an adjective here, unless a phrase ends after it
                ends = token[-1:] in ".,;:)" or not nxt or nxt in _PHRASE_ENDS
                return word not in _ADJECTIVE_HEADS or ends
            if word in _PHRASE_ENDS:
                break
    return False


def cues_agreed(
    text: str, spans: list[NamedSpan], parse_cued: dict[str, str] | None = None
) -> list[NamedSpan]:
    """Every unknown mention of a name that another of its mentions in the note shows to be a
    firm (firm_cues) or a person (person_cued, or `parse_cued`: the type the parse gave a name,
    acting_names) takes that type: "Marrowgate (drone inspection) - RFP out. Marrowgate around
    since 1972." names one firm twice, and "Ardıç rang back ... Ardıç (facilities manager)" one
    person, not a thing and a person; a name of two or three words whose last word the note
    uses alone for a person is that person's, and a longer name a cued firm's word opens is
    that firm's."""
    cued: dict[str, set[str]] = {k: {v} for k, v in (parse_cued or {}).items()}
    for s in spans:
        if s.name:
            continue
        if s.type == "Organization" and firm_cued(text, s):
            cued.setdefault(s.surface.casefold(), set()).add("Organization")
        elif s.type == "Person" and person_cued(text, s):
            cued.setdefault(s.surface.casefold(), set()).add("Person")
    # "Mei-Ling Tsao wrote back ... Tsao is Chiang Mai-based": a name whose last word the note
    # uses alone for a person is that person's (a firm is not called by its last word).
    surnames = {s.surface.casefold() for s in spans if s.type == "Person" and " " not in s.surface}
    # "Velamar Energía (solar power) ... Velamar ships the Nimbra-42": a firm goes by its first
    # word, so a longer name the cued word opens is that firm's (not a given name's).
    firms = {k for k, v in cued.items() if v == {"Organization"} and " " not in k}
    # "call w/ Selam Halvorsen ... Selam (born 1966)": a word of a person's full name in the
    # note is that person's where no place stands, even a city's name ('Selam' is one).
    full = {w.casefold() for s in spans if s.type == "Person" and not s.name
            for w in s.surface.split()
            if len(s.surface.split()) > 1 and not organisation_form(s.surface)}  # fmt: skip
    out = []
    for s in spans:
        types = cued.get(s.surface.casefold(), set())
        if not s.name and len(types) == 1 and s.type not in types:
            s = NamedSpan(s.surface, s.start, s.end, next(iter(types)))
        elif (not s.name and s.type != "Person" and s.surface.strip().casefold() in full
              and not types and s.surface.strip().casefold() not in firms
              and not placed_here(text, s.start, s.end)
              and not settled_here(text, s.start, s.end)):  # fmt: skip
            s = NamedSpan(s.surface, s.start, s.end, "Person")
        elif not s.name and s.type != "Person" and _called_by_surname(s.surface, surnames):
            s = NamedSpan(s.surface, s.start, s.end, "Person")
        elif (not s.name and s.type != "Organization" and " " in s.surface.strip()
              and s.surface.split()[0].casefold() in firms
              and not given_name_gender(s.surface.split()[0])):  # fmt: skip
            s = NamedSpan(s.surface, s.start, s.end, "Organization")
        out.append(s)
    return out


def _called_by_surname(surface: str, surnames: set[str]) -> bool:
    """Or by the given name: "spoke to Folake Adeyemi ... Folake, now a hardware buyer" (the
    model typed the full name a place, and gender-guesser's list has no 'Folake')."""
    words = surface.split()
    return (2 <= len(words) <= 3
            and (words[-1].casefold() in surnames or words[0].casefold() in surnames)
            and all(_NAME_WORD.match(w) and w[0].isupper() for w in words)
            and not organisation_form(surface) and not is_place_name(surface))  # fmt: skip
