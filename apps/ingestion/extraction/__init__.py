"""Extraction of entity and relation candidates from a chunk, behind one small interface.

Implementations: `SpacyExtractor` (default, offline NER and dependency parse), `LlmExtractor`
(any OpenAI-compatible endpoint with a strict JSON schema) and the facts an agent sends itself
(`agent_facts`). Each reads the chunk with the document's short-term state, so names resolve
locally ("Holmes" -> "Sherlock Holmes") before the long-term graph is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from django.conf import settings

from apps.ingestion.arguments import ArgumentSpan
from apps.ingestion.working_memory import LocalMention, Reference, ShortTermState
from apps.resolution.candidates import EntityCandidate, MentionSpan, RelationCandidate


class ExtractionFailed(RuntimeError):
    """The extractor could not read this chunk (endpoint down, malformed answer)."""


@dataclass
class Extraction:
    entities: list[EntityCandidate] = field(default_factory=list)
    relations: list[RelationCandidate] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    arguments: list[ArgumentSpan] = field(default_factory=list)


class Extractor(Protocol):
    name: str

    def extract(self, text: str, *, state: ShortTermState) -> Extraction:
        """Candidates found in `text`; mention offsets are relative to `text`. An extractor
        that can read a window of chunks at once also has `parse_window(texts) -> list` and
        takes each element back as `extract(text, state=..., parsed=element)`."""
        ...


@dataclass(frozen=True)
class LocalRelation:
    subject: str  # entity names after local resolution
    object: str
    predicate: str
    confidence: float
    nuance: str = ""


def candidates_assembled(
    mentions: Sequence[LocalMention],
    relations: Sequence[LocalRelation] = (),
    descriptions: dict[str, str] | None = None,
    aliases: dict[str, Sequence[str]] | None = None,
    learned: dict[str, dict[str, str]] | None = None,
) -> tuple[list[EntityCandidate], list[RelationCandidate]]:
    """One candidate per (name, type) with all its mentions; relations by index into them.
    Surfaces that are names (not descriptions like "the company") become aliases."""
    descriptions, aliases, learned = descriptions or {}, aliases or {}, learned or {}
    order: dict[tuple[str, str], list[LocalMention]] = {}
    for mention in mentions:
        order.setdefault((mention.name, mention.type), []).append(mention)
    entities, index_by_name = [], {}
    for (name, type_), found in order.items():
        surfaces = [m.surface for m in found if m.via != "reference" and m.surface != name]
        alias_list = list(dict.fromkeys([*aliases.get(name, ()), *surfaces]))
        spans = tuple(MentionSpan(m.surface, m.start, m.end) for m in found)
        index_by_name.setdefault(name, len(entities))
        entities.append(
            EntityCandidate(
                name=name,
                type=type_,
                aliases=tuple(alias_list),
                description=descriptions.get(name, ""),
                mentions=spans,
                type_guessed=True,  # an extractor's guess: evidence, not a wall
                learned=dict(learned.get(name, {})),
            )
        )
    seen, candidates = set(), []
    for rel in relations:
        s, o = index_by_name.get(rel.subject), index_by_name.get(rel.object)
        key = (s, rel.predicate, o)
        if s is None or o is None or s == o or key in seen:
            continue
        seen.add(key)
        candidates.append(RelationCandidate(s, rel.predicate, o, rel.confidence, rel.nuance))
    return entities, candidates


def default_extractor() -> Extractor:
    """The extractor named by settings.INGESTION_EXTRACTOR ("spacy" or "llm")."""
    if settings.INGESTION_EXTRACTOR == "llm":
        from apps.ingestion.extraction.llm import LlmExtractor

        return LlmExtractor.from_settings()
    from apps.ingestion.extraction.spacy_ner import SpacyExtractor

    return SpacyExtractor.shared()
