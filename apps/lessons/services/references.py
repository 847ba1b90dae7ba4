"""References: how entries, handoffs and lessons point at what exists, without copying it.

A reference is `{"kind": ..., "id": ...}` with the id the API shows for that thing: the uid of an
entry, an episode or an entity, the key of a lesson, `key#version` of a playbook. Every reference is
checked against the graph inside the transaction that writes the edge, so nothing points at air.
"""

from __future__ import annotations

import json
import re
from typing import Any

from apps.graph.cypher import ScopedTx
from memoryproject.api_errors import ApplicationError
from memoryproject.json_values import FREE_FORM, validate_json_object

REF_KINDS = ("entry", "episode", "entity", "lesson", "playbook")
MAX_REFS = 100
MAX_ID_CHARS = 200
PLAYBOOK_VERSION = re.compile(r"^[0-9]{1,9}$")  # ASCII digits: isdigit() takes "²" too
KEY_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,119}$")

# One query for every kind; each branch uses its label's uid/key index.
FIND = """
UNWIND $refs AS ref
CALL {
  WITH ref
  MATCH (n:Entry {tenant: $tenant, uid: ref.id}) WHERE ref.kind = 'entry'
  RETURN n
  UNION
  WITH ref
  MATCH (n:Episode {tenant: $tenant, uid: ref.id}) WHERE ref.kind = 'episode'
  RETURN n
  UNION
  WITH ref
  MATCH (n:Entity {tenant: $tenant, uid: ref.id}) WHERE ref.kind = 'entity' AND n.status = 'active'
  RETURN n
  UNION
  WITH ref
  MATCH (n:Lesson {tenant: $tenant, key: ref.id}) WHERE ref.kind = 'lesson'
  RETURN n
  UNION
  WITH ref
  MATCH (n:PlaybookVersion {tenant: $tenant, key: ref.key, version: ref.version})
  WHERE ref.kind = 'playbook'
  RETURN n
}
RETURN ref.kind AS kind, ref.id AS id, n.uid AS uid
"""


def validate_key(value: Any, *, field: str) -> str:
    if not isinstance(value, str) or not KEY_PATTERN.match(value):
        raise ApplicationError(
            f"{field} must be 1-120 letters, digits or _.:- characters.", field=field, limit=120
        )
    return value


def validate_references(refs: Any, *, field: str, kinds: tuple[str, ...] = REF_KINDS) -> list[dict]:
    """Shape only: a list of {kind, id} of the allowed kinds, deduplicated, in order."""
    if not isinstance(refs, list):
        raise ApplicationError(f"{field} must be a list of references.", field=field)
    if len(refs) > MAX_REFS:
        raise ApplicationError(f"At most {MAX_REFS} references.", field=field, limit=MAX_REFS)
    seen: dict[tuple[str, str], dict] = {}
    for ref in refs:
        if not isinstance(ref, dict) or set(ref) != {"kind", "id"}:
            raise ApplicationError(f"Each of {field} is {{kind, id}}.", field=field)
        kind, ident = ref["kind"], ref["id"]
        if kind not in kinds:
            raise ApplicationError(f"{field}: kind must be one of {list(kinds)}.", field=field)
        if not isinstance(ident, str) or not 0 < len(ident) <= MAX_ID_CHARS:
            raise ApplicationError(f"{field}: id must be a string.", field=field, limit=200)
        item = {"kind": kind, "id": ident, "key": ident, "version": 0}
        if kind == "playbook":
            key, _, version = ident.rpartition("#")
            if not key or not PLAYBOOK_VERSION.match(version):
                raise ApplicationError(f"{field}: a playbook is named key#version.", field=field)
            item.update(key=key, version=int(version))
        seen.setdefault((kind, ident), item)
    return list(seen.values())


def find_references(stx: ScopedTx, refs: list[dict], *, field: str) -> list[dict]:
    """The graph uid of each reference; refuses (nothing written) when one does not exist."""
    if not refs:
        return []
    found = {(r["kind"], r["id"]): r["uid"] for r in stx.run(FIND, refs=refs)}
    missing = [f"{r['kind']}:{r['id']}" for r in refs if (r["kind"], r["id"]) not in found]
    if missing:
        raise ApplicationError(
            f"{field} names what does not exist: {', '.join(missing[:10])}.",
            code="missing_reference",
            field=field,
        )
    return [{"kind": r["kind"], "id": r["id"], "uid": found[(r["kind"], r["id"])]} for r in refs]


def validate_values(values: Any, *, field: str = "values") -> str:
    """A free-form JSON object of bounded size, stored as text (an entry's values never change)."""
    if values is None:
        values = {}
    validate_json_object(values, field=field, limits=FREE_FORM)
    return json.dumps(values, sort_keys=True, ensure_ascii=False)
