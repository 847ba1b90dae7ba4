"""Words around a name that say a firm stands there, whatever the small model typed it.

Invented firm names ('Kivilinna', 'Velamar Energía', 'Qaraghan') are typed a person, a place or
a thing about as often as a firm, and the first typing the tenant learns sticks. What notes
write around a firm is not what they write around a person or a product:

- a founding after it: "Tervaniemi was founded in 1966", "Zubrava (est. 2013)", "Kjølberg
  (Bergen) came up: founded 1961", "Pelagos has been around since 2019", "Qaraghan was set up";
- a profile after a colon that dates a founding: "Notes on Zubrava: Lviv, embedded software,
  since 2013";
- what only a firm is or does, after it: "they're a bicycles firm", "released the Glimt 2";
  and before it: "ex-Nordhavn", "the Tundro 10 by Pelagos";
- a head office after it: "Oxalis Devices HQ still Denver" (a head office in words is
  name_types' rule);
- a job right before 'at', '@' or 'with' before it: "lab manager at Velamar Energía", "head of
  finance @ Arqueta", "a chief financial officer with Kronvik"; '@' between a name and it
  ("Ardıç @ Kivilinna");
- a job and a city around it ("paralegal, Kjølberg, Cusco"), or a person's name and 'from'
  before it ("Wanjiru Mwangangi from Pelagos", not a place the tables know);
- a firm's role before it: "maker Kivilinna", "the vendor (Qaraghan)", "our contact at X";
- what a maker or an employer is, in the words before it: "made by", "comes from",
  "interviewing at", "got a job at", "employed by", "formerly of", "employer:", "is w/
  Hoshizora now", and a former employer's cues (former_ties: "used to be at", "left").

A large city or a country is never retyped (a job "at Valencia" is a place's), nor is a name
that opens with a known given name after a job's word or the words of the last item ("is with
Ruxandra", "works for Ana Ruiz", "made by Tomas Berg": people work for people)."""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from apps.ingestion.extraction.former_ties import former_cued
from apps.ingestion.extraction.note_words import COMMON_ZIPF
from apps.ingestion.extraction.place_names import is_place_name
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import NamedSpan
from apps.resolution.role_words import DEPARTMENTS, ROLE_HEADS, TRADE_ROLES

_FOUNDED_AFTER = re.compile(
    r"^(?:\s*\([^()\n]{0,40}\))?(?:\s+came up)?\s*[,:(–—-]?(?-i:[^.\nA-Z]){0,40}?\s*\b(?:"
    r"(?:was|is|has been|had been|were)\s+(?:founded|established|set up|incorporated|registered)"
    r"|(?:founded|established|set up|incorporated|registered)(?:\s+in)?\s+(?:\d{4}|'\d\d)\b"
    r"|est\.|(?:been\s+)?around since)",
    re.IGNORECASE,
)  # passive or with a year: "Ana Ruiz founded Brackwater" is a founder, not a firm
# A profile after a colon whose fields date a founding: "Notes on Zubrava: Lviv, embedded
# software, since 2013", "thread about Gentala: hydropower, founded 1993".
_PROFILE_AFTER = re.compile(
    r"^\s*:\s*(?:[^,.;:\n]{1,40},\s*){1,4}(?:since|founded|established|est\.?)(?: in)?\s+\d{4}\b",
    re.IGNORECASE,
)
# "Planika sent the user an offer; they're a bicycles firm", "Kjølberg released the Glimt 2".
_FIRM_SENTENCE = re.compile(
    r"^[^.\n]{0,60}?\bthey(?:'re| are) an? [^.\n]{0,40}?\b(?:firm|company|startup|maker|"
    r"manufacturer|vendor|supplier|agency|brand|business)\b"
    r"|^\s+(?:released|launched|ships|shipped|makes|made|manufactures|sells|recalled|discontinued)"
    r"\s+(?:the\s+|its\s+|a\s+)?[A-Za-z][\w-]*[- ]?\d",
    re.IGNORECASE,
)
# "ex-Nordhavn", "the Tundro 10 by Pelagos": a former employer, a product's maker.
_FIRM_BEFORE = re.compile(r"(?:\bex-|\b[^\W\d_]+[- ]?\d{1,4}[a-z]?\s+by\s+)$", re.IGNORECASE)
_HQ_AFTER = re.compile(r"^(?:'s)?\s+hq\b", re.IGNORECASE)
# A job's last word, then 'at' / '@' / 'with' / 'over at', then the name.
_JOB_AT = re.compile(r"([A-Za-z-]+)\s+(?:over\s+)?(at|@|with)\s+$", re.IGNORECASE)
_AT_SIGN = re.compile(r"\S\s*@\s*$")
_WORKS_HERE = re.compile(
    r"(?:\binterview(?:s|ed|ing)? at|\b(?:a|new) (?:job|role|position) at|\bemployed (?:by|at)|"
    r"\bformerly(?: of| at| with)?|\bemployer\s*[:=-]|\bworks? (?:at|for)|\bworking (?:at|for)"
    r")\s+$",
    re.IGNORECASE,
)
# "maker Kivilinna", "made by Brannoch", "the vendor (Qaraghan)", "our contact at Qaraghan".
_VENDOR = re.compile(
    rf"(?:\b(?:{'|'.join(sorted(TRADE_ROLES))})|"
    r"\b(?:contact|team|people|folks|someone|colleagues?) (?:at|@))\s*[:(]?\s*$",
    re.IGNORECASE,
)  # a firm's role, whatever its name looks like
_MADE_BY = re.compile(r"(?:\bmade by|\bmanufactured by|\bbuilt by|\bcomes? from)\s*$", re.I)
# "(regional sales director, Hoshizora)", "CFO | Brennholt |": a job, then the firm's field.
_JOB_FIELD = re.compile(r"([A-Za-z-]+)\s*(,|\|)\s*$")
_CITY_FIELD_AFTER = re.compile(r"\s*,\s*([A-Z][^\W\d_]+(?: [A-Z][^\W\d_]+)?)\s*(?:[.;|)]|$)")
# "Wanjiru Mwangangi from Pelagos joined": a name, then 'from', then a name no map knows.
_FROM_AFTER_NAME = re.compile(r"(?<![\w-])[A-Z][^\W\d_]+ from\s+$")
# A call's words around a firm: who answers the phone ("good afternoon Halvik", "you're
# through to Frostvik", "front desk at Polvani", "we're Halvik Marine") or who the speaker works
# for ("Polvani, that's who I work for", "Cordillo Mining make it", "Halvik here, accounts").
_ANSWERS_BEFORE = re.compile(
    r"(?:\bgood (?:morning|afternoon|evening),?|\bthrough to|\b(?:front desk|reception|accounts)"
    r" (?:at|of)|\bwe(?:'re| are))\s+$", re.IGNORECASE)  # fmt: skip
_ANSWERS_AFTER = re.compile(
    r"^(?:,?\s+that's who (?:I|we) work for|\s+makes? (?:it|them)\b"
    r"|\s+here,\s+(?:accounts|sales|support|reception|the front desk)\b)", re.IGNORECASE)  # fmt: skip
_IS_WITH = re.compile(r"\b(?:is|was)\s+(?:w/|with)\s+$", re.IGNORECASE)


def firm_cued(text: str, span: NamedSpan) -> bool:
    """Whether the words around `span` say it names a firm (module docstring)."""
    surface = span.surface.strip()
    if not surface[:1].isupper() or is_place_name(surface) or len(surface.split()) > 4:
        return False
    line_end = text.find("\n", span.end)
    after = text[span.end : line_end if line_end >= 0 else len(text)][:80]
    profile = _PROFILE_AFTER.match(after)
    if profile and not ROLE_HEADS & set(re.findall(r"[a-z-]+", profile.group(0).lower())):
        return True  # "Ilze: Aarhus, backend developer, since 2019" is a person's
    if _FOUNDED_AFTER.match(after) or _HQ_AFTER.match(after) or _FIRM_SENTENCE.match(after):
        return True
    if _ANSWERS_AFTER.match(after):
        return True
    before = text[max(0, span.start - 40) : span.start]
    if "\n" in before:
        before = before[before.rindex("\n") + 1 :]
    if _VENDOR.search(before) or _FIRM_BEFORE.search(before):
        return True
    if given_name_gender(surface.split()[0]):
        return False  # "works for Ana Ruiz", "made by Tomas Berg": people work for people
    if _ANSWERS_BEFORE.search(before):
        return True
    job = _JOB_AT.search(before)
    if job and job.group(1).lower() in ROLE_HEADS | DEPARTMENTS:
        return True
    field = _JOB_FIELD.search(before)
    if field and field.group(1).lower() in ROLE_HEADS | DEPARTMENTS:
        if re.match(r"\s*[)|]", after) and (field.group(2) == "|" or "(" in before):
            return True
        city = _CITY_FIELD_AFTER.match(after)
        if field.group(2) == "," and city and is_place_name(city.group(1)):
            return True  # "Chowdhury — paralegal, Kjølberg, Cusco": job, firm, city
    at_firm = _AT_SIGN.search(before) and not is_place_name(surface)  # "X @ Pécs": a place
    return bool(_MADE_BY.search(before) or at_firm or _FROM_AFTER_NAME.search(before)
                or _WORKS_HERE.search(before) or _IS_WITH.search(before)
                or former_cued(text, span.start, span.end))  # fmt: skip


_CAPITALISED_RUN = re.compile(r"(?<![\w-])[A-Z][^\W\d_]+(?: [A-Z][^\W\d_]+){0,2}(?![\w-])")


def founded_runs(text: str) -> list[tuple[int, int]]:
    """The extents of capitalised words a founding or a head office follows ("Planika was
    founded in 1956"), which the tagger may read as a common noun and the model miss; leading
    common words are no part of the name ("Yesterday Planika ...")."""
    found = []
    for run in _CAPITALISED_RUN.finditer(text):
        after = text[run.end() : run.end() + 80].split("\n", 1)[0]
        # Any dated profile finds the name; firm_cued types it ("Ilze: Aarhus, backend
        # developer, since 2019" is found here and stays a person's).
        if not (
            _FOUNDED_AFTER.match(after) or _HQ_AFTER.match(after) or _PROFILE_AFTER.match(after)
        ):
            continue
        start, words = run.start(), run.group(0).split(" ")
        while words and zipf_frequency(words[0].lower(), "en") >= COMMON_ZIPF:
            start += len(words.pop(0)) + 1
        if words and not is_place_name(" ".join(words)):
            found.append((start, run.end()))
    return found
