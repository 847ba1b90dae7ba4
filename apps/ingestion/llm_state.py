"""The short-term state returned by the LLM, when the LLM extractor is configured: the same
chat call that extracts a chunk's entities answers the state after the chunk as a strict JSON
schema (STATE_SCHEMA: active entities, open references, the current argument branch, whether
the chunk starts a new episode). `LlmState` is a `ShortTermState` like `WorkingMemory`: the
rules read each chunk as always, then a state the LLM returned, checked here, replaces what the
rules keep of the active entities and the branch; an answer that fails the check leaves the
rules' state as it is and is counted (`fallbacks`)."""

from __future__ import annotations

from collections.abc import Sequence

from apps.graph.nodes import ENTITY_TYPES
from apps.ingestion.working_memory import ActiveEntity, Reference, StateView, WorkingMemory

MAX_ACTIVE = 50
MAX_NAME = 200
MAX_BRANCH = 300
STATE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": [
        "active_entities",
        "unresolved_references",
        "current_argument_branch",
        "boundary",
    ],  # fmt: skip
    "properties": {
        "active_entities": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "type"],
                "properties": {
                    "name": {"type": "string"},
                    "type": {"type": "string", "enum": list(ENTITY_TYPES)},
                },
            },
        },
        "unresolved_references": {"type": "array", "items": {"type": "string"}},
        "current_argument_branch": {"type": ["string", "null"]},
        "boundary": {"type": "boolean"},
    },
}


def state_checked(answer) -> dict | None:
    """The state in `answer` if it holds to STATE_SCHEMA (and its limits), else None."""
    if not isinstance(answer, dict) or set(answer) != set(STATE_SCHEMA["required"]):
        return None
    active, unresolved = answer["active_entities"], answer["unresolved_references"]
    branch, boundary = answer["current_argument_branch"], answer["boundary"]
    if not isinstance(active, list) or len(active) > MAX_ACTIVE or not isinstance(boundary, bool):
        return None
    if not isinstance(unresolved, list) or not all(isinstance(u, str) for u in unresolved):
        return None
    if branch is not None and not isinstance(branch, str):
        return None
    entities = []
    for item in active:
        if not isinstance(item, dict) or set(item) != {"name", "type"}:
            return None
        name, type_ = item["name"], item["type"]
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            return None
        if type_ not in ENTITY_TYPES:
            return None
        entities.append((name.strip(), type_))
    return {"active": entities, "branch": branch.strip()[:MAX_BRANCH] if branch else None,
            "boundary": boundary}  # fmt: skip


class LlmState:
    """`ShortTermState` whose active entities and branch the LLM returns after each chunk."""

    kind = "llm"

    def __init__(self, outline=()) -> None:
        self.rules = WorkingMemory(outline)
        self.adopted = 0
        self.fallbacks = 0
        self._boundary_next = False

    def begin_chunk(self, section_path: Sequence[str], boundary: bool = False) -> bool:
        boundary, self._boundary_next = boundary or self._boundary_next, False
        return self.rules.begin_chunk(section_path, boundary=boundary)

    def canonical(self, surface: str, type: str) -> ActiveEntity | None:
        return self.rules.canonical(surface, type)

    def remember(self, name: str, type: str, surface: str) -> None:
        self.rules.remember(name, type, surface)

    def refer(self, reference: Reference) -> Reference:
        return self.rules.refer(reference)

    def set_branch(self, claim: str) -> None:
        self.rules.set_branch(claim)

    def view(self) -> StateView:
        return self.rules.view()

    def returned(self, answer) -> bool:
        """Adopt the state the LLM returned after a chunk; False (counted) when it fails the
        schema, and the rules' state stays."""
        checked = state_checked(answer)
        if checked is None:
            self.fallbacks += 1
            return False
        kept = {(e.name, e.type): e for e in self.rules.active}
        active = []
        for name, type_ in dict.fromkeys(checked["active"]):
            entity = kept.get((name, type_)) or ActiveEntity(name, type_, [name], 1.0)
            active.append(entity)
        self.rules.active = active
        if checked["branch"] is not None:
            self.rules.branch = checked["branch"]
        self._boundary_next = checked["boundary"]
        self.adopted += 1
        return True
