"""The ontology extraction speaks: POLE+O entity types and a whitelist of relations. A relation
outside the whitelist becomes RELATES_TO, keeping what was meant in its nuance."""

from __future__ import annotations

import re

FALLBACK = "RELATES_TO"
RELATIONS = (
    "WORKS_FOR", "FOUNDED", "LOCATED_IN", "PART_OF", "MEMBER_OF", "OWNS", "CREATED",
    "PARTICIPATED_IN", "KNOWS", "USES", FALLBACK,
)  # fmt: skip
MAX_NUANCE_CHARS = 500

# Verb lemmas (with their preposition) and role nouns the dependency parse yields, mapped to the
# whitelist; anything else falls back to RELATES_TO with the phrase as nuance.
PHRASES = {
    "WORKS_FOR": {"work for", "work at", "work with", "employ", "ceo of", "director of",
                  "employee of", "head of", "lead", "manage", "chief of", "president of"},
    "FOUNDED": {"found", "co-found", "cofound", "establish", "start", "founder of"},
    "LOCATED_IN": {"base in", "locate in", "live in", "headquarter in", "situate in",
                   "reside in", "be in", "move to", "bear in"},
    "PART_OF": {"part of", "subsidiary of", "division of", "branch of"},
    "MEMBER_OF": {"join", "member of", "belong to"},
    "OWNS": {"own", "acquire", "buy", "purchase", "owner of"},
    "CREATED": {"create", "develop", "build", "write", "invent", "design", "release",
                "author of", "creator of", "make", "produce"},
    "PARTICIPATED_IN": {"attend", "participate in", "take part in", "speak at", "win"},
    "KNOWS": {"meet", "know", "marry", "friend of", "partner of", "meet with"},
    "USES": {"use", "adopt", "rely on"},
}  # fmt: skip
_PHRASE_TO_RELATION = {p: rel for rel, phrases in PHRASES.items() for p in phrases}

# spaCy's English NER labels mapped to POLE+O; labels not listed (dates, numbers...) are dropped.
SPACY_LABELS = {
    "PERSON": "Person",
    "ORG": "Organization",
    "GPE": "Location",
    "LOC": "Location",
    "FAC": "Location",
    "EVENT": "Event",
    "PRODUCT": "Object",
    "WORK_OF_ART": "Object",
    "LAW": "Object",
}


def relation_from_phrase(phrase: str) -> tuple[str, str]:
    """(predicate, nuance) for a phrase such as "work for" or "acquire"."""
    key = re.sub(r"\s+", " ", phrase.strip().lower())
    relation = _PHRASE_TO_RELATION.get(key)
    return (relation, "") if relation else (FALLBACK, key[:MAX_NUANCE_CHARS])


def relation_normalized(predicate: str, nuance: str = "") -> tuple[str, str]:
    """A predicate from the whitelist, or RELATES_TO with the original intent kept in the nuance."""
    upper = re.sub(r"[^A-Z0-9]+", "_", predicate.strip().upper()).strip("_")
    if upper in RELATIONS:
        return upper, nuance[:MAX_NUANCE_CHARS]
    intent = predicate.strip()
    kept = f"{intent}: {nuance}" if nuance else intent
    return FALLBACK, kept[:MAX_NUANCE_CHARS]
