"""RELATED_TO upserts keyed by (subject, object, predicate), with seed 002's contract:
weight + 1 per independent observation, confidence the running average of old and new
((old + new) / 2), nuance the latest; a chunk (or, without one, a document) observed again
changes nothing, so a replayed ingestion leaves the weights as they were."""

from __future__ import annotations

import uuid

from apps.graph.cypher import ScopedTx
from apps.resolution.candidates import EntityCandidate, Provenance, Receipt, RelationCandidate

MAX_PREDICATE_CHARS = 100
MAX_NUANCE_CHARS = 2000

# Both ends are written (updated_at) before the MERGE, so concurrent upserts of the same edge
# queue on the node locks: no duplicate edge, no lost weight.
RELATIONS_UPSERT = """
UNWIND $relations AS rel
MATCH (s:Entity {tenant: $tenant, uid: rel.subject}) USING INDEX SEEK s:Entity(uid)
MATCH (o:Entity {tenant: $tenant, uid: rel.object}) USING INDEX SEEK o:Entity(uid)
SET s.updated_at = datetime(), o.updated_at = datetime()
// When the fact became true: its own time, else its document's date (apps.timeline), else now.
WITH rel, s, o, coalesce(rel.valid_from, COLLECT {
  MATCH (d:Document {tenant: $tenant, uid: rel.document}) RETURN d.date }[0]) AS since
MERGE (s)-[r:RELATED_TO {predicate: rel.predicate}]->(o)
ON CREATE SET r.uid = rel.uid, r.tenant = $tenant, r.weight = 0, r.confidence = rel.confidence,
              r.observations = [], r.chunks = [], r.first_seen = datetime(),
              r.valid_from = coalesce(since, datetime()), r.by = rel.by,
              r.recorded_at = datetime()
WITH r, rel, s, o, since, r.weight = 0 AS created,
     rel.observation IS NULL OR NOT rel.observation IN r.observations AS fresh
// An earlier time than the edge's start moves the start back, and both ends existed by then.
SET r.valid_from = CASE WHEN fresh AND since < r.valid_from THEN since ELSE r.valid_from END,
    s.created_at = CASE WHEN since < s.created_at THEN since ELSE s.created_at END,
    o.created_at = CASE WHEN since < o.created_at THEN since ELSE o.created_at END
WITH r, rel, created, fresh
SET r.confidence = CASE WHEN NOT fresh THEN r.confidence WHEN created THEN rel.confidence
                        ELSE (r.confidence + rel.confidence) / 2.0 END,
    r.nuance = CASE WHEN fresh THEN rel.nuance ELSE r.nuance END,
    r.last_seen = CASE WHEN fresh THEN datetime() ELSE r.last_seen END,
    r.observations = r.observations
        + CASE WHEN fresh AND rel.observation IS NOT NULL THEN [rel.observation] ELSE [] END,
    r.chunks = r.chunks
        + CASE WHEN fresh AND rel.chunk IS NOT NULL THEN [rel.chunk] ELSE [] END,
    // '<AutoMerge uid>|<observation>' per end the gate merged on its own in this write: undoing
    // that merge moves this observation to the restored entity (review.merged_relations).
    r.via = CASE WHEN fresh AND rel.observation IS NOT NULL AND size(rel.via) > 0
                 THEN coalesce(r.via, []) + [v IN rel.via | v + '|' + rel.observation]
                 ELSE r.via END,
    r.weight = r.weight + CASE WHEN fresh THEN 1 ELSE 0 END
WITH rel, r, created, fresh
// A predicate some kind declares one-at-a-time (apps.timeline): the subject's other open target
// closes where this one starts, and this one closes where a later other target starts.
CALL (rel, r) {
  MATCH (k:Kind {tenant: $tenant}) WHERE rel.predicate IN k.one_relations AND r.valid_to IS NULL
  WITH DISTINCT rel, r
  MATCH (subject:Entity {tenant: $tenant, uid: rel.subject})
        -[old:RELATED_TO {predicate: rel.predicate}]->(o)
  USING INDEX SEEK subject:Entity(uid)
  WHERE 'Entity' IN labels(o) AND o.uid <> rel.object AND old.valid_to IS NULL AND old.valid_from < r.valid_from
  SET old.valid_to = r.valid_from
}
CALL (rel, r) {
  MATCH (k:Kind {tenant: $tenant}) WHERE rel.predicate IN k.one_relations
  WITH DISTINCT rel, r
  MATCH (subject:Entity {tenant: $tenant, uid: rel.subject})
        -[later:RELATED_TO {predicate: rel.predicate}]->(o)
  USING INDEX SEEK subject:Entity(uid)
  WHERE 'Entity' IN labels(o) AND o.uid <> rel.object AND later.valid_from > r.valid_from
  WITH r, min(later.valid_from) AS until
  SET r.valid_to = CASE WHEN r.valid_to IS NULL OR until < r.valid_to THEN until ELSE r.valid_to END
}
RETURN rel.index AS index, r.uid AS uid, created, fresh, r.weight AS weight,
       r.confidence AS confidence
"""


def do_relations_write(
    stx: ScopedTx,
    *,
    relations: list[RelationCandidate],
    entities: list[EntityCandidate],
    entity_of: dict[int, str],
    provenance: Provenance,
    auto_merged: dict[int, str] | None = None,
) -> list[Receipt]:
    """Upsert the relations whose two ends resolved to two entities; a receipt for each
    (its `entity_uid` is the relation's uid, `score` its confidence after the upsert).
    `auto_merged`: entity candidate index -> the AutoMerge of the gate's merge that resolved it
    (recorded on the edge with the observation, so undoing the merge takes it back)."""
    batch = (relations, entities, entity_of, provenance)
    return do_relations_write_many(stx, [batch], auto_merged=[auto_merged or {}])[0]


def do_relations_write_many(
    stx: ScopedTx, batches: list[tuple], *, auto_merged: list[dict[int, str]] | None = None
) -> list[list[Receipt]]:
    """`do_relations_write` for several (relations, entities, entity_of, provenance) batches,
    in one query: rows run in order, so a fact two batches observe counts twice, as it does
    written batch after batch. `auto_merged`, one per batch: see do_relations_write."""
    merged = auto_merged or [{} for _ in batches]
    plans = [_plan(b, *batch, merged[b]) for b, batch in enumerate(batches)]
    rows = [row for _, _, plan_rows in plans for row in plan_rows]
    results = {}
    if rows:
        results = {r["index"]: r for r in stx.run(RELATIONS_UPSERT, relations=rows)}
    out = []
    for b, ((relations, entities, _, _), (receipts, by_key, _)) in enumerate(
        zip(batches, plans, strict=True)
    ):
        for members in by_key.values():
            result = results.get(f"{b}:{members[0]}")
            for i in members:
                name = _name(relations[i], entities)
                receipts[i] = _receipt(relations[i], name, result, i, members)
        out.append([r for r in receipts if r is not None])
    return out


def _plan(batch: int, relations, entities, entity_of, provenance: Provenance, auto_merged):
    """Refused relations' receipts, the others grouped by (subject, object, predicate), and
    one upsert row per group."""
    observation = provenance.chunk_uid or provenance.document_uid
    receipts: list[Receipt | None] = [None] * len(relations)
    by_key: dict[tuple[str, str, str], list[int]] = {}
    for i, rel in enumerate(relations):
        refusal = _refusal(rel, entities, entity_of)
        if refusal:
            receipts[i] = Receipt(kind="relation", name=_name(rel, entities), action="refused",
                                  reason=refusal)  # fmt: skip
            continue
        key = (entity_of[rel.subject], entity_of[rel.object], rel.predicate.strip())
        by_key.setdefault(key, []).append(i)
    rows = []
    for (subject, obj, predicate), members in by_key.items():
        # The same fact twice in one call is one observation: confidences averaged, last nuance.
        confidence = sum(_confidence(relations[i]) for i in members) / len(members)
        ends = [end for i in members for end in (relations[i].subject, relations[i].object)]
        via = list(dict.fromkeys(auto_merged[end] for end in ends if end in auto_merged))
        rows.append({
            "via": via,
            "index": f"{batch}:{members[0]}", "subject": subject, "object": obj,
            "predicate": predicate, "confidence": confidence,
            "nuance": relations[members[-1]].nuance[:MAX_NUANCE_CHARS],
            "observation": observation, "chunk": provenance.chunk_uid, "uid": uuid.uuid4().hex,
            "valid_from": relations[members[0]].valid_from, "by": provenance.agent,
            "document": provenance.document_uid,
        })  # fmt: skip
    return receipts, by_key, rows


def _confidence(rel: RelationCandidate) -> float:
    return max(0.0, min(1.0, float(rel.confidence)))


def _name(rel: RelationCandidate, entities: list[EntityCandidate]) -> str:
    def end(i: int) -> str:
        return entities[i].name if 0 <= i < len(entities) else f"#{i}"

    return f"{end(rel.subject)} {rel.predicate[:MAX_PREDICATE_CHARS]} {end(rel.object)}"


def _refusal(rel: RelationCandidate, entities, entity_of: dict[int, str]) -> str:
    for end in (rel.subject, rel.object):
        if not 0 <= end < len(entities):
            return f"entity #{end} is not in this request ({len(entities)} entities)"
        if end not in entity_of:
            return f"entity #{end} ('{entities[end].name[:80]}') was refused"
    if not rel.predicate.strip() or len(rel.predicate) > MAX_PREDICATE_CHARS:
        return f"the predicate must have 1 to {MAX_PREDICATE_CHARS} characters"
    if entity_of[rel.subject] == entity_of[rel.object]:
        return "subject and object resolve to the same entity"
    return ""


def _receipt(rel, name: str, result: dict | None, i: int, members: list[int]) -> Receipt:
    if result is None:
        return Receipt(kind="relation", name=name, action="refused",
                       reason="an end of the relation is not in the graph")  # fmt: skip
    if i != members[0]:
        action, reason = "unchanged", f"same relation as #{members[0]} of this call"
    elif result["created"] and result["fresh"]:
        action, reason = "created", "new relation"
    elif result["fresh"]:
        action, reason = "merged", f"observed again: weight {result['weight']}"
    else:
        action, reason = "unchanged", "already observed from this chunk"
    return Receipt(
        kind="relation", name=name, action=action, entity_uid=result["uid"],
        score=round(result["confidence"], 4), reason=reason,
    )  # fmt: skip
