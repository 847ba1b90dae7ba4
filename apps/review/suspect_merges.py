"""Suspect merges: automatic merges of the gate that the tenant's current model no longer stands
behind (re-scored by `apps/resolution/auto_merges.py`). A reviewer keeps one (it stays merged and
is never proposed again) or undoes it: the mention's entity comes back on its own, with the
names, description, values and mentions it brought, and the two are recorded NOT_SAME.

The undo reuses the reviewer's unmerge (`unmerges.do_merge_undo`): in one transaction the
mention's side is written as the tombstone and Merge record a reviewer's merge would have left
(the merge's uid is the AutoMerge's, which the mentions it wrote carry in `moved_by`), then the
unmerge restores both. Hence the same rules: a later reviewer's merge into the same entity, or of
that entity into another, must be undone first.
"""

from __future__ import annotations

import json
import uuid

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.resolution.blocking_keys import blocking_keys
from apps.resolution.candidates import EntityCandidate
from apps.resolution.entity_values import values_load, values_rows
from apps.resolution.evidence_words import evidence_rows
from apps.resolution.gate import candidates_embed
from apps.review.merge_records import record_dump
from apps.review.merged_relations import do_merged_relations_back
from apps.review.merges import do_review_lock
from apps.review.not_same import do_not_same_record
from apps.review.unmerges import do_merge_undo
from memoryproject.api_errors import ConflictError, NotFoundError

SUSPECTS = """
MATCH (am:AutoMerge {tenant: $tenant, status: 'suspect'})
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: am.entity_uid}) USING INDEX SEEK e:Entity(uid)
RETURN am.uid AS uid, am.name AS name, am.type AS type, e.uid AS entity_uid,
       e.name AS entity_name, am.probability AS probability,
       am.rescored_probability AS rescored_probability, toString(am.created_at) AS merged_at
ORDER BY am.rescored_probability, am.created_at, am.uid SKIP $offset LIMIT $limit
"""

SUSPECT_COUNT = """
MATCH (am:AutoMerge {tenant: $tenant, status: 'suspect'}) RETURN count(am) AS n
"""

SUSPECT = """
MATCH (am:AutoMerge {tenant: $tenant, uid: $uid}) USING INDEX SEEK am:AutoMerge(uid)
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: am.entity_uid}) USING INDEX SEEK e:Entity(uid)
OPTIONAL MATCH (d:Document {tenant: $tenant, uid: am.document_uid}) USING INDEX SEEK d:Document(uid)
RETURN am {.uid, .status, .name, .type, .aliases, .norm_name, .norm_aliases, .description,
           .values_json, .probability, .evidence, .rescored_probability, .rescored_evidence,
           .model_version, .rescored_version, .reason, .decided_by, .entity_uid,
           .absorbed_aliases, .absorbed_norm_aliases, .filled_description, .absorbed_description,
           .before_norm_name, .before_norm_aliases, .before_description, .before_values_json,
           .before_conflicts_json, .document_uid, .agent,
           merged_at: toString(am.created_at), decided_at: toString(am.decided_at),
           suspected_at: toString(am.suspected_at)} AS am,
       e {.uid, .name, .type, .status, .aliases, .description, .values_json,
          .value_conflicts_json} AS entity,
       d.title AS document_title
"""

SUSPECT_DECIDE = """
MATCH (am:AutoMerge {tenant: $tenant, uid: $uid}) USING INDEX SEEK am:AutoMerge(uid)
SET am.status = $status, am.decided_by = $actor, am.decided_at = datetime(),
    am.restored_uid = $restored_uid
RETURN toString(am.decided_at) AS decided_at
"""

# The mention's side as a reviewer's merge would have left it: a tombstone MERGED_INTO the
# entity and a Merge record (status done, created when the gate merged), for do_merge_undo.
AS_REVIEWED_MERGE = """
MATCH (am:AutoMerge {tenant: $tenant, uid: $uid}) USING INDEX SEEK am:AutoMerge(uid)
MATCH (b:Entity {tenant: $tenant, uid: am.entity_uid}) USING INDEX SEEK b:Entity(uid)
CREATE (a:Entity {uid: $entity_uid, tenant: $tenant, name: am.name, norm_name: am.norm_name,
                  type: am.type, aliases: coalesce(am.aliases, []),
                  norm_aliases: coalesce(am.norm_aliases, []),
                  description: coalesce(am.description, ''), name_keys: $name_keys,
                  values_json: am.values_json, status: 'merged', merged_into: b.uid,
                  created_by: am.agent, created_at: am.created_at, updated_at: datetime()})
CREATE (a)-[:MERGED_INTO {tenant: $tenant, merge_uid: am.uid, created_at: am.created_at}]->(b)
CREATE (m:Merge {uid: am.uid, tenant: $tenant, survivor_uid: b.uid, merged_uid: a.uid,
                 survivor_name: b.name, merged_name: am.name, actor: 'system:gate',
                 status: 'done', kind: 'automatic', score: am.probability, reason: am.reason,
                 record: $record, created_at: am.created_at})
WITH a
CALL (a) {
  WITH a WHERE size($embedding) > 0
  CALL db.create.setNodeVectorProperty(a, 'embedding', $embedding)
}
CALL (a) {
  WITH a WHERE $description_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(a, 'description_embedding', $description_embedding)
}
RETURN a.uid AS uid
"""


def suspect_count(scope: Scope) -> int:
    return cypher.read(scope, SUSPECT_COUNT)[0]["n"]


def suspect_queue(scope: Scope, *, offset: int = 0, limit: int = 50) -> dict:
    """The tenant's suspect merges, least probable now first, with their count."""
    rows = cypher.read(scope, SUSPECTS, offset=offset, limit=limit)
    return {"suspect": suspect_count(scope), "results": rows}


def suspect_detail(scope: Scope, *, uid: str) -> dict | None:
    """One automatic merge: the mention merged in beside the entity it went into, each
    comparison's weight at the merge and under the current model, in words."""
    rows = cypher.read(scope, SUSPECT, uid=uid)
    if not rows or rows[0]["am"] is None:
        return None
    am, entity = rows[0]["am"], rows[0]["entity"] or {}
    then = json.loads(am["evidence"]) if am.get("evidence") else []
    now = json.loads(am["rescored_evidence"]) if am.get("rescored_evidence") else None
    return {
        "uid": am["uid"],
        "status": am["status"],
        "probability": am["probability"],
        "rescored_probability": am["rescored_probability"],
        "model_version": am["model_version"],
        "rescored_version": am["rescored_version"],
        "merged_at": am["merged_at"],
        "suspected_at": am["suspected_at"],
        "decided_by": am["decided_by"],
        "decided_at": am["decided_at"],
        "reason": am["reason"] or "",
        "evidence": evidence_rows(then, {}),
        "rescored_evidence": evidence_rows(now, {}) if now is not None else [],
        "mention": {
            "name": am["name"],
            "type": am["type"],
            "aliases": list(am["aliases"] or []),
            "description": am["description"] or "",
            "values": values_rows(values_load(am["values_json"]), {}),
            "document_uid": am["document_uid"],
            "document_title": rows[0]["document_title"],
        },
        "entity": {
            "uid": entity.get("uid") or am["entity_uid"],
            "name": entity.get("name") or "",
            "status": entity.get("status") or "",
            "aliases": list(entity.get("aliases") or []),
            "description": entity.get("description") or "",
            "values": values_rows(
                values_load(entity.get("values_json")),
                values_load(entity.get("value_conflicts_json")),
            ),  # fmt: skip
        },
    }


def _suspect_locked(stx: ScopedTx, uid: str) -> dict:
    do_review_lock(stx)
    rows = stx.run(SUSPECT, uid=uid)
    if not rows or rows[0]["am"] is None:
        raise NotFoundError("No such suspect merge.")
    am = rows[0]["am"]
    if am["status"] != "suspect":
        by = f" by {am['decided_by']} at {am['decided_at']}" if am["decided_by"] else ""
        raise ConflictError(
            f"This automatic merge is not suspect (it is {am['status']}{by}).",
            extra={"status": am["status"], "decided_by": am["decided_by"],
                   "decided_at": am["decided_at"]},
        )  # fmt: skip
    return {**am, "entity": rows[0]["entity"]}


def do_suspect_keep(stx: ScopedTx, *, uid: str) -> dict:
    """Keep a suspect merge: it stays merged and is never re-scored again."""
    am = _suspect_locked(stx, uid)
    row = stx.run(SUSPECT_DECIDE, uid=uid, status="kept", actor=stx.scope.actor,
                  restored_uid=None)[0]  # fmt: skip
    return {"uid": uid, "status": "kept", "entity_uid": am["entity_uid"], "name": am["name"],
            "entity_name": (am["entity"] or {}).get("name"), "restored_uid": None,
            "decided_at": row["decided_at"]}  # fmt: skip


def suspect_embedded(scope: Scope, *, uid: str) -> EntityCandidate | None:
    """The mention's side as a candidate with its embeddings (computed before the undo's
    transaction, as the gate embeds candidates before its own)."""
    rows = cypher.read(scope, SUSPECT, uid=uid)
    if not rows or rows[0]["am"] is None:
        return None
    am = rows[0]["am"]
    candidate = EntityCandidate(am["name"], am["type"], aliases=tuple(am["aliases"] or ()),
                                description=am["description"] or "",
                                values=values_load(am["values_json"]))  # fmt: skip
    return candidates_embed([candidate])[0]


def do_suspect_undo(stx: ScopedTx, *, uid: str, embedded: EntityCandidate) -> dict:
    """Undo a suspect merge (see the module docstring): the mention's entity is restored with
    what it brought and its mentions, and recorded NOT_SAME with the entity it was merged into.
    Raises ConflictError when it is decided already or later merges built on it."""
    am = _suspect_locked(stx, uid)
    entity = am["entity"] or {}
    if entity.get("status") != "active":
        raise ConflictError("The entity it was merged into is no longer active: undo the "
                            "reviewer's merge of it first.")  # fmt: skip
    restored = uuid.uuid4().hex
    stx.run(
        AS_REVIEWED_MERGE, uid=uid, entity_uid=restored, record=record_dump(_record(am)),
        name_keys=blocking_keys(am["type"], embedded.names, embedded.values),
        embedding=list(embedded.embedding or ()),
        description_embedding=list(embedded.description_embedding)
        if embedded.description_embedding and embedded.description else None,
    )  # fmt: skip
    undone = do_merge_undo(stx, merge_uid=uid)
    relations = do_merged_relations_back(stx, auto_merge_uid=uid, survivor=am["entity_uid"],
                                         restored=restored)  # fmt: skip
    do_not_same_record(stx, left_uid=restored, right_uid=am["entity_uid"],
                       reason="a suspect automatic merge, undone")  # fmt: skip
    row = stx.run(SUSPECT_DECIDE, uid=uid, status="undone", actor=stx.scope.actor,
                  restored_uid=restored)[0]  # fmt: skip
    return {"uid": uid, "status": "undone", "entity_uid": am["entity_uid"], "name": am["name"],
            "entity_name": entity.get("name"), "restored_uid": restored,
            "moved_back": undone["moved_back"], "relations_back": relations,
            "decided_at": row["decided_at"]}  # fmt: skip


def _record(am: dict) -> dict:
    """The Merge record (merges.do_merge_confirm's shape) of what the gate's merge changed."""
    absorbed = [am["absorbed_description"]] if am.get("absorbed_description") else []
    return {
        "merged": {"name": am["name"], "aliases": am["aliases"] or [],
                   "norm_name": am["norm_name"], "norm_aliases": am["norm_aliases"] or [],
                   "description": am["description"] or "", "values_json": am["values_json"],
                   "value_conflicts_json": None, "absorbed_descriptions": []},
        "survivor": {"norm_name": am["before_norm_name"],
                     "norm_aliases": am["before_norm_aliases"] or [],
                     "description": am["before_description"] or "",
                     "values_json": am["before_values_json"],
                     "value_conflicts_json": am["before_conflicts_json"]},
        "absorbed": {"aliases": am["absorbed_aliases"] or [],
                     "norm_aliases": am["absorbed_norm_aliases"] or [],
                     "description": am["description"] if am.get("filled_description") else "",
                     "descriptions": absorbed},
        "dropped": [],
        "combined": [],
        "moved": {"out": 0, "in": 0},
    }  # fmt: skip
