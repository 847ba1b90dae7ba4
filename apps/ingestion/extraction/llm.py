"""An extractor for any OpenAI-compatible chat endpoint (settings INGESTION_LLM_*), asked for a
strict JSON schema that holds the ontology and the relation whitelist. The prompt carries the
document's anchor and short-term state; names it returns are located in the chunk and resolved
locally like the default extractor's. Whatever the endpoint answers is checked again here."""

from __future__ import annotations

import json
import re

from django.conf import settings

from apps.graph.nodes import ENTITY_TYPES
from apps.ingestion.extraction import (
    Extraction,
    ExtractionFailed,
    LocalRelation,
    candidates_assembled,
)
from apps.ingestion.extraction.ontology import RELATIONS, relation_normalized
from apps.ingestion.llm_state import STATE_SCHEMA
from apps.ingestion.working_memory import NamedSpan, ShortTermState, StateView, read_chunk
from memoryproject.chat_completions import ChatEndpoint, ChatFailed, chat_complete_json

MAX_ENTITIES = 50
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["entities", "relations"],
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "type", "aliases", "description"],
                "properties": {
                    "name": {"type": "string"},
                    "type": {"type": "string", "enum": list(ENTITY_TYPES)},
                    "aliases": {"type": "array", "items": {"type": "string"}},
                    "description": {"type": "string"},
                },
            },
        },
        "relations": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["subject", "predicate", "object", "confidence", "nuance"],
                "properties": {
                    "subject": {"type": "string"},
                    "predicate": {"type": "string", "enum": list(RELATIONS)},
                    "object": {"type": "string"},
                    "confidence": {"type": "number"},
                    "nuance": {"type": "string"},
                },
            },
        },
    },
}
# With an LlmState the same call also returns the state after the chunk (apps.ingestion.llm_state).
SCHEMA_WITH_STATE = {**SCHEMA, "required": [*SCHEMA["required"], "state"],
                     "properties": {**SCHEMA["properties"], "state": STATE_SCHEMA}}  # fmt: skip
STATE_INSTRUCTIONS = (
    " Also return `state`, the short-term state after this chunk: the entities still under "
    "discussion (full names), the references still waiting for an antecedent, the current "
    "argument branch (the premise or claim being built, or null), and `boundary`: true when "
    "the next chunk starts a new topic."
)
INSTRUCTIONS = (
    "Extract named entities and relations from the chunk. Entity types: "
    + ", ".join(ENTITY_TYPES)
    + ". Relations: "
    + ", ".join(RELATIONS)
    + ". A relation outside that list is RELATES_TO with what it means in `nuance`. Use the "
    "document outline and the state to resolve short names and references to the entity they "
    "stand for, and name that entity by its full name. Answer with JSON only."
)


class LlmExtractor:
    returns_state = True  # the pipeline gives it an LlmState (the LLM returns the state)

    def __init__(self, *, url: str, model: str, api_key: str = "", timeout: float = 60.0) -> None:
        if not url:
            raise ExtractionFailed("INGESTION_LLM_URL is not set")
        self.endpoint = ChatEndpoint(url, model, api_key=api_key, timeout=timeout)
        self.name = f"llm:{model}"

    @classmethod
    def from_settings(cls) -> LlmExtractor:
        return cls(
            url=settings.INGESTION_LLM_URL,
            model=settings.INGESTION_LLM_MODEL,
            api_key=settings.INGESTION_LLM_API_KEY,
            timeout=settings.INGESTION_LLM_TIMEOUT,
        )

    def extract(self, text: str, *, state: ShortTermState) -> Extraction:
        returning = callable(getattr(state, "returned", None))
        answer = self._ask(text, state.view(), returning)
        types = {}
        for item in answer.get("entities", [])[:MAX_ENTITIES]:
            name = str(item.get("name", "")).strip()[:200]
            if name and item.get("type") in ENTITY_TYPES:
                types.setdefault(name, item["type"])
        descriptions = {
            str(i.get("name", "")).strip(): str(i.get("description", ""))[:2000]
            for i in answer.get("entities", [])
        }
        aliases = {
            str(i.get("name", "")).strip(): [str(a)[:200] for a in i.get("aliases", [])][:20]
            for i in answer.get("entities", [])
        }
        spans = _located(text, types, aliases)
        reading = read_chunk(state, text, spans)
        relations = []
        for item in answer.get("relations", []):
            subject, obj = str(item.get("subject", "")), str(item.get("object", ""))
            if subject not in types or obj not in types:
                continue
            predicate, nuance = relation_normalized(
                str(item.get("predicate", "")), str(item.get("nuance", ""))
            )
            confidence = min(max(float(item.get("confidence", 0.5) or 0.0), 0.0), 1.0)
            relations.append(
                LocalRelation(_local(reading, subject), _local(reading, obj), predicate,
                              confidence, nuance)
            )  # fmt: skip
        entities, candidates = candidates_assembled(
            reading.mentions, relations, descriptions, aliases
        )
        if returning:  # after the rules read the chunk: the LLM's state, if it holds, wins
            state.returned(answer.get("state"))
        return Extraction(entities, candidates, reading.references, reading.arguments)

    def _ask(self, text: str, view: StateView, returning: bool = False) -> dict:
        context = {
            "outline": [entry.title for entry in view.outline],
            "section": list(view.section_path),
            "active_entities": [{"name": n, "type": t} for n, t in view.active_entities],
            "unresolved_references": list(view.unresolved),
            "current_branch": view.branch,
        }
        user = json.dumps({"context": context, "chunk": text})
        try:
            answer = chat_complete_json(
                self.endpoint, system=INSTRUCTIONS + (STATE_INSTRUCTIONS if returning else ""),
                user=user, schema=SCHEMA_WITH_STATE if returning else SCHEMA,
                schema_name="extraction")  # fmt: skip
        except ChatFailed as exc:
            raise ExtractionFailed(f"LLM extraction failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(answer, dict):
            raise ExtractionFailed("LLM extraction failed: the answer is not a JSON object")
        return answer


def _located(text: str, types: dict[str, str], aliases: dict[str, list[str]]) -> list[NamedSpan]:
    """Every occurrence of a returned name or alias in the chunk; a name the chunk does not
    contain still counts once, at offset 0..0, so the entity is not lost."""
    spans: list[NamedSpan] = []
    taken: set[int] = set()
    for name, type_ in types.items():
        found = False
        for surface in sorted({name, *aliases.get(name, [])}, key=len, reverse=True):
            for match in re.finditer(r"\b" + re.escape(surface) + r"\b", text):
                if not taken & set(range(*match.span())):
                    taken |= set(range(*match.span()))
                    spans.append(NamedSpan(surface, match.start(), match.end(), type_, name))
                    found = True
        if not found:
            spans.append(NamedSpan(name, 0, 0, type_, name))
    return sorted(spans, key=lambda s: s.start)


def _local(reading, name: str) -> str:
    """The name an LLM entity got after local resolution (it may have said "Holmes")."""
    for mention in reading.mentions:
        if mention.surface == name or mention.name == name:
            return mention.name
    return name
