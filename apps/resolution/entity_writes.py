"""Resolve entity and relation candidates and write the outcome, inside the caller's transaction.

The caller (the ingestion pipeline, the facts API) opens `cypher.write_unit`, writes its Chunk,
and calls `do_resolve_and_write` in the same transaction, so a chunk's changes commit together.
"""

from __future__ import annotations

import json

from apps.graph.cypher import ScopedTx
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.nodes import ENTITY_TYPES
from apps.graph.ordered_uids import ordered_uid
from apps.resolution.auto_merges import auto_merge_record
from apps.resolution.blocking_keys import MAX_KEYS, blocking_keys
from apps.resolution.candidate_groups import (
    CandidateGroup,
    candidates_grouped,
    group_receipts,
    sources_merged,
    surface_names,
)
from apps.resolution.candidates import (
    EntityCandidate,
    Provenance,
    Receipt,
    RelationCandidate,
)
from apps.resolution.comparisons.person_names import parse_kept
from apps.resolution.decision_receipts import decision_receipt, weights_of
from apps.resolution.entity_values import (
    MAX_ABSORBED_DESCRIPTIONS,
    values_dump,
    values_load,
    values_merged,
)
from apps.resolution.gate import (
    Decision,
    candidates_embed,
    claim_and_matches,
    gate_decide,
    proposals_score,
)
from apps.resolution.mention_writes import do_mentions_write
from apps.resolution.pair_reasons import pair_reason
from apps.resolution.relation_writes import do_relations_write
from apps.resolution.text_evidence import candidates_with_text_values

ENTITY_CREATE = """
MATCH (k:EntityKey {tenant: $tenant, type: $type, norm: $norm})
CREATE (e:Entity {uid: $uid, tenant: $tenant, name: $name, norm_name: $norm, type: $type,
                  aliases: $aliases, norm_aliases: $norm_aliases, description: $description,
                  name_keys: $name_keys, name_parsed: $name_parsed, values_json: $values_json,
                  value_sources_json: $value_sources_json, type_guessed: $type_guessed,
                  status: 'active', created_by: $agent,
                  created_at: datetime(), recorded_at: datetime(), updated_at: datetime()})
WITH k, e
// Vectors are stored as float32 arrays (half of Cypher's float64 lists).
CALL (e) {
  WITH e WHERE size($embedding) > 0
  CALL db.create.setNodeVectorProperty(e, 'embedding', $embedding)
}
CALL (e) {
  WITH e WHERE $description_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'description_embedding', $description_embedding)
}
WITH k, e
OPTIONAL MATCH (k)-[stale:KEY_OF]->()
DELETE stale
MERGE (k)-[:KEY_OF]->(e)
WITH e
CALL (e) {
  UNWIND $proposals AS p
  MATCH (found:Entity {tenant: $tenant, uid: p.uid}) USING INDEX SEEK found:Entity(uid)
  SET found._lock = true
  REMOVE found._lock
  WITH p, found
  OPTIONAL MATCH (found)-[:MERGED_INTO*1..8]->(survivor:Entity {tenant: $tenant, status: 'active'})
  WITH p, head(collect(coalesce(survivor, found))) AS m
  WHERE m <> e
  MERGE (e)-[s:SAME_AS]->(m)
  ON CREATE SET s.uid = p.same_as_uid, s.tenant = $tenant, s.status = 'pending',
                s.score = p.score, s.signals = p.signals, s.evidence = p.evidence,
                s.reason = p.reason, s.agent = $agent,
                s.created_at = datetime()
  RETURN count(s) AS proposed
}
RETURN e.uid AS uid
"""

# The SET on updated_at takes the entity's write lock before its aliases are read, so two
# transactions merging into the same entity cannot lose each other's aliases. A reviewer may have
# merged the gate's match away since the gate read it: once locked, a tombstone is followed to
# its survivor, so nothing is written to a merged entity.
ENTITY_ABSORB = """
MATCH (found:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK found:Entity(uid)
SET found._lock = true
REMOVE found._lock
WITH found
OPTIONAL MATCH (found)-[:MERGED_INTO*1..8]->(survivor:Entity {tenant: $tenant, status: 'active'})
WITH coalesce(survivor, found) AS e LIMIT 1
SET e.updated_at = datetime()
WITH e
MATCH (k:EntityKey {tenant: $tenant, type: $type, norm: $norm})
OPTIONAL MATCH (k)-[stale:KEY_OF]->(other) WHERE other <> e
DELETE stale
MERGE (k)-[:KEY_OF]->(e)
WITH DISTINCT e
WITH e, [p IN $names WHERE p.norm <> e.norm_name
                       AND NOT p.norm IN coalesce(e.norm_aliases, [])] AS fresh,
     coalesce(e.description, '') = '' AND $description <> '' AS fills_description,
     e {.norm_name, .norm_aliases, .description, .values_json, .value_conflicts_json,
        .absorbed_descriptions} AS before
WITH e, fresh, fills_description, before, fills_description OR e.embedding IS NULL AS fills_embedding
// A different description from another source is kept in a list beside the entity's own.
SET e.absorbed_descriptions = CASE
      WHEN fills_description OR $description = '' OR $description = e.description
        OR $description IN coalesce(e.absorbed_descriptions, [])
        OR size(coalesce(e.absorbed_descriptions, [])) >= $max_descriptions
      THEN e.absorbed_descriptions
      ELSE coalesce(e.absorbed_descriptions, []) + [$description] END,
    e.aliases = coalesce(e.aliases, []) + [p IN fresh | p.surface],
    e.name_keys = (coalesce(e.name_keys, [])
                   + [k IN $name_keys WHERE NOT k IN coalesce(e.name_keys, [])])[..$max_keys],
    e.norm_aliases = coalesce(e.norm_aliases, []) + [p IN fresh | p.norm],
    e.description = CASE WHEN fills_description THEN $description ELSE e.description END,
    e.description_embedding = CASE WHEN fills_description AND $description_embedding IS NULL
                                   THEN null ELSE e.description_embedding END,
    e.last_agent = $agent
WITH e, fresh, fills_description, fills_embedding, before
// Vectors are stored as float32 arrays (half of Cypher's float64 lists).
CALL (e, fills_embedding) {
  WITH e WHERE fills_embedding AND size($embedding) > 0
  CALL db.create.setNodeVectorProperty(e, 'embedding', $embedding)
}
CALL (e, fills_description) {
  WITH e WHERE fills_description AND $description_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'description_embedding', $description_embedding)
}
// The gate's own merge leaves a record, so a later model can call it suspect (auto_merges).
CALL (e, fresh, fills_description, before) {
  WITH * WHERE $auto_merge IS NOT NULL
  CREATE (am:AutoMerge)
  SET am = $auto_merge, am.tenant = $tenant, am.entity_uid = e.uid, am.entity_name = e.name,
      am.status = 'done', am.created_at = datetime(), am.filled_description = fills_description,
      am.absorbed_aliases = [p IN fresh | p.surface], am.absorbed_norm_aliases = [p IN fresh | p.norm],
      am.absorbed_description = CASE
        WHEN NOT fills_description AND $description <> ''
          AND $description IN coalesce(e.absorbed_descriptions, [])
          AND NOT $description IN coalesce(before.absorbed_descriptions, [])
        THEN $description ELSE null END,
      am.before_norm_name = before.norm_name, am.before_norm_aliases = before.norm_aliases,
      am.before_description = before.description, am.before_values_json = before.values_json,
      am.before_conflicts_json = before.value_conflicts_json
}
RETURN e.uid AS uid, size(fresh) > 0 OR fills_description AS changed,
       e.values_json AS values_json, e.value_conflicts_json AS conflicts_json,
       e.value_sources_json AS sources_json
"""

# Only after ENTITY_ABSORB in the same transaction: the entity is write-locked, so the values
# read there are still its values.
VALUES_WRITE = """
MATCH (e:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK e:Entity(uid)
SET e.values_json = $values_json, e.value_conflicts_json = $conflicts_json,
    e.value_sources_json = $sources_json
"""


def do_resolve_and_write(
    stx: ScopedTx,
    *,
    entities: list[EntityCandidate],
    relations: list[RelationCandidate],
    provenance: Provenance,
    text: str = "",
) -> list[Receipt]:
    """Resolve each entity candidate through the gate and write merges, pending pairs and new
    entities, then MENTIONS from `provenance.chunk_uid` and RELATED_TO upserts; one receipt per
    candidate, entities first, in input order. Assumes the caller validated sizes and runs it
    inside one `cypher.write_unit`; candidates should come embedded (`candidates_embed`).
    The candidates learn the values their descriptions and `text` (the chunk's) give them
    (text_evidence); their context is the caller's to give (`candidates_with_context`)."""
    merge_at = float(stx.scope.setting("merge_threshold"))
    review_at = float(stx.scope.setting("review_threshold"))
    if any(c.embedding is None and c.type in ENTITY_TYPES for c in entities):
        entities = candidates_embed(entities)
    entities = candidates_with_text_values(entities, text, source=_source(provenance))
    receipts, groups = candidates_grouped(entities)
    entity_of: dict[int, str] = {}
    auto_merges: dict[str, str] = {}  # entity uid -> the gate's AutoMerge that named it here
    merged_by: dict[int, str] = {}  # candidate index -> that AutoMerge
    # Keys are claimed in a fixed order so concurrent transactions lock them alike (no deadlock
    # cycles between two documents naming the same entities).
    for key in sorted(groups):
        group = groups[key]
        receipt, auto_merge = _resolve_one(stx, group, provenance, merge_at=merge_at,
                                           review_at=review_at)  # fmt: skip
        auto_merges.update({receipt.entity_uid: auto_merge} if auto_merge else {})
        merged_by.update(dict.fromkeys(group.members, auto_merge) if auto_merge else {})
        group_receipts(entities, group, receipt, receipts, entity_of)
    if provenance.chunk_uid:
        do_mentions_write(stx, groups.values(), entity_of, provenance.chunk_uid, auto_merges)
    relation_receipts = do_relations_write(
        stx, relations=relations, entities=entities, entity_of=entity_of, provenance=provenance,
        auto_merged=merged_by,
    )  # fmt: skip
    do_graph_version_bump(stx)  # kept whole-graph answers see this write
    return [r for r in receipts if r is not None] + relation_receipts


def _source(provenance: Provenance) -> str:
    """Where a learned value was read: the chunk, else the document, else the description."""
    return provenance.chunk_uid or provenance.document_uid or "description"


def _resolve_one(
    stx: ScopedTx,
    group: CandidateGroup,
    provenance: Provenance,
    *,
    merge_at: float,
    review_at: float,
) -> tuple[Receipt, str | None]:
    """The candidate's receipt, and the uid of the gate's AutoMerge record if it made one."""
    candidate = group.candidate
    claim, matches = claim_and_matches(stx, candidate, group.norm, source=provenance)
    proposals = proposals_score(stx, candidate, claim, matches)
    decision = gate_decide(proposals, merge_at=merge_at, review_at=review_at,
                           seen_here=claim.seen_here)  # fmt: skip
    auto_merge = None
    if decision.action == "merge":
        # A source naming its own entity again (seen_here) is no decision of the model.
        if decision.match.uid != claim.seen_here:
            auto_merge = auto_merge_record(candidate, group.norm, decision, claim, provenance)
        changed, uid = _absorb(stx, candidate, group.norm, decision.match.uid, provenance,
                               auto_merge=auto_merge)  # fmt: skip
        action = "merged" if changed else "unchanged"
    else:
        uid = _create(stx, candidate, group.norm, decision, provenance)
        action = "pending" if decision.action == "pending" else "created"
    return decision_receipt(candidate, decision, uid, action), (auto_merge or {}).get("uid")


def _create(
    stx: ScopedTx, candidate: EntityCandidate, norm: str, decision: Decision, prov: Provenance
) -> str:
    aliases = surface_names(candidate, exclude=norm)
    pending = decision.proposals if decision.action == "pending" else ()
    rows = stx.run(
        ENTITY_CREATE,
        uid=ordered_uid(),
        type=candidate.type,
        norm=norm,
        name=candidate.name,
        aliases=[a["surface"] for a in aliases],
        norm_aliases=[a["norm"] for a in aliases],
        description=candidate.description,
        embedding=list(candidate.embedding or ()),
        description_embedding=described_vector(candidate),
        values_json=values_dump(candidate.values),
        value_sources_json=values_dump(candidate.value_sources),
        type_guessed=candidate.type_guessed,
        name_keys=blocking_keys(candidate.type, candidate.names, candidate.values),
        name_parsed=parse_kept(candidate.type, candidate.name),
        agent=prov.agent,
        proposals=[
            {
                "uid": p.match.uid,
                "same_as_uid": ordered_uid(),
                "score": round(p.probability, 6),
                "signals": json.dumps(weights_of(p)),
                # Each comparison's level and weight: the review page's words, and what the
                # tenant's model learns from when a reviewer decides the pair.
                "evidence": json.dumps(p.scored.as_dict()["parts"]),
                "reason": pair_reason(decision, i),
            }
            for i, p in enumerate(pending)
        ],
    )
    return rows[0]["uid"]


def _absorb(
    stx: ScopedTx, candidate: EntityCandidate, norm: str, uid: str, prov: Provenance,
    *, auto_merge: dict | None = None,
):  # fmt: skip
    rows = stx.run(
        ENTITY_ABSORB,
        uid=uid,
        type=candidate.type,
        norm=norm,
        names=surface_names(candidate),
        description=candidate.description,
        embedding=list(candidate.embedding or ()),
        description_embedding=described_vector(candidate),
        agent=prov.agent,
        max_descriptions=MAX_ABSORBED_DESCRIPTIONS,
        name_keys=blocking_keys(candidate.type, candidate.names, candidate.values),
        max_keys=2 * MAX_KEYS,
        auto_merge=auto_merge,
    )
    if not rows:  # no key claimed for this name: nothing was written
        return False, uid
    row = rows[0]
    changed = bool(row["changed"])
    if candidate.values:
        kept, conflicts = values_load(row["values_json"]), values_load(row["conflicts_json"])
        merged, others = values_merged(kept, conflicts, candidate.values)
        if (merged, others) != (kept, conflicts):
            sources = sources_merged(values_load(row["sources_json"]), merged, candidate)
            stx.run(VALUES_WRITE, uid=row["uid"], values_json=values_dump(merged),
                    conflicts_json=values_dump(others), sources_json=values_dump(sources))  # fmt: skip
            changed = True
    return changed, row["uid"]


def described_vector(candidate: EntityCandidate) -> list[float] | None:
    vector = candidate.description_embedding
    return list(vector) if vector and candidate.description else None
