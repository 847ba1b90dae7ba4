"""Resolve a window's entity candidates and write the outcome in a few queries, inside the
caller's transaction: the window's names claimed and looked up at once (`gate_batch`), each
decided by the same rule as `entity_writes.do_resolve_and_write`, then every new entity created
in one query and every merge absorbed in one query (and the values they bring in one more).

Same writes as the per-name path: ENTITY_CREATE and ENTITY_ABSORB per row (see entity_writes
for why they lock what they lock); rows run in the window's sorted key order."""

from __future__ import annotations

import json

from apps.graph.cypher import ScopedTx
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.ordered_uids import ordered_uid
from apps.resolution.auto_merges import auto_merge_record
from apps.resolution.blocking_keys import MAX_KEYS, blocking_keys
from apps.resolution.candidate_groups import (
    candidates_grouped,
    group_receipts,
    sources_merged,
    surface_names,
)
from apps.resolution.candidates import EntityCandidate, Provenance, Receipt
from apps.resolution.comparisons.person_names import parse_kept
from apps.resolution.decision_receipts import decision_receipt, weights_of
from apps.resolution.entity_values import (
    MAX_ABSORBED_DESCRIPTIONS,
    values_dump,
    values_load,
    values_merged,
)
from apps.resolution.entity_writes import described_vector
from apps.resolution.gate_batch import window_decide
from apps.resolution.pair_reasons import pair_reason
from apps.resolution.text_evidence import candidates_with_text_values

ENTITIES_CREATE = """
UNWIND $rows AS row
MATCH (k:EntityKey {tenant: $tenant, type: row.type, norm: row.norm})
USING INDEX SEEK k:EntityKey(tenant, type, norm)
CREATE (e:Entity {uid: row.uid, tenant: $tenant, name: row.name, norm_name: row.norm,
                  type: row.type, aliases: row.aliases, norm_aliases: row.norm_aliases,
                  description: row.description, name_keys: row.name_keys,
                  name_parsed: row.name_parsed, type_guessed: row.type_guessed,
                  values_json: row.values_json, value_sources_json: row.value_sources_json,
                  status: 'active', created_by: $agent,
                  created_at: datetime(), updated_at: datetime()})
WITH row, k, e
CALL (row, e) {
  WITH e WHERE size(row.embedding) > 0
  CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
}
CALL (row, e) {
  WITH e WHERE row.description_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'description_embedding', row.description_embedding)
}
CALL (k, e) {
  OPTIONAL MATCH (k)-[stale:KEY_OF]->()
  DELETE stale
  MERGE (k)-[:KEY_OF]->(e)
}
CALL (row, e) {
  UNWIND row.proposals AS p
  MATCH (found:Entity {tenant: $tenant, uid: p.uid}) USING INDEX SEEK found:Entity(uid)
  SET found._lock = true
  REMOVE found._lock
  WITH p, found
  OPTIONAL MATCH (found)-[:MERGED_INTO*1..8]->(survivor)
  WHERE 'Entity' IN labels(survivor) AND survivor.tenant = $tenant AND survivor.status = 'active'
  WITH p, head(collect(coalesce(survivor, found))) AS m
  WHERE m <> e
  MERGE (e)-[s:SAME_AS]->(m)
  ON CREATE SET s.uid = p.same_as_uid, s.tenant = $tenant, s.status = 'pending',
                s.score = p.score, s.signals = p.signals, s.evidence = p.evidence,
                s.reason = p.reason, s.agent = $agent,
                s.created_at = datetime()
  RETURN count(s) AS proposed
}
RETURN row.index AS index, e.uid AS uid
"""

ENTITIES_ABSORB = """
UNWIND $rows AS row
CALL (row) {
  MATCH (found:Entity {tenant: $tenant, uid: row.uid}) USING INDEX SEEK found:Entity(uid)
  SET found._lock = true
  REMOVE found._lock
  WITH found
  OPTIONAL MATCH (found)-[:MERGED_INTO*1..8]->(survivor)
  WHERE 'Entity' IN labels(survivor) AND survivor.tenant = $tenant AND survivor.status = 'active'
  RETURN coalesce(survivor, found) AS e LIMIT 1
}
SET e.updated_at = datetime()
WITH row, e
CALL (row, e) {
  MATCH (k:EntityKey {tenant: $tenant, type: row.type, norm: row.norm})
  USING INDEX SEEK k:EntityKey(tenant, type, norm)
  OPTIONAL MATCH (k)-[stale:KEY_OF]->(other) WHERE other <> e
  DELETE stale
  MERGE (k)-[:KEY_OF]->(e)
}
WITH row, e, [p IN row.names WHERE p.norm <> e.norm_name
                       AND NOT p.norm IN coalesce(e.norm_aliases, [])] AS fresh,
     coalesce(e.description, '') = '' AND row.description <> '' AS fills_description,
     e {.norm_name, .norm_aliases, .description, .values_json, .value_conflicts_json,
        .absorbed_descriptions} AS before
WITH row, e, fresh, fills_description, before,
     fills_description OR e.embedding IS NULL AS fills_embedding
SET e.absorbed_descriptions = CASE
      WHEN fills_description OR row.description = '' OR row.description = e.description
        OR row.description IN coalesce(e.absorbed_descriptions, [])
        OR size(coalesce(e.absorbed_descriptions, [])) >= $max_descriptions
      THEN e.absorbed_descriptions
      ELSE coalesce(e.absorbed_descriptions, []) + [row.description] END,
    e.aliases = coalesce(e.aliases, []) + [p IN fresh | p.surface],
    e.name_keys = (coalesce(e.name_keys, [])
                   + [k IN row.name_keys WHERE NOT k IN coalesce(e.name_keys, [])])[..$max_keys],
    e.norm_aliases = coalesce(e.norm_aliases, []) + [p IN fresh | p.norm],
    e.description = CASE WHEN fills_description THEN row.description ELSE e.description END,
    e.description_embedding = CASE WHEN fills_description AND row.description_embedding IS NULL
                                   THEN null ELSE e.description_embedding END,
    e.last_agent = $agent
WITH row, e, fresh, fills_description, fills_embedding, before
CALL (row, e, fills_embedding) {
  WITH e WHERE fills_embedding AND size(row.embedding) > 0
  CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
}
CALL (row, e, fills_description) {
  WITH e WHERE fills_description AND row.description_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'description_embedding', row.description_embedding)
}
// The gate's own merge leaves the record entity_writes.ENTITY_ABSORB leaves (auto_merges).
CALL (row, e, fresh, fills_description, before) {
  WITH * WHERE row.auto_merge IS NOT NULL
  CREATE (am:AutoMerge)
  SET am = row.auto_merge, am.tenant = $tenant, am.entity_uid = e.uid, am.entity_name = e.name,
      am.status = 'done', am.created_at = datetime(), am.filled_description = fills_description,
      am.absorbed_aliases = [p IN fresh | p.surface], am.absorbed_norm_aliases = [p IN fresh | p.norm],
      am.absorbed_description = CASE
        WHEN NOT fills_description AND row.description <> ''
          AND row.description IN coalesce(e.absorbed_descriptions, [])
          AND NOT row.description IN coalesce(before.absorbed_descriptions, [])
        THEN row.description ELSE null END,
      am.before_norm_name = before.norm_name, am.before_norm_aliases = before.norm_aliases,
      am.before_description = before.description, am.before_values_json = before.values_json,
      am.before_conflicts_json = before.value_conflicts_json
}
RETURN row.index AS index, e.uid AS uid, e.type AS type, e.norm_name AS norm,
       coalesce(e.norm_aliases, []) AS norm_aliases,
       size(fresh) > 0 OR fills_description AS changed,
       e.values_json AS values_json, e.value_conflicts_json AS conflicts_json,
       e.value_sources_json AS sources_json
"""

VALUES_WRITE = """
UNWIND $rows AS row
MATCH (e:Entity {tenant: $tenant, uid: row.uid}) USING INDEX SEEK e:Entity(uid)
SET e.values_json = row.values_json, e.value_conflicts_json = row.conflicts_json,
    e.value_sources_json = row.sources_json
"""


def do_window_resolve(
    stx: ScopedTx,
    *,
    entities: list[EntityCandidate],
    provenance: Provenance,
    seen: dict,
    auto_merges: dict[int, str] | None = None,
) -> tuple[list[Receipt], dict[int, str]]:
    """One receipt per candidate (input order) and candidate index -> entity uid, as
    `do_resolve_and_write` gives them; `seen` maps (type, norm) to the entity the document
    already named so, and learns the names this window resolves. Candidates come embedded.
    `auto_merges` learns candidate index -> the AutoMerge record of the gate's merge that
    resolved it (its mentions carry it in `moved_by`, so undoing the merge moves them back)."""
    merge_at = float(stx.scope.setting("merge_threshold"))
    review_at = float(stx.scope.setting("review_threshold"))
    # What each description says (a chunk's sentences were read by the caller, chunk by chunk).
    entities = candidates_with_text_values(
        entities, "", source=provenance.document_uid or "description"
    )
    receipts, groups = candidates_grouped(entities)
    keys = sorted(groups)  # the order concurrent windows lock keys in (no deadlock cycles)
    ordered = [(kind, norm, groups[(kind, norm)].candidate) for kind, norm in keys]
    decisions = window_decide(stx, ordered, seen, merge_at=merge_at, review_at=review_at,
                              created_uid=ordered_uid)  # fmt: skip
    creates, absorbs = [], []
    for i, ((_kind, norm, candidate), (decision, uid, claim)) in enumerate(
        zip(ordered, decisions, strict=True)
    ):
        if decision.action == "merge":
            # A source naming its own entity again (seen_here) is no decision of the model.
            record = None
            if decision.match.uid != claim.seen_here:
                record = auto_merge_record(candidate, norm, decision, claim, provenance)
            absorbs.append(_absorb_row(i, candidate, norm, decision.match.uid, record))
        else:
            creates.append(_create_row(i, candidate, norm, decision, uid))
    agent = provenance.agent
    outcome: dict[int, tuple[str, str]] = {}
    if creates:
        for row in stx.run(ENTITIES_CREATE, rows=creates, agent=agent):
            action = "pending" if decisions[row["index"]][0].action == "pending" else "created"
            outcome[row["index"]] = (row["uid"], action)
        for row in creates:
            for name_norm in (row["norm"], *row["norm_aliases"]):
                seen[(row["type"], name_norm)] = row["uid"]
    if absorbs:
        outcome.update(_absorbed(stx, absorbs, ordered, agent, seen))
    entity_of: dict[int, str] = {}
    for i, key in enumerate(keys):
        uid, action = outcome[i]
        receipt = decision_receipt(ordered[i][2], decisions[i][0], uid, action)
        group_receipts(entities, groups[key], receipt, receipts, entity_of)
    if auto_merges is not None:
        for row in absorbs:
            if row["auto_merge"] is not None:
                auto_merges.update(dict.fromkeys(groups[keys[row["index"]]].members,
                                                 row["auto_merge"]["uid"]))  # fmt: skip
    do_graph_version_bump(stx)  # kept whole-graph answers see this write
    return [r for r in receipts if r is not None], entity_of


def _absorbed(stx, absorbs, ordered, agent, seen) -> dict[int, tuple[str, str]]:
    rows = stx.run(ENTITIES_ABSORB, rows=absorbs, agent=agent,
                   max_descriptions=MAX_ABSORBED_DESCRIPTIONS, max_keys=2 * MAX_KEYS)  # fmt: skip
    outcome = {a["index"]: (a["uid"], "unchanged") for a in absorbs}  # no key: nothing written
    values: dict[str, tuple[dict, dict, dict]] = {}  # entity uid -> values, conflicts, sources
    for row in rows:
        changed = bool(row["changed"])
        candidate = ordered[row["index"]][2]
        if candidate.values:
            kept, conflicts, sources = values.get(row["uid"]) or (
                values_load(row["values_json"]), values_load(row["conflicts_json"]),
                values_load(row["sources_json"]))  # fmt: skip
            merged, others = values_merged(kept, conflicts, candidate.values)
            if (merged, others) != (kept, conflicts):
                values[row["uid"]] = (merged, others, sources_merged(sources, merged, candidate))
                changed = True
        outcome[row["index"]] = (row["uid"], "merged" if changed else "unchanged")
        for name_norm in (row["norm"], *row["norm_aliases"]):
            seen[(row["type"], name_norm)] = row["uid"]
    writes = [{"uid": uid, "values_json": values_dump(kept), "conflicts_json": values_dump(others),
               "sources_json": values_dump(sources)}
              for uid, (kept, others, sources) in values.items()]  # fmt: skip
    if writes:
        stx.run(VALUES_WRITE, rows=writes)
    return outcome


def _create_row(index, candidate: EntityCandidate, norm: str, decision, uid: str) -> dict:
    aliases = surface_names(candidate, exclude=norm)
    pending = decision.proposals if decision.action == "pending" else ()
    return {
        "index": index, "uid": uid, "type": candidate.type, "norm": norm,
        "name": candidate.name, "aliases": [a["surface"] for a in aliases],
        "norm_aliases": [a["norm"] for a in aliases], "description": candidate.description,
        "embedding": list(candidate.embedding or ()),
        "description_embedding": described_vector(candidate),
        "values_json": values_dump(candidate.values),
        "value_sources_json": values_dump(candidate.value_sources),
        "type_guessed": candidate.type_guessed,
        "name_keys": blocking_keys(candidate.type, candidate.names, candidate.values),
        "name_parsed": parse_kept(candidate.type, candidate.name),
        "reason": decision.reason,
        "proposals": [
            {"uid": p.match.uid, "same_as_uid": ordered_uid(),
             "score": round(p.probability, 6), "signals": json.dumps(weights_of(p)),
             "evidence": json.dumps(p.scored.as_dict()["parts"]),
             "reason": pair_reason(decision, i)}
            for i, p in enumerate(pending)
        ],
    }  # fmt: skip


def _absorb_row(index, candidate: EntityCandidate, norm: str, uid: str, auto_merge) -> dict:
    return {
        "index": index, "uid": uid, "type": candidate.type, "norm": norm,
        "names": surface_names(candidate), "auto_merge": auto_merge,
        "description": candidate.description, "embedding": list(candidate.embedding or ()),
        "description_embedding": described_vector(candidate),
        "name_keys": blocking_keys(candidate.type, candidate.names, candidate.values),
    }  # fmt: skip
