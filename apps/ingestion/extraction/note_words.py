"""A business note's own words, which name nothing: its abbreviations ("PO", "EOD", "QBR",
"NB"), a month's or a weekday's short name ("17-Mar", "Thu"), the word that opens a place's
name in it ("HQ Galway"), and a common English word capitalised only because it opens a
sentence, a line or a field ("Email:", "- Loop in ...", "Visit: ..."), measured by wordfreq's
frequency of the word."""

from __future__ import annotations

import re
from functools import lru_cache

from nameparser.config import CONSTANTS
from wordfreq import zipf_frequency

from apps.ingestion.extraction.place_names import is_city
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import NamedSpan
from apps.resolution.comparisons.text_forms import initials
from apps.resolution.role_words import DEPARTMENTS, TITLE_OPENINGS

MONTHS = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december".split()
)
# A weekday's short name, as a note dates itself ("Standup notes, Thu 25 Feb").
WEEKDAYS = frozenset("mon tue tues wed thu thur thurs fri sat sun".split())
# The abbreviations of business notes, which name nothing ("PO", "EOD", "QBR", "NB"), a team's
# or a system's as "IT" and "HR" ("waiting on QA", "a UX review of the PR": the small model types
# them places, firms or things), the ones that open a place's name in them ("HQ Galway"), and
# the agent's "User" ("User said").
NOTE_WORDS = frozenset(
    "po rfp rfq eod eow cob qbr it hr am pm eta fyi nb ps cc bcc re fwd kpi roi poc sow nda msa "
    "sla crm erp tbd tbc asap ooo hq mtg acct ref req pls thx w/e f/up fu nxt yob dob "
    "todo wip user bday qa ux ui pr ci api sdk vpn sso eol".split()
) | frozenset(  # the headings of mails and minutes ("Subj:", "Attendees", "Minutes (May 2)"),
    # and a firm's role opening an item ("Vendor for the Ortana 10 is Vltavin")
    "subj attendees apologies handover intro replies minutes mins meeting aob agenda vendor "
    "supplier".split()
)
_OPENING_WORDS = frozenset(("hq", "nb", "fyi", "ps", "cc", "re", "fwd"))


def note_word(span: NamedSpan) -> bool:
    """A span that is only a note's abbreviation, a month's ("17-Mar") or a weekday's ("Thu"),
    or a verb a note shortened ("Intro'd", "Cc'd")."""
    word = span.surface.strip(" .:").casefold()
    month = word in MONTH_NAMES and span.type != "Person"  # "Mins, meeting January 19"
    return (word in NOTE_WORDS or word in MONTHS | WEEKDAYS and not span.name or month
            or " " not in word and word.endswith(("'d", "’d")))  # fmt: skip


def uncased_word(text: str, span: NamedSpan) -> bool:
    """A span written all in lower case without a digit, in a note that writes capitals ("side
    note: crochet (ask Ayu)", typed a person): a common noun, unless the tenant knows it."""
    surface = span.surface
    if span.name or any(c.isupper() or c.isdigit() for c in surface):
        return False
    # In a note all in lower case (a recogniser's), one of only words English often uses
    # ("new voicemail"): names there are capitalised first (spoken_names) or rare ('orbisk').
    return any(c.isupper() for c in text) or all(
        zipf_frequency(w, "en") >= _SPOKEN_WORD_ZIPF for w in re.findall(r"[^\W\d_]+", surface)
    )


_SPOKEN_WORD_ZIPF = 3.0  # 'voicemail' 3.3; 'orbisk' 0, 'zolta' 0


# A transcript's time stamp: "04:58", "[00:11:02]", "(34:37)".
CLOCK = r"[\[(]?\d{1,2}:\d{2}(?::\d{2})?[\])]?"
COMMON_ZIPF = 4.0  # wordfreq's scale: 'email' 4.7, 'loop' 4.3; 'raleigh' 3.6, 'zofia' 2.0
# A label the model typed a person ("Contact:", "Lunch w/"): 'lunch' 4.7, 'contact' 5.0, 'age'
# 5.3; a speaker's surname as a label stays when rarer ('baker' 4.2, 'wright' 4.2).
PERSON_WORD_ZIPF = 4.4
ING_ZIPF = 2.5  # 'forwarding' 3.2, 'pinging' 2.6; given names are told apart by their table


# Words for a party to a call or a sale, which the model types a firm when they open a
# sentence in the possessive.
_PARTIES = frozenset(("caller", "customer", "client", "agent", "user", "buyer", "visitor"))


def _opens(text: str, start: int) -> bool:
    """Whether `start` opens a sentence, a line or a note's field (a capital there says nothing)."""
    before = text[:start].rstrip(" \t")
    return not before or before[-1] in "\n.!?:;-–—•*>|(" or before.endswith(("->", "Re", "Fwd"))


def common_word_opening(text: str, span: NamedSpan, doc=None) -> bool:
    """A common English word capitalised because it opens a sentence, a line or a note's field
    ("Email: ...", "- Loop in ...", "Visit: Kaplanoğlu"): no name, unless the tenant's graph knows
    it or the model or the words after it typed it a person, a firm or a place ("Amazon
    called.")."""
    word = span.surface
    if span.name or " " in word or not word[:1].isupper():
        return False
    if (
        word.lower() in _PARTIES
        and _opens(text, span.start)
        and text[span.end :].startswith(("'s ", "\u2019s "))
    ):
        return True  # "Caller's Brisa-8 beeps": the caller's, not a firm's
    if span.type == "Person":  # "Lunch w/ Dr. Bae", "Age: b. 1967": a label, no one's name
        label = re.match(r"\s*(?::|w/)", text[span.end : span.end + 4]) or _noun(doc, span)
        return bool(label and _opens(text, span.start) and not given_name_gender(word)
                    and zipf_frequency(word.lower(), "en") >= PERSON_WORD_ZIPF)  # fmt: skip
    if span.type not in ("Object", "Event"):
        return False
    return _opens(text, span.start) and zipf_frequency(word.lower(), "en") >= COMMON_ZIPF


def _noun(doc, span: NamedSpan) -> bool:
    """Whether the tagger reads the span's one word as a common noun ("Email thread with
    Papadakou", typed a person), not a proper one ("Brown said")."""
    token = doc.char_span(span.start, span.end) if doc is not None else None
    return token is not None and len(token) == 1 and token[0].pos_ == "NOUN"


# "VP Sales", "Head of Marketing": a department after a title is part of a job, not a firm.
_TITLE_BEFORE = re.compile(rf"\b(?:{'|'.join(sorted(TITLE_OPENINGS))}|dir\.?)(?: of)? $", re.I)


def department_after_title(text: str, span: NamedSpan) -> bool:
    """'Sales' in "Lukas Oberwinkler, VP Sales": the model's firm is the job's department."""
    word = span.surface.strip(" .").casefold()
    return (not span.name and word in DEPARTMENTS
            and bool(_TITLE_BEFORE.search(text, max(0, span.start - 14), span.start)))  # fmt: skip


def lead_word_cut(span: NamedSpan) -> NamedSpan:
    """'HQ Galway', 'NB Kettusalo': the name without the note's word that opens it."""
    first, _, rest = span.surface.partition(" ")
    if rest and first.strip(".:").casefold() in _OPENING_WORDS and rest[:1].isupper():
        start = span.start + len(first) + 1
        kind = "Location" if first.casefold() == "hq" else span.type
        return NamedSpan(rest, start, span.end, kind, span.name)
    return span


# "Valadares b. 1976": a birth year written after the name, inside the model's span.
_BORN_TAIL = re.compile(r"\s+b\.(?:\s*\d{4})?$")


def tail_cut(span: NamedSpan) -> NamedSpan:
    """'Quillo 4 renewal due', 'Kivilinna HQ', 'Valadares b. 1976', 'Arqueta, Arequipa': the
    name without the words in lower case, the note's abbreviation, the birth year or the city
    after a comma the model ran it into (a
    name's words are capitalised or carry digits: 'Model 3', 'bZ4X' stay)."""
    if span.name:
        return span
    surface = _BORN_TAIL.sub("", span.surface)
    head, _, city = surface.rpartition(", ")
    if head and span.type != "Location" and is_city(city.strip()):
        surface = head  # "physiotherapist, Arqueta, Arequipa": the firm, then its city
    words = surface.split(" ")
    while len(words) > 1 and (
        words[-1].isalpha()
        and words[-1].islower()
        or words[-1].strip(".:").casefold() in NOTE_WORDS
    ):
        words.pop()
    kept = " ".join(words).rstrip()
    if kept == span.surface:
        return span
    return NamedSpan(kept, span.start, span.start + len(kept), span.type, span.name)


_BULLETS = "•*-–—>·|~ \t"


def line_cut(span: NamedSpan) -> NamedSpan | None:
    """The span within one line and without a list's bullet: a name never runs across a line
    break ("Dilan Amedi\nReply", a signature and the next line) and no bullet opens one."""
    surface, start = span.surface, span.start
    stripped = surface.lstrip(_BULLETS + "\n")
    start += len(surface) - len(stripped)
    line = stripped.split("\n", 1)[0].rstrip()
    if not line:
        return None
    if (start, start + len(line)) == (span.start, span.end):
        return span
    return NamedSpan(line, start, start + len(line), span.type, span.name)


def ran_together_split(span: NamedSpan | None) -> list[NamedSpan]:
    """'Nwakaego + Kenji Morisawa' (a note's '+' is 'and'), 'Oyebanji brought Selvaraj' (a
    verb between two people): names the model ran into one span, each its own. In a person's
    span a word in lower case is a name's only as a particle ('van', 'de', 'bin': nameparser's)
    or a one-letter conjunction ('Ortega y Gasset')."""
    if span is None:
        return []
    if span.name:
        return [span]
    runs, run, at = [], [], span.start
    for word in span.surface.split(" "):
        apart = word == "+" or (span.type == "Person" and word.isalpha() and word.islower()
                                and len(word) > 1 and word not in CONSTANTS.prefixes)  # fmt: skip
        if apart:
            runs.append(run)
            run = []
        elif word:
            run.append((at, at + len(word)))
        at += len(word) + 1
    runs = [r for r in (*runs, run) if r]
    if len(runs) < 2:
        return [span]
    offset = span.start
    return [NamedSpan(span.surface[r[0][0] - offset : r[-1][1] - offset], r[0][0], r[-1][1],
                      span.type) for r in runs]  # fmt: skip


def opening_word_cut(text: str, span: NamedSpan, past: frozenset[str] = frozenset()) -> NamedSpan:
    """'Chasing Rói Joensen', 'TODO Dilan', 'Discussed Korvaald': a name without the note's
    word before it, capitalised only because it opens a line or a sentence (a verb of _NOTE_VERBS
    for a thing's or a firm's, since the model may type a person's a thing). A person's
    name opens with a given name, which is no common word here ('Grace', 'Will' are given
    names, and kept), nor a verb's irregular past of `past` ('Rang Priya Ranganathan'); the
    graph's own names are kept as they are."""
    first, _, rest = span.surface.partition(" ")
    if span.name or not rest[:1].isupper() or not _opens(text, span.start):
        return span
    word = first.strip(".:,").casefold()
    # "Forwarding Adaeze Umeadi's note": a verb's -ing form rarer than COMMON_ZIPF ('forwarding'
    # 3.2) is still no given name ('Ming', 'Sterling' are, and are kept; 'Mei-Ling' is none)
    ing = (word.isalpha() and word.endswith("ing") and zipf_frequency(word, "en") >= ING_ZIPF
           and not given_name_gender(first))  # fmt: skip
    if span.type != "Person":  # the model's thing or firm may become a person's name later
        # "Forwarding Adaeze Umeadi's note": what a note forwards or attaches is someone's
        owned = text[span.end : span.end + 2] in ("'s", "’s")
        verb = word in _NOTE_VERBS or ing and (given_name_gender(rest.split()[0]) or owned)
        return NamedSpan(rest, span.start + len(first) + 1, span.end, span.type, span.name) \
            if verb else span  # fmt: skip
    common = ing or zipf_frequency(word, "en") >= COMMON_ZIPF and not given_name_gender(first)
    if word in NOTE_WORDS or common or word in past and not given_name_gender(first):
        return NamedSpan(rest, span.start + len(first) + 1, span.end, span.type, span.name)
    return span


@lru_cache(maxsize=2)
def irregular_past(nlp) -> frozenset[str]:
    """The verb forms the model's lemmatizer lists as exceptions ('rang', 'met', 'spoke'),
    not their lemmas: a word that opens a note's line with one is no name's."""
    try:
        verbs = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_exc")["verb"]
    except (KeyError, ValueError):
        return frozenset()
    lemmas = {lemma for found in verbs.values() for lemma in found}
    return frozenset(form for form in verbs if form not in lemmas)


# What a note did with whoever it names next ("Met Valadares (COO ...)", "• Discussed Korvaald"):
# verbs no firm's or product's name opens with, cut whatever type the model gave the span.
_NOTE_VERBS = frozenset(
    "met discussed called emailed pinged chased chasing visited rang phoned contacted reviewed "
    "asked interviewed invited thanked briefed looped escalated".split()
)
_INITIALS = re.compile(r"^[A-Z]{2,3}$")


def initials_named(text: str, spans: list[NamedSpan], people: list[str]) -> list[NamedSpan]:
    """'RV to chase legal', 'Lwazi Mabandla (LM)': two or three capitals that are the initials
    of exactly one person of `people` (the document's so far) and of the chunk's, where a
    note puts a person: opening a line, a sentence or an item, or in parentheses after the
    name. Elsewhere ("joined ML") they may be a firm's and stay what they were, unless the note
    gave them to the person in parentheses: then they are that person's throughout the note
    ("Folarin Oyebanji (FO) ... on FO's team": not a firm 'FO', which namesakes then shared)."""
    named = [*people, *(s.name or s.surface for s in spans if s.type == "Person")]
    bare = [s for s in spans if not s.name and _INITIALS.match(s.surface)]
    owners = {s.surface: {n for n in named if initials(n) == s.surface.casefold()} for s in bare}
    defined = {s.surface for s in bare if _defined_after(text, s.start, owners[s.surface])}
    out = []
    for span in spans:
        if span.name or not _INITIALS.match(span.surface):
            out.append(span)
            continue
        whose = set(owners[span.surface])
        if len(whose) == 1 and (span.surface in defined or _opens(text, span.start)):
            span = NamedSpan(span.surface, span.start, span.end, "Person", whose.pop())
        out.append(span)
    return out


def _defined_after(text: str, at: int, names) -> bool:
    """Whether text[at] opens a bracket right after one of `names`: "Lwazi Mabandla (LM)"."""
    before = text[:at].rstrip(" ")
    return before.endswith("(") and any(before[:-1].rstrip().endswith(n) for n in names)
