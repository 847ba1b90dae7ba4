"""Facts an agent sends itself (it has its own LLM): checked against the ontology, relations
by entity name within the request, mentions located in the optional source text."""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.graph.nodes import ENTITY_TYPES
from apps.ingestion.extraction import Extraction
from apps.ingestion.extraction.ontology import relation_normalized
from apps.resolution.candidates import EntityCandidate, MentionSpan, RelationCandidate
from apps.resolution.entity_values import validate_values
from memoryproject.api_errors import ApplicationError


def validate_facts(entities: Sequence[dict], relations: Sequence[dict], *, limit: int) -> None:
    """400 naming the field: too many facts, a type outside POLE+O, values beyond their limits,
    a relation whose subject or object is not an entity of this request."""
    if not entities:
        raise ApplicationError("entities is empty.", field="entities", code="empty")
    if len(entities) + len(relations) > limit:
        raise ApplicationError(
            f"{len(entities) + len(relations)} facts; the limit is {limit} per request.",
            field="entities",
            limit=limit,
            code="too_many",
        )
    names = set()
    for i, entity in enumerate(entities):
        if entity["type"] not in ENTITY_TYPES:
            raise ApplicationError(
                f"type {entity['type']!r} is not one of {', '.join(ENTITY_TYPES)}.",
                field=f"entities[{i}].type",
            )
        validate_values(entity.get("values"), field=f"entities[{i}].values")
        names.add(entity["name"])
    for i, relation in enumerate(relations):
        for end in ("subject", "object"):
            if relation[end] not in names:
                raise ApplicationError(
                    f"{end} {relation[end]!r} names no entity of this request.",
                    field=f"relations[{i}].{end}",
                )


def facts_extraction(
    entities: Sequence[dict], relations: Sequence[dict], *, source_text: str = ""
) -> Extraction:
    """Candidates for the resolution gate; a name repeated in the request is one candidate."""
    index: dict[str, int] = {}
    candidates: list[EntityCandidate] = []
    for entity in entities:
        if entity["name"] in index:
            continue
        index[entity["name"]] = len(candidates)
        aliases = tuple(dict.fromkeys(a for a in entity.get("aliases", ()) if a != entity["name"]))
        candidates.append(
            EntityCandidate(
                name=entity["name"],
                type=entity["type"],
                aliases=aliases,
                description=entity.get("description", ""),
                values=dict(entity.get("values") or {}),
                mentions=_mentions(source_text, (entity["name"], *aliases)),
            )
        )
    found: dict[tuple[int, str, int], RelationCandidate] = {}
    for relation in relations:
        predicate, nuance = relation_normalized(relation["predicate"], relation.get("nuance", ""))
        s, o = index[relation["subject"]], index[relation["object"]]
        candidate = RelationCandidate(s, predicate, o, relation.get("confidence", 1.0), nuance,
                                      valid_from=relation.get("valid_from"))  # fmt: skip
        found.setdefault((s, predicate, o), candidate)
    return Extraction(candidates, list(found.values()))


def _mentions(text: str, surfaces: Sequence[str]) -> tuple[MentionSpan, ...]:
    spans = []
    for surface in surfaces:
        for match in re.finditer(r"\b" + re.escape(surface) + r"\b", text):
            spans.append(MentionSpan(surface, match.start(), match.end()))
    return tuple(sorted(spans, key=lambda m: m.start))
