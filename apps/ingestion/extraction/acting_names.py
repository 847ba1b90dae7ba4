"""Names whose sentence shows a person: the subject of what people do ("Asiedu called",
"Aroha Paewai wrote:"), after an honorific, "born" beside it, or (for a run of proper nouns the
model missed) the next subject pronoun. The small model types unfamiliar names as products or
works of art; these cues hold whatever the name's letters."""

from __future__ import annotations

import re

from apps.ingestion.extraction.name_types import organisation_form
from apps.ingestion.given_names import given_name_gender
from apps.ingestion.working_memory import HONORIFICS, NamedSpan

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


def acting_person(doc, span: NamedSpan) -> NamedSpan:
    """A name the model typed a product or a work ("Aroha Paewai wrote:", "Aroha Paewai
    (AP)" as a work of art) that does what people do, as its sentence's subject, is a person's;
    a firm's form ("Tupana Bio Ltda.", "Vantor Logistics") keeps its type."""
    if span.name or span.type != "Object" or not _PERSON_SHAPE.match(span.surface):
        return span
    if organisation_form(span.surface):
        return span
    tokens = doc.char_span(span.start, span.end, alignment_mode="expand")
    if tokens is None or not acts(list(tokens), pronouns=False):
        return span
    return NamedSpan(span.surface, span.start, span.end, "Person", span.name)


# Where a firm stands: "works for/at X", "consults for X", "joined X", "Inês Valadares of X".
_WORK_VERBS = frozenset("work consult intern freelance volunteer".split())


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
    )
    return NamedSpan(span.surface, span.start, span.end, "Organization") if firm else span
