"""Names whose sentence shows a person: the subject of what people do ("Asiedu called",
"Aroha Paewai wrote:"), after an honorific, "born" beside it, or (for a run of proper nouns the
model missed) the next subject pronoun. The small model types unfamiliar names as products or
works of art; these cues hold whatever the name's letters."""

from __future__ import annotations

import re

from apps.ingestion.extraction.name_types import NAME_WORD_PATTERN, organisation_form
from apps.ingestion.extraction.place_names import is_place_name
from apps.ingestion.extraction.role_phrases import verb_role
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import HONORIFICS, NamedSpan
from apps.resolution.role_words import ROLE_HEADS, TRADE_ROLES

# What people do, as notes say it ("Lõhmus lives in Tartu", "Asiedu called", "Asiedu, born in
# 1995"): a run of proper nouns that does it is a person, whatever the given-name tables know.
_PERSON_VERBS = frozenset(
    "work live say tell call mention meet enjoy like love prefer travel join study write visit "
    "speak talk describe serve retire spend hate attend ask reply answer email phone agree "
    "complain recommend think believe feel move grow bear hike smile laugh sign promise "
    "confirm explain admit insist".split()
)


_PRONOUN_REACH = 40  # tokens


def acts(run, *, pronouns: bool = True) -> bool:
    head = run[-1]
    verb = head.head
    if head.dep_ in ("nsubj", "nsubjpass") and verb.lemma_.lower() in _PERSON_VERBS:
        return True
    if head.i > 0 and head.doc[run[0].i - 1].lower_.rstrip(".") in HONORIFICS:
        return True
    if any(c.dep_ == "acl" and c.lemma_ == "bear" for c in head.children):
        return True
    if not pronouns:
        return False
    # "Tõnis Lõhmus has been with Aldermoor. He ...": the next subject pronoun, before anyone
    # else is named, is this run's.
    for token in head.doc[head.i + 1 : head.i + 1 + _PRONOUN_REACH]:
        if token.ent_type_ == "PERSON":
            return False
        if token.lower_ in ("he", "she") and token.dep_ in ("nsubj", "nsubjpass"):
            return True
    return False


# A name of two or three capitalised words, no digits: a person's shape (a model name has digits).
_PERSON_SHAPE = re.compile(r"^[^\W\d_][^\W\d_'-]+(?: [^\W\d_][^\W\d_'-]+){1,2}$")


# What firms do not do, for a name of any type: "Kalniņa looped in ...", "Farahmandi got
# promoted", "Sargsyan pinged" (a firm also says, replies, recommends and signs).
_ONLY_PEOPLE = frozenset("ping message text vent loop hike laugh smile hate retire marry".split())
_ONLY_PEOPLE_PASSIVE = frozenset("promote bear marry".split())
# "Mads's colleague", "Taras's birthday": what a person has and a firm has not.
_KIN = frozenset(
    "colleague coworker co-worker friend wife husband spouse boss assistant daughter son kids "
    "sister brother mother father mentor neighbour neighbor girlfriend boyfriend birthday job "
    "hobby hobbies desk family wedding".split()
)
# A job's head word that only a person holds: a firm can be "the operator", "the auditor" or
# "the developer" of something, not "the data scientist".
PEOPLES_JOBS = ROLE_HEADS - frozenset(
    "owner operator developer consultant advisor adviser counsel auditor controller associate "
    "representative rep executive lead head chief buyer administrator practitioner".split()
)
# One to three words of any script's letters: 'Restrepo-Uribe', "O'Neill".
_NAME_SHAPE = re.compile(rf"^{NAME_WORD_PATTERN}(?: {NAME_WORD_PATTERN}){{0,2}}$")


def acting_person(doc, span: NamedSpan) -> NamedSpan:
    """A name the model typed a product or a work ("Aroha Paewai wrote:", "Aroha Paewai
    (AP)" as a work of art) that does what people do, as its sentence's subject, is a person's;
    so is a name of any type, not a place's, that does what only people do, has what only
    people have ("Mads's colleague"), stands in apposition to a job ("Zubrava's engineering
    manager, Halvor") or holds one ("Hoek is their lead data scientist", "was appointed head
    of procurement", "who trained as an architect"); a firm's form ("Tupana Bio Ltda.", "Vantor
    Logistics") keeps its type."""
    if span.name or span.type == "Person" or not _NAME_SHAPE.match(span.surface):
        return span
    if organisation_form(span.surface) or is_place_name(span.surface):
        return span
    tokens = doc.char_span(span.start, span.end, alignment_mode="expand")
    if tokens is None:
        return span
    run = list(tokens)
    person = (
        span.type == "Object" and _PERSON_SHAPE.match(span.surface) and acts(run, pronouns=False)
    ) or _person_deed(tokens.root)
    return NamedSpan(span.surface, span.start, span.end, "Person", span.name) if person else span


def _person_deed(head) -> bool:
    verb, dep, owned = head.head, head.dep_, head.head.lower_
    if dep == "poss":  # "Mads's colleague"; "Farhana's team", "Arnaud's manager" for given names
        return owned in _KIN or owned in ("team", "manager") and bool(given_name_gender(head.text))
    if dep == "appos":  # "Zubrava's engineering manager, Halvor"
        return owned in ROLE_HEADS and head.head.pos_ == "NOUN"
    if dep in ("nsubj", "nsubjpass") and _job_given(verb):
        return True
    if any(c.dep_ == "relcl" and _job_given(c) for c in head.children):
        return True  # "Vasić, who trained as an architect, ..."
    if dep == "nsubj":
        return _verb_in(verb, _ONLY_PEOPLE)
    return dep == "nsubjpass" and _verb_in(verb, _ONLY_PEOPLE_PASSIVE)


def _job_given(verb) -> bool:
    """Whether `verb` gives its subject a job only a person holds (mention_attributes)."""
    role = verb_role(verb)
    return bool(role) and role.split()[-1] in PEOPLES_JOBS


def _verb_in(verb, lemmas: frozenset[str]) -> bool:
    """The small model's lemmas miss some forms ('hates' -> 'hat'): the word's own endings too."""
    word = verb.lower_
    forms = {verb.lemma_.lower(), word, word.removesuffix("s"), word.removesuffix("d"),
             word.removesuffix("ed"), word.removesuffix("ing")}  # fmt: skip
    return bool(forms & lemmas)


def job_holder_firm(doc, span: NamedSpan) -> NamedSpan:
    """A name that owns a full job title ("Zubrava's data scientist", "Zubrava LLC's
    engineering manager") is a firm's: a person has a manager or an assistant, not a data
    scientist. A name opening with a given name stays a person's."""
    if span.name or span.type == "Organization" or not _NAME_SHAPE.match(span.surface):
        return span
    if given_name_gender(span.surface.split()[0]) or is_place_name(span.surface):
        return span
    tokens = doc.char_span(span.start, span.end, alignment_mode="expand")
    if tokens is None or tokens[-1].dep_ != "poss":
        return span
    job = tokens[-1].head
    titled = any(c.dep_ in ("compound", "amod") or c.lower_ == "of" for c in job.children)
    if job.lower_ not in ROLE_HEADS or job.lower_ in _KIN or not titled:
        return span
    return NamedSpan(span.surface, span.start, span.end, "Organization")


# Where a firm stands: "works for/at X", "consults for X", "joined X", "joined (a meeting) for
# X", "Inês Valadares of X", "X is our supplier", "the vendor for the Ortana 10 is X".
_WORK_VERBS = frozenset("work consult intern freelance volunteer join".split())


def employer_named(doc, span: NamedSpan) -> NamedSpan:
    """A lone unfamiliar word the model typed a person or a thing ("Oberwinkler works for
    Pellucid", "Inês Valadares of Velamar") where a firm stands in the sentence is a firm's
    name; a given name there stays a person's ("works for Ana")."""
    word = span.surface.strip()
    if span.name or span.type not in ("Person", "Object") or " " in word:
        return span
    if not word[:1].isupper() or any(c.isdigit() for c in word) or given_name_gender(word):
        return span
    tokens = doc.char_span(span.start, span.end, alignment_mode="expand")
    if tokens is None or len(tokens) != 1:
        return span
    token, prep = tokens[0], tokens[0].head
    firm = (
        (token.dep_ == "pobj" and prep.lower_ in ("for", "at") and prep.head.lemma_ in _WORK_VERBS)
        or (token.dep_ == "dobj" and prep.lemma_ == "join")
        or (token.dep_ == "pobj" and prep.lower_ == "of" and prep.head.ent_type_ == "PERSON")
        or _trade_said(token)
    )
    return NamedSpan(span.surface, span.start, span.end, "Organization") if firm else span


def _trade_said(token) -> bool:
    """`token` and a firm's role on either side of 'is' ("X is our supplier", "The vendor for
    the Ortana 10 is X")."""
    verb = token.head
    if token.dep_ not in ("nsubj", "attr") or verb.lemma_ != "be":
        return False
    other = "attr" if token.dep_ == "nsubj" else "nsubj"
    return any(c.dep_ == other and c.lemma_.lower() in TRADE_ROLES for c in verb.children)
