"""Names the small NER model misses, found from the tagger's proper nouns and from a legal form
after capitalised words, and the words that open a span but are no part of a name (an honorific,
a title, "w/", a spaced dash)."""

from __future__ import annotations

import functools
import re

from cleanco import basename
from wordfreq import zipf_frequency

from apps.ingestion.extraction.acting_names import acts
from apps.ingestion.extraction.firm_cues import founded_runs
from apps.ingestion.extraction.former_ties import former_runs
from apps.ingestion.extraction.note_words import CLOCK, COMMON_ZIPF, MONTH_NAMES, MONTHS
from apps.ingestion.extraction.place_names import placed_here
from apps.ingestion.extraction.role_phrases import TITLES
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import HONORIFICS, NamedSpan
from apps.resolution.comparisons.organisation_names import legal_base
from apps.resolution.role_words import RELATION_WORDS

_WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
SEPARATORS = frozenset("- – — | @ / :".split())
_PLACE_BEFORE = frozenset("in to from at near via visiting based".split())
_ROLE_WORD_ZIPF = 3.0  # 'moderator' 3.4, 'caller' 3.6; surnames 'quintero' 2.4, 'morel' 2.6
_STAMP_ONLY = re.compile(rf"\s*{CLOCK}\s+")


def lead_in(token) -> bool:
    """A word that opens a span but is no part of the name: an honorific, a title, '@' (not
    the hyphen inside 'Restrepo-Uribe', though in 'ex-Nordhavn' and '17-Mar')."""
    word = token.lower_.rstrip(".")
    separator = token.text in SEPARATORS and not joined_hyphen(token)
    return (word in HONORIFICS or word in TITLES or separator
            or word in MONTHS and token.text.endswith("."))  # fmt: skip


def joined_hyphen(token) -> bool:
    """The hyphen inside 'Mei-Ling' or 'Restrepo-Uribe' (a capitalised word before it, no space
    on either side), not the one of 'ex-Nordhavn' or '17-Mar'."""
    doc = token.doc
    return (token.text == "-" and not token.whitespace_ and 0 < token.i < len(doc) - 1
            and not doc[token.i - 1].whitespace_ and doc[token.i - 1].text[:1].isupper()
            and doc[token.i + 1].text[:1].isalpha())  # fmt: skip


def proper_noun_spans(doc, taken: set[int]) -> list[NamedSpan]:
    """Runs of capitalised proper nouns outside every other span, as Objects (a lone word
    that names an entity of the short-term state takes that entity's type in `read_chunk`);
    a weekday names no entity."""
    runs, run = [], []
    for token in doc:
        if token.idx not in taken and (
            token.pos_ == "PROPN"
            and token.text[:1].isupper()
            or run
            and joined_hyphen(token)
            or _rare_before_name(token)
            or _given_before_name(token)
            or _given_speaker(token)
        ):  # "Mei-Ling Tsao" is one run
            run.append(token)
            continue
        if run:
            runs.append(run)
        run = []
    if run:
        runs.append(run)
    spans = []
    for run in runs:
        cut = [i for i, t in enumerate(run) if lead_in(t) or "/" in t.text]
        run = run[cut[-1] + 1 :] if cut else run  # "Met Ms. Nwakaego", "Lunch w/ Azzouni"
        while run and run[-1].text == "-":
            run = run[:-1]  # "Arequipa-based": the name before the hyphen
        after = doc[run[-1].i + 1] if run and run[-1].i + 1 < len(doc) else None
        speaker = after is not None and after.text == ":" and _speaker_label(doc, run)
        if (
            after is not None
            and (lead_in(after) or "/" in after.text)
            and (after.text != ":" or _opens_line(doc, run[0]))
            and not (after.text in "-–—|" and given_name_gender(run[0].text))
            and not speaker
        ):  # "Spoke" of "Spoke w/ Oberwinkler": the note's words before a name; "Action Items:"
            continue  # a field's label, but "thread about Arqueta S.A.C.: mining" names a firm,
            # and "Shirin Farahmandi — marketing lead" a person
        nxt = doc[run[0].i + 1] if run and run[0].i + 1 < len(doc) else None
        if run and run[0].is_sent_start and nxt is not None and given_name_gender(nxt.text) \
                and not given_name_gender(run[0].text):  # fmt: skip
            run = run[1:]  # "Met Ana Duarte", "Called Ana Duarte": a note's verb, capitalised
        if not run:
            continue
        start, end = run[0].idx, run[-1].idx + len(run[-1])
        surface = doc.text[start:end]
        if len(surface) < 2 or taken & set(range(start, end)) or surface.lower() in _WEEKDAYS:
            continue
        if len(run) == 1 and run[0].lower_ in RELATION_WORDS:
            continue  # "Colleague Ama Owusu": the word before a name
        # A given name alone the model missed ("Q: who is Taras?") is a person's, unless it
        # stands where a place does ("flew to Florence"; 'Taras' is a city's name too) or is a
        # month's ("Minutes (May 4)").
        before = doc[run[0].i - 1].lower_ if run[0].i else ""
        given = (len(run) == 1 and given_name_gender(surface) and before not in _PLACE_BEFORE
                 and surface.lower() not in MONTH_NAMES)  # fmt: skip
        person = acts(run) or given or speaker
        spans.append(NamedSpan(surface, start, end, "Person" if person else "Object"))
    return spans


# Below this a capitalised word is no English word ('folake' 0, 'stop' 5.4): a name's.
_RARE_ZIPF = 2.0


def _rare_before_name(token) -> bool:
    """A capitalised word the tagger made a verb or a noun before a proper noun, that no English
    text uses: the given name of "stop: Folake Adeyemi [hardware buyer] ..."."""
    doc = token.doc
    nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return (token.pos_ in ("VERB", "NOUN", "ADJ") and token.is_alpha and token.is_title
            and nxt is not None and nxt.pos_ == "PROPN" and nxt.is_title
            and bool(token.whitespace_)
            and zipf_frequency(token.lower_, "en") < _RARE_ZIPF)  # fmt: skip


def _given_before_name(token) -> bool:
    """A given name the tagger made a common word right before a capitalised proper noun: the
    'Tomasz' of "Caller: Tomasz Wielgosz." (a compound NOUN there)."""
    doc = token.doc
    nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return (token.pos_ in ("VERB", "NOUN", "ADJ") and token.is_alpha and token.is_title
            and nxt is not None and nxt.pos_ == "PROPN" and nxt.is_title
            and bool(token.whitespace_) and bool(given_name_gender(token.text)))  # fmt: skip


def _speaker_label(doc, run) -> bool:
    """A transcript's speaker before the colon: a run after a time stamp alone on its line
    ("07:06 Olumide Bakare: ..."), or one opening with a given name ("Nadia Okafor: I ...")."""
    line = doc.text[: run[0].idx].rsplit("\n", 1)[-1]
    if len(run) == 1 and _talk_part_word(run[0].text):
        return False
    return bool(_STAMP_ONLY.fullmatch(line)) or (
        bool(given_name_gender(run[0].text)) and not line.strip()
    )


def _talk_part_word(word: str) -> bool:
    return not given_name_gender(word) and zipf_frequency(word.lower(), "en") >= _ROLE_WORD_ZIPF


def talk_part(text: str, span: NamedSpan) -> bool:
    """A word before a turn's colon that names a part in the talk, not a person ("05:40 HOST:",
    "MODERATOR:", "Voicemail (+44 7700 900078):"): an English word, no given name."""
    word = text[span.start : span.end]
    return " " not in word and bool(_LABEL_END.match(text, span.end)) and _talk_part_word(word)


_LABEL_END = re.compile(r"(?:[ \t]*\([^()\n]{0,40}\))?:")


def _given_speaker(token) -> bool:
    """A given name the tagger made a common word, alone before a turn's colon ("Gideon: I ...")."""
    doc = token.doc
    nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return (token.is_title and nxt is not None and nxt.text == ":" and token.is_alpha
            and not doc.text[: token.idx].rsplit("\n", 1)[-1].strip()
            and bool(given_name_gender(token.text)))  # fmt: skip


def _opens_line(doc, token) -> bool:
    """Whether only bullets and capitalised words stand before `token` on its line."""
    line = doc.text[: token.idx].rsplit("\n", 1)[-1]
    return not any(word[:1].islower() for word in line.split())


@functools.lru_cache(maxsize=4096)  # cleanco per word: a note repeats its words
def legal_form(text: str) -> bool:
    """Whether `text` is only a legal form: cleanco's ('GmbH', 'S.A.') or one the comparisons
    add ('CJSC', 'S.A.C.': legal_base)."""
    return not basename(text).strip(" .,") or legal_base(f"Firm {text}") == "firm"


def _legal_form(text: str) -> bool:
    return text[:1].isupper() and legal_form(text)


def registered_runs(doc) -> list[tuple[int, int]]:
    """The extents of capitalised words ending in a legal form ("Atlasia Textiles SARL"), which
    the small model reads in pieces (a place and a thing) or not at all: the run stops at
    punctuation, a line break, a lower-case word, a title, a verb ("Discussed Aduramo Power
    Ltd") and a common word opening the sentence ("Met Brennholt Messtechnik GmbH"); and the
    names a founding follows (firm_cues.founded_runs) or a former employer's cue precedes
    (former_ties.former_runs)."""
    found = []
    for token in doc:
        if not _legal_form(token.text) or (token.i + 1 < len(doc)
                                           and _legal_form(doc[token.i + 1].text)):  # fmt: skip
            continue  # the last word of a legal form ('Co., Ltd.', 'Sdn Bhd')
        form = token.i
        while form > 0 and (_legal_form(doc[form - 1].text) or doc[form - 1].text == ","):
            form -= 1
        start = form
        while start > 0:
            word = doc[start - 1]
            if not word.text[:1].isupper() or not word.text.replace("-", "").isalpha():
                break
            if (
                lead_in(word)
                or word.is_sent_start
                and zipf_frequency(word.lower_, "en") >= COMMON_ZIPF
            ):
                break
            if word.tag_ in ("VBD", "VBN", "VBG"):  # "• Discussed Aduramo Power Ltd": the verb
                break
            start -= 1
        if start < form:
            found.append((doc[start].idx, token.idx + len(token.text)))
    return found + founded_runs(doc.text) + former_runs(doc.text)


def names_repeated(text: str, spans: list[NamedSpan]) -> list[NamedSpan]:
    """A person's or a firm's name the model found once in a note and missed elsewhere in it
    ("Ardıç — head of procurement ... Ardıç born 1975"): each other word-bounded occurrence
    outside every span is a mention too; a one-word name that is a common English word ('Will',
    'May') is not copied. Where the model split the name ("Hafiz" a firm in "payments lead
    Hafiz Ndlovu: ..." and "Hafiz Ndlovu" a person two lines on), the whole name replaces the
    parts it holds."""
    out = list(spans)
    names = {s.surface: s for s in spans if s.type in ("Person", "Organization")}
    for surface, span in sorted(names.items(), key=lambda item: -len(item[0])):
        if not surface[:1].isupper() or len(surface) < 3:
            continue
        if " " not in surface and zipf_frequency(surface.casefold(), "en") >= COMMON_ZIPF:
            continue
        for found in re.finditer(rf"(?<!\w){re.escape(surface)}(?!\w)", text):
            start, end = found.start(), found.end()
            over = [s for s in out if start < s.end and s.start < end]
            if any(not (start <= s.start and s.end <= end) or (s.start, s.end) == (start, end)
                   for s in over):  # fmt: skip
                continue
            out = [s for s in out if s not in over]
            out.append(NamedSpan(surface, start, end, span.type, span.name))
    return sorted(_name_words_repeated(text, out), key=lambda s: s.start)


def _name_words_repeated(text: str, spans: list[NamedSpan]) -> list[NamedSpan]:
    """The given name or surname alone of one person named in full in the note, where the
    tagger read no proper noun ("Shalev (warehouse manager) gave the update" after "Yonatan
    Shalev"): a person's mention, which the short-term state gives that person. Not a word two
    people of the note share, a common English word, or a city where a place stands."""
    owners: dict[str, set[str]] = {}
    for s in spans:
        words = s.surface.split()
        if s.type == "Person" and 2 <= len(words) <= 3:
            for word in (words[0], words[-1]):
                owners.setdefault(word, set()).add(s.surface)
    out = list(spans)
    for word, people in owners.items():
        if (len(people) > 1 or len(word) < 3 or not word[:1].isupper() or not word.isalpha()
                or zipf_frequency(word.casefold(), "en") >= COMMON_ZIPF
                or word.casefold() in MONTH_NAMES | _WEEKDAYS):  # fmt: skip
            continue
        # in capitals too: a transcript's speaker label ("(05:31) SHALEV: I ...")
        written = rf"(?<![\w-])(?:{re.escape(word)}|{re.escape(word.upper())})(?![\w-])"
        for found in re.finditer(written, text):
            start, end = found.span()
            if any(start < s.end and s.start < end for s in out) or placed_here(text, start, end):
                continue
            out.append(NamedSpan(found.group(), start, end, "Person"))
    return out


def adjacent_people_joined(text: str, spans: list[NamedSpan]) -> list[NamedSpan]:
    """Two one-word people side by side with one space between are one person's name: the
    model missed "Quang Rautio" in "* Quang Rautio (was moved ...)", the tagger gave 'Quang'
    and the note's later "Rautio (born 1978)" gave 'Rautio', and two people became. So with a
    surname the tenant knows: its known span took 'Lõhmus' of "Tõnis Lõhmus" from the model."""
    out: list[NamedSpan] = []
    for span in sorted(spans, key=lambda s: s.start):
        last = out[-1] if out else None
        if (last is not None and last.type == span.type == "Person"
                and " " not in last.surface.strip()
                and " " not in span.surface.strip() and text[last.end : span.start] == " "
                and last.surface[:1].isupper() and span.surface[:1].isupper()):  # fmt: skip
            out[-1] = NamedSpan(text[last.start : span.end], last.start, span.end, "Person")
            continue
        out.append(span)
    return out
