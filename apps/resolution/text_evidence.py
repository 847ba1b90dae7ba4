"""Evidence a chunk's text gives its candidates, before the gate: the entities named beside each
(`context`, compared by comparisons.context), and values learned from text.

Values learned from text: the phones, emails, web domains, birth and founding dates and
external ids written in a description or in the sentences that name a candidate, kept on it as
`text:<key>` values (`learned_key`) with the chunk that said each (`value_sources`), and the
role the words next to a mention give it (`text:role`: apps.resolution.role_words), and a
person's pastimes (`text:hobby`: apps.resolution.hobby_words, a sentence's or a line's, the
first person's it names, else the person's named last).

A learned value is evidence like a stated one (records.values_compared reads the stated value
first, the learned one only when nothing is stated), but it never outranks a value an agent
stated: a candidate that states `phone` learns no `text:phone`, and a merge keeps both apart.

Which entity a sentence's value belongs to: the one candidate of a fitting type the sentence
names (a birth date: a person; a founding date or a domain: an organisation or a thing; a phone
or an email: a person, else an organisation); a sentence naming none takes the last fitting
candidate of the sentences before it ("Its website is ..."); of two of a fitting type, the first
named, the sentence's subject as agents write ("X, partner of Y, is on +1 ...")."""

from __future__ import annotations

import dataclasses
import re

import phonenumbers

from apps.resolution.candidates import EntityCandidate
from apps.resolution.comparisons.affiliations import AFFILIATIONS, FORMER_EMPLOYER, SEPARATOR
from apps.resolution.comparisons.organisation_names import legal_base
from apps.resolution.hobby_words import hobbies_in, hobby_words
from apps.resolution.role_words import roles_in
from apps.resolution.spoken_years import years_written
from apps.resolution.text_addresses import address_values_in

PREFIX = "text:"
MAX_SENTENCE_CHARS = 600
MAX_TEXT_CHARS = 20_000  # a chunk's domains are looked for in its first characters
SPELLED_MIN = 4
MAX_HOBBIES = 3  # a chunk's, for one person
# No end after an abbreviation a name or a year follows ("Dr. Haddad", "b. 1997").
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\bb\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)"
    r"\s+(?=[A-Z0-9\"'(])"
)
_EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
_URL = re.compile(r"\bhttps?://[^\s/$.?#][^\s]*", re.IGNORECASE)
_DOMAIN = re.compile(r"(?<![@\w.-])(?:www\.)?(?:[a-z0-9-]+\.)+(?:[a-z]{2,})(?![\w-])")
_BORN = re.compile(
    r"\b(?:born\b(?: (?:back|way|sometime|some time))?(?: (?:in|on))?,?|b\.|birth year(?: is| was|:)?"
    r"|year of birth(?: is| was|:)?) ?(\d{4}-\d{2}-\d{2}|(?:19|20)\d{2})\b|\b((?:19|20)\d{2})-born\b",
    re.IGNORECASE,
)
_FOUNDED = re.compile(
    r"\b(?:founded|established|incorporated|set up|est\.|founding year(?: is| was|:)?)"
    r"(?: (?:back|way))?(?: (?:in|on))?,? ?(\d{4}-\d{2}-\d{2}|(?:19|20)\d{2})\b",
    re.IGNORECASE,
)
# A year and a word of birth or founding anywhere in the sentence, whatever the wording around
# them ("Asiedu gave 1995 as his year of birth", "YOB 1980", "1989 is listed as her birth year",
# "the company dates its founding to 1965"): the year nearest the word, when the forms above
# found none.
_YEAR = re.compile(r"(?<![\d/.-])((?:19|20)\d{2})(?![\d/-]|\.\d)")
_BIRTH_CUE = re.compile(r"\b(?:born|birth\w*|yob|d\.?o\.?b\.?)(?!\w)|\bb\.(?= ?\d)", re.IGNORECASE)
_FOUNDING_CUE = re.compile(
    r"\b(?:found(?:ed|ing)|establish(?:ed|ment)|incorporat(?:ed|ion)|est\.|set up|formed"
    r"|(?:been|in) (?:going|trading|business|around) since)(?!\w)",
    re.IGNORECASE,
)
_WIKIDATA = re.compile(r"\bwikidata(?: id)?[ :]+(Q\d{1,10})\b", re.IGNORECASE)
_ORCID = re.compile(r"\borcid(?: id)?[ :]+(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\b", re.IGNORECASE)
# Words that end in a dot but are no domain ("Inc.", "e.g.").
_NOT_DOMAINS = {"e.g", "i.e", "a.m", "p.m", "u.s", "s.a"}

_PARSED = (*AFFILIATIONS, "born", FORMER_EMPLOYER)  # what mention_attributes reads but a role
# Whose value each key can be, in order of preference.
OWNERS = {
    "born": (("Person",),),
    "founded": (("Organization", "Object"),),
    "domain": (("Organization", "Object"),),
    "url": (("Organization", "Object"),),
    "phone": (("Person",), ("Organization",)),
    "email": (("Person",), ("Organization",)),
}
ANY_OWNER = (("Person", "Organization", "Object"),)  # an external id
# Besides: a domain whose name part spells an organisation's or a thing's name is its own, in
# whichever sentence of the chunk it is written (_spelled_domains).


def learned_key(key: str) -> str:
    return PREFIX + key


def is_learned(key: str) -> bool:
    return key.startswith(PREFIX)


def stated_key(key: str) -> str:
    return key.removeprefix(PREFIX)


def sentences_of(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`."""
    spans, start = [], 0
    for found in _SENTENCE_END.finditer(text):
        spans.append((start, found.start()))
        start = found.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def values_in(sentence: str) -> list[tuple[str, str]]:
    """(key, value) found in one sentence, in a fixed order."""
    sentence = years_written(sentence[:MAX_SENTENCE_CHARS])  # "born nineteen ninety six"
    found: list[tuple[str, str]] = []
    emails = _EMAIL.findall(sentence)
    found += [("email", e.casefold()) for e in emails]
    rest = _EMAIL.sub(" ", sentence)
    for match in phonenumbers.PhoneNumberMatcher(rest, None):
        found.append(("phone", phonenumbers.format_number(
            match.number, phonenumbers.PhoneNumberFormat.E164)))  # fmt: skip
    urls = _URL.findall(rest)
    found += [("url", u.rstrip(".,;)")) for u in urls]
    for domain in _DOMAIN.findall(_URL.sub(" ", rest)):
        if domain.lower() not in _NOT_DOMAINS and not domain[:1].isdigit():
            found.append(("domain", domain.lower().removeprefix("www.")))
    found += [("born", a or b) for a, b in _BORN.findall(sentence)]
    found += [("founded", d) for d in _FOUNDED.findall(sentence)]
    found += [("id:wikidata", q.upper()) for q in _WIKIDATA.findall(sentence)]
    found += [("id:orcid", o.upper()) for o in _ORCID.findall(sentence)]
    found += address_values_in(sentence)  # addresses, other ids, dates in other forms
    taken = {v[:4] for k, v in found if k in ("born", "founded")}
    for key, cue in (("born", _BIRTH_CUE), ("founded", _FOUNDING_CUE)):
        if not any(k == key for k, _ in found):
            year = _year_near(sentence, cue, taken=taken)
            if year:
                found.append((key, year))
                taken.add(year)
    return found


def _year_near(sentence: str, cue: re.Pattern, taken: set[str]) -> str | None:
    """The year of `sentence` nearest a word `cue` finds (not one already read as another
    date), or None."""
    cues = [m.start() for m in cue.finditer(sentence)]
    years = [(m.start(), m.group(1)) for m in _YEAR.finditer(sentence) if m.group(1) not in taken]
    if not cues or not years:
        return None
    return min(years, key=lambda y: min(abs(y[0] - c) for c in cues))[1]


def _owner(key: str, named: list[int], recent: dict[str, int], candidates) -> int | None:
    """The candidate a sentence's value belongs to (module docstring), or None."""
    preference = OWNERS.get(key, ANY_OWNER)
    for kinds in preference:
        fitting = [i for i in named if candidates[i].type in kinds]
        if fitting:  # the first named: the sentence's subject, as agents write notes
            return fitting[0]
    for kinds in preference:
        for kind in kinds:
            if kind in recent:
                return recent[kind]
    return None


def candidates_with_text_values(
    candidates: list[EntityCandidate], text: str, *, source: str
) -> list[EntityCandidate]:
    """The chunk's candidates with the values its sentences give each (as `text:<key>`, with
    `source`, the chunk's uid, as where each was learned), and the values of each one's
    description; a key a candidate states, or already learned, is left as it is."""
    learned: list[dict[str, str]] = [{} for _ in candidates]
    recent: dict[str, int] = {}
    spelled = _spelled_domains(candidates, text or "")
    spelled_hosts = {domain for _, domain in spelled}  # whose they are is known: none other's
    for start, end in sentences_of(text or ""):
        named = [i for i, c in enumerate(candidates)
                 if any(start <= m.start < end for m in c.mentions)]  # fmt: skip
        named.sort(key=lambda i: min(m.start for m in candidates[i].mentions if m.start >= start))
        for key, value in values_in(text[start:end]):
            if key in ("domain", "url") and _host(value) in spelled_hosts:
                continue
            on_line = _bracketed_after(text, start, end, value, named, candidates)
            on_line = on_line or _named_on_line(text, start, end, value, named, candidates)
            owner = _owner(key, on_line, {}, candidates) if on_line else None
            owner = _owner(key, named, recent, candidates) if owner is None else owner
            if owner is not None:
                learned[owner].setdefault(key, value)
        for i in named:
            recent[candidates[i].type] = i
    for i, domain in spelled:
        learned[i].setdefault("domain", domain)
    for i, hobbies in _hobbies(candidates, text or "").items():
        learned[i].setdefault("hobby", SEPARATOR.join(hobbies[:MAX_HOBBIES]))
    for i, candidate in enumerate(candidates):  # "the Z-9 drone": role_words
        role = roles_in(text or "", candidate.mentions)
        if role:
            learned[i].setdefault("role", role)
        for key, value in candidate.learned.items():  # the parse's (mention_attributes)
            if key == "role":  # read from the parse, a person's job beats the words beside
                learned[i][key] = value
            elif key in _PARSED:  # a speaker's answer too: turn_answers
                learned[i].setdefault(key, value)
    out = []
    for candidate, found in zip(candidates, learned, strict=True):
        for key, value in values_in(candidate.description or ""):
            found.setdefault(key, value)
        out.append(candidate_learns(candidate, found, source=source))
    return out


def _bracketed_after(text: str, start: int, end: int, value: str, named: list[int], candidates):
    """Of `named`, the one a bracket right after `value` names: "backed Wanjiru up. born 1982
    (Mwangangi)" says the year of Mwangangi, not of the sentence's first name ([] if none)."""
    found = re.search(re.escape(value) + r"\s*\(", text[start:end], re.IGNORECASE)
    if found is None:
        return []
    at = start + found.end()
    return [i for i in named if any(m.start == at for m in candidates[i].mentions)]


def _named_on_line(text: str, start: int, end: int, value: str, named: list[int], candidates):
    """Of `named`, those named on the line of text[start:end] that writes `value`: a note laid
    out in lines without stops is one sentence, and "- yob 1997 (Raghunathan)" says its year
    of the person on its line, not of the sentence's first ([] when the value is not written
    as found, or no one is named on its line)."""
    if "\n" not in text[start:end]:
        return []
    found = re.search(re.escape(value), text[start:end], re.IGNORECASE)
    if found is None:
        return []
    at = start + found.start()
    line_start = max(start, text.rfind("\n", start, at) + 1)
    line_end = text.find("\n", at, end)
    line_end = end if line_end < 0 else line_end
    return [
        i for i in named if any(line_start <= m.start < line_end for m in candidates[i].mentions)
    ]


def _hobbies(candidates: list[EntityCandidate], text: str) -> dict[int, list[str]]:
    """candidate -> the pastimes the chunk gives it (hobby_words): each sentence's, or each
    line's in a note laid out in lines, is the first person's it names, else the person's named
    last before it ("In her spare time she enjoys the game of go")."""
    found: dict[int, list[str]] = {}
    last = None
    for start, end in sentences_of(text):
        for line_start, line in _lines(text, start, end):
            named = [
                i
                for i, c in enumerate(candidates)
                if c.type == "Person"
                and any(line_start <= m.start < line_start + len(line) for m in c.mentions)
            ]
            named.sort(key=lambda i: min(m.start for m in candidates[i].mentions
                                         if m.start >= line_start))  # fmt: skip
            owner = named[0] if named else last
            if owner is not None:
                for hobby in hobbies_in(line):
                    found.setdefault(owner, []).append(hobby)
            last = named[-1] if named else last
    return found


def _lines(text: str, start: int, end: int) -> list[tuple[int, str]]:
    out, at = [], start
    for line in text[start:end].split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def _host(value: str) -> str:
    """A domain's or URL's host, as _spelled_domains keeps it."""
    host = re.sub(r"^https?://", "", value, flags=re.I).split("/", 1)[0].casefold()
    return host.removeprefix("www.")


def _domain_label(name: str) -> str:
    """A name as a domain would spell it: 'Cobalt Ridge Optics LLC' -> 'cobaltridgeoptics'."""
    return re.sub(r"[^a-z0-9]", "", legal_base(name))


def _spelled_domains(candidates: list[EntityCandidate], text: str) -> list[tuple[int, str]]:
    """(candidate, domain) for each web or email domain of the chunk whose name part spells an
    organisation's or a thing's name ('Cobalt Ridge Optics' and p.marchetti@cobalt-ridge-
    optics.example, or www.cobalt-ridge-optics.example): whoever wrote it, that is its domain.
    A name of fewer than SPELLED_MIN letters is too short to tell (an acronym)."""
    hosts = {e.split("@", 1)[1].casefold() for e in _EMAIL.findall(text[:MAX_TEXT_CHARS])}
    for key, value in values_in(_EMAIL.sub(" ", text[:MAX_TEXT_CHARS])):
        if key == "domain":
            hosts.add(value)
        elif key == "url":
            hosts.add(re.sub(r"^https?://", "", value, flags=re.I).split("/", 1)[0].casefold())
    found = []
    for host in sorted(hosts):
        labels = [re.sub(r"[^a-z0-9]", "", x) for x in host.removeprefix("www.").split(".")[:-1]]
        for i, candidate in enumerate(candidates):
            if candidate.type == "Person" and not candidate.type_guessed:
                continue
            label = _domain_label(candidate.name)
            if len(label) >= SPELLED_MIN and label in labels:
                found.append((i, host.removeprefix("www.")))
    return found


def candidate_learns(candidate: EntityCandidate, found: dict, *, source: str) -> EntityCandidate:
    """`candidate` with `found` (key -> value) as learned values, where it states none."""
    values, sources = dict(candidate.values), dict(candidate.value_sources)
    for key, value in found.items():
        if key in values or learned_key(key) in values:
            continue
        values[learned_key(key)] = value
        sources[learned_key(key)] = source
    if values == candidate.values:
        return candidate
    return dataclasses.replace(candidate, values=values, value_sources=sources)


def candidates_with_context(candidates: list[EntityCandidate]) -> list[EntityCandidate]:
    """Each candidate with the (type, name) of the other candidates named with it (the same
    chunk or call) added to its context; a thing the chunk names as someone's pastime ('F1' of
    "Ezeudu into F1") is no one's neighbour: many people share one."""
    pastimes = {w for c in candidates
                for w in hobby_words(str(c.values.get(learned_key("hobby"), "")))}  # fmt: skip
    named = [(c.type, c.name) for c in candidates
             if c.type == "Person" or not _pastime(c.name, pastimes)]  # fmt: skip
    out = []
    for candidate in candidates:
        others = tuple(n for n in named if n[1] != candidate.name)
        context = tuple(dict.fromkeys(candidate.context + others))
        out.append(dataclasses.replace(candidate, context=context) if others else candidate)
    return out


def _pastime(name: str, pastimes: set[str]) -> bool:
    words = hobby_words(name)
    return bool(words) and words <= pastimes


def candidates_with_text_evidence(
    candidates: list[EntityCandidate], text: str, *, source: str
) -> list[EntityCandidate]:
    """`candidates_with_text_values` and `candidates_with_context`."""
    return candidates_with_context(candidates_with_text_values(candidates, text, source=source))
