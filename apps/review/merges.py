"""Confirming a pending SAME_AS: the merged entity's every relationship moves to the survivor,
in one transaction, keeping what is needed to undo it exactly (see `unmerges.py`).

Rules: the survivor is the entity the pair was proposed against (the SAME_AS end, which existed
first) unless the caller names the other one. RELATED_TO that both had (same predicate, other end
and direction) combine as ingestion does: weights add, confidence is the average, observations and
chunks unite. Pending SAME_AS with third entities move (A-C becomes B-C) unless B already has a
pending pair or a NOT_SAME with C; identical MENTIONS, NOT_SAME, ABOUT (of an argument) and
IN_COMMUNITY are not doubled; edges between the two are dropped. Every other relationship type
moves as it is. Moved edges carry `moved_by` (a list: merges that moved them, latest last). The
merged entity stays as a tombstone (status 'merged') whose only edge is MERGED_INTO the survivor.
"""

from __future__ import annotations

import uuid

from apps.graph.cypher import ScopedTx
from apps.graph.graph_version import do_graph_version_bump
from apps.resolution.entity_values import (
    MAX_ABSORBED_DESCRIPTIONS,
    values_combined,
    values_dump,
    values_load,
)
from apps.review.merge_records import props_encode, record_dump
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError

REVIEW_LOCK = """
MERGE (l:ReviewLock {lock_key: $tenant})
ON CREATE SET l.uid = randomUUID(), l.tenant = $tenant, l.created_at = datetime()
SET l.locked_at = datetime(), l.decisions = coalesce(l.decisions, 0) + $decides
RETURN l.uid AS uid, l.decisions AS decisions
"""

# Through the pair's uid index: left to itself the planner walked every entity of the tenant.
PAIR_STATE = """
MATCH (a:Entity)-[s:SAME_AS {uid: $uid}]->(b:Entity)
USING INDEX SEEK s:SAME_AS(uid)
WHERE s.tenant = $tenant AND a.tenant = $tenant AND b.tenant = $tenant
RETURN s.status AS status, s.decided_by AS decided_by, toString(s.decided_at) AS decided_at,
       a.uid AS a, b.uid AS b, a.name AS a_name, b.name AS b_name,
       a.status AS a_status, b.status AS b_status, s.score AS score, s.signals AS signals,
       s.evidence AS evidence,
       s.reason AS reason, EXISTS { (a)-[:NOT_SAME]-(b) } AS not_same
LIMIT 1
"""

PAIR_DECIDED_BY_MERGE = """
MATCH (m:Merge {same_as_uid: $uid})
USING INDEX SEEK m:Merge(same_as_uid)
WHERE m.tenant = $tenant
RETURN m.uid AS merge_uid, m.actor AS actor, toString(m.created_at) AS at, m.status AS status
ORDER BY m.created_at DESC LIMIT 1
"""

# Both entities are write-locked before their edges are read: an ingestion writing a mention to
# either commits first and is moved with the rest, or waits and then sees the tombstone.
# One edge of the merged entity `a` (to `o`; `b` is the survivor), as the merge plan reads it.
# The pair page's preview reads the same map and the same survivor collections (selectors'
# PAIR) and hands them to the same `merge_plan`: the preview's counts are the merge's.
MERGED_EDGE = """{id: elementId(r), type: type(r), out: startNode(r) = a, other_id: elementId(o),
        other_uid: o.uid, other_label: labels(o)[0], props: properties(r), to_survivor: o = b}"""

# What both entities hold, after write-locking them: the merged entity's every edge, and of the
# survivor's only what could collide with a moved edge, so a hub survivor costs no more.
SURVIVOR_COLLECTIONS = """
  COLLECT { MATCH (b)-[r:RELATED_TO]-(o) WHERE o <> a AND EXISTS { (a)-[:RELATED_TO]-(o) }
            RETURN {id: elementId(r), out: startNode(r) = b, other: elementId(o),
                    props: properties(r)} } AS related,
  COLLECT { MATCH (c)-[m:MENTIONS]->(b) WHERE EXISTS { (c)-[:MENTIONS]->(a) }
            RETURN {other: elementId(c), surface: m.surface, start: m.start, end: m.end} } AS mentions,
  COLLECT { MATCH (b)-[:SAME_AS {status: 'pending'}]-(o) RETURN DISTINCT elementId(o) } AS pending,
  COLLECT { MATCH (b)-[:NOT_SAME]-(o) RETURN DISTINCT elementId(o) } AS not_same,
  COLLECT { MATCH (x)-[:ABOUT|IN_COMMUNITY]-(b) WHERE EXISTS { (x)-[:ABOUT|IN_COMMUNITY]-(a) }
            RETURN DISTINCT elementId(x) } AS shared
"""

NAMES = """{.name, .aliases, .norm_name, .norm_aliases, .description, .values_json,
            .value_conflicts_json, .absorbed_descriptions}"""

MERGE_READ = (
    """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
MATCH (b:Entity {tenant: $tenant, uid: $survivor}) USING INDEX SEEK b:Entity(uid)
SET a._lock = true, b._lock = true
REMOVE a._lock, b._lock
WITH a, b
RETURN a """
    + NAMES
    + """ AS merged, b """
    + NAMES
    + """ AS survivor,
  COLLECT { MATCH (a)-[r]-(o) WHERE o <> a RETURN """
    + MERGED_EDGE
    + """ } AS edges,"""
    + SURVIVOR_COLLECTIONS
)

# The merge's writes in one statement: the merged entity's edges go, the plan's moves and
# combines are made on the survivor, the names and values are the survivor's, the record kept.
MERGE_WRITE = """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
MATCH (b:Entity {tenant: $tenant, uid: $survivor}) USING INDEX SEEK b:Entity(uid)
CALL (a) {
  MATCH (a)-[r]-()
  DELETE r
}
CALL (b) {
  UNWIND $moves_out AS e
  MATCH (o) WHERE elementId(o) = e.other_id
  CREATE (b)-[r:$(e.type)]->(o)
  SET r = e.props, r.moved_by = coalesce(e.props.moved_by, []) + [$merge_uid]
}
CALL (b) {
  UNWIND $moves_in AS e
  MATCH (o) WHERE elementId(o) = e.other_id
  CREATE (o)-[r:$(e.type)]->(b)
  SET r = e.props, r.moved_by = coalesce(e.props.moved_by, []) + [$merge_uid]
}
CALL (b) {
  UNWIND $combos AS c
  MATCH (b)-[r:RELATED_TO]-() WHERE elementId(r) = c.id
  SET r.weight = c.weight, r.confidence = c.confidence, r.observations = c.observations,
      r.chunks = c.chunks, r.first_seen = c.first_seen, r.last_seen = c.last_seen,
      r.nuance = c.nuance
}
SET a.status = 'merged', a.merged_into = b.uid, a.updated_at = datetime(),
    b.aliases = $aliases, b.norm_aliases = $norm_aliases, b.description = $description,
    b.description_embedding = CASE WHEN $took_description THEN a.description_embedding
                                   ELSE b.description_embedding END,
    b.values_json = $values_json, b.value_conflicts_json = $conflicts_json,
    b.absorbed_descriptions = $absorbed_descriptions, b.updated_at = datetime(),
    b.name_keys = coalesce(b.name_keys, [])
                  + [k IN coalesce(a.name_keys, []) WHERE NOT k IN coalesce(b.name_keys, [])]
CREATE (a)-[:MERGED_INTO {tenant: $tenant, merge_uid: $merge_uid, created_at: datetime()}]->(b)
CREATE (m:Merge {uid: $merge_uid, tenant: $tenant, same_as_uid: $same_as_uid,
                 survivor_uid: b.uid, merged_uid: a.uid, survivor_name: b.name,
                 merged_name: a.name, actor: $actor, status: 'done', score: $score,
                 signals: $signals, evidence: $evidence, reason: $reason, record: $record,
                 automatic: CASE WHEN $automatic THEN true ELSE null END,
                 created_at: datetime()})
RETURN m.uid AS uid, toString(m.created_at) AS created_at
"""


def do_review_lock(stx: ScopedTx, *, decides: bool | int = False) -> int:
    """Take the tenant's review lock: the rest of the transaction sees every decision that
    committed before, and no other decision commits until this one does. With `decides`, the
    tenant's count of decisions (confirm or reject) goes up by one (or by that many); returns
    the count."""
    return stx.run(REVIEW_LOCK, decides=int(decides))[0]["decisions"] or 0


def pending_pair_locked(
    stx: ScopedTx, review_uid: str, *, decides: bool = True, lock_held: bool = False
) -> dict:
    """The pair as it is now, after taking the lock (unless the caller holds it already in this
    transaction, and counts the decision itself); refuses a pair that is not pending, saying
    who decided it and when."""
    decisions = None if lock_held else do_review_lock(stx, decides=decides)
    rows = stx.run(PAIR_STATE, uid=review_uid)
    if not rows:
        decided = stx.run(PAIR_DECIDED_BY_MERGE, uid=review_uid)
        if decided and decided[0]["status"] == "done":
            d = decided[0]
            raise ConflictError(
                f"Already confirmed by {d['actor']} at {d['at']}.",
                extra={"decision": "confirmed", "decided_by": d["actor"], "decided_at": d["at"],
                       "merge_uid": d["merge_uid"]},
            )  # fmt: skip
        raise NotFoundError("No such review.")
    pair = rows[0]
    if pair["status"] != "pending":
        raise ConflictError(
            f"Already {pair['status']} by {pair['decided_by']} at {pair['decided_at']}.",
            extra={"decision": pair["status"], "decided_by": pair["decided_by"],
                   "decided_at": pair["decided_at"]},
        )  # fmt: skip
    if pair["not_same"] or pair["a_status"] != "active" or pair["b_status"] != "active":
        raise ConflictError("The two entities are no longer both active and distinct.")
    return {**pair, "decisions": decisions}


def do_merge_confirm(
    stx: ScopedTx,
    *,
    review_uid: str,
    survivor_uid: str | None = None,
    automatic: dict | None = None,
    lock_held: bool = False,
) -> dict:
    """Confirm a pending pair inside the caller's transaction: lock, check it is still pending,
    move every relationship of the merged entity to the survivor, leave a Merge record.
    Raises ConflictError when someone decided it first, NotFoundError outside this tenant.
    `automatic`: the gate's own merge of the pair on new evidence (its score, signals, evidence
    and reason), which is no reviewer's decision (not counted, not learned from). `lock_held`:
    the caller took the review lock in this transaction and counts the decision itself."""
    pair = pending_pair_locked(stx, review_uid, decides=automatic is None, lock_held=lock_held)
    if automatic:
        pair = {**pair, **automatic}
    survivor, merged = pair["b"], pair["a"]
    if survivor_uid and survivor_uid not in (pair["a"], pair["b"]):
        raise ApplicationError("The survivor must be one of the pair.", field="survivor")
    if survivor_uid == pair["a"]:
        survivor, merged = pair["a"], pair["b"]
    merge_uid = uuid.uuid4().hex
    read = stx.run(MERGE_READ, merged=merged, survivor=survivor)[0]
    names = {"merged": read["merged"], "survivor": read["survivor"]}
    plan = merge_plan(read["edges"], read)
    absorbed = names_absorbed(names["merged"], names["survivor"])
    record = {
        "merged": names["merged"],
        "survivor": names["survivor"],
        "absorbed": absorbed,
        "dropped": plan["dropped"],
        "combined": [c["record"] for c in plan["combos"]],
        "moved": {"out": len(plan["out"]), "in": len(plan["in"])},
    }
    survivor_names = names["survivor"]
    row = stx.run(
        MERGE_WRITE,
        merged=merged,
        survivor=survivor,
        moves_out=plan["out"],
        moves_in=plan["in"],
        combos=[c["write"] for c in plan["combos"]],
        aliases=list(survivor_names.get("aliases") or []) + absorbed["aliases"],
        norm_aliases=list(survivor_names.get("norm_aliases") or []) + absorbed["norm_aliases"],
        description=absorbed["description"] or survivor_names.get("description") or "",
        took_description=bool(absorbed["description"]),
        **kept_values(names["merged"], survivor_names),
        absorbed_descriptions=[
            *(survivor_names.get("absorbed_descriptions") or []),
            *absorbed["descriptions"],
        ][:MAX_ABSORBED_DESCRIPTIONS],
        merge_uid=merge_uid,
        same_as_uid=review_uid,
        actor=stx.scope.actor,
        score=pair["score"],
        signals=pair["signals"],
        evidence=pair["evidence"],
        reason=pair["reason"],
        record=record_dump(record),
        automatic=automatic is not None,
    )[0]
    do_graph_version_bump(stx)  # kept whole-graph answers see this merge
    return {
        "merge_uid": row["uid"],
        "review_uid": review_uid,
        "survivor_uid": survivor,
        "merged_uid": merged,
        "survivor_name": survivor_names["name"],
        "merged_name": names["merged"]["name"],
        "moved": len(plan["out"]) + len(plan["in"]),
        "combined": len(plan["combos"]),
        "dropped": len(plan["dropped"]),
        "aliases_absorbed": absorbed["aliases"],
        "created_at": row["created_at"],
        "decisions": pair["decisions"],
    }


def names_absorbed(merged: dict, survivor: dict) -> dict:
    """The merged entity's names the survivor lacks, as (surface, normalized) pairs."""
    have = {survivor.get("norm_name"), *(survivor.get("norm_aliases") or [])}
    surfaces = [merged["name"], *(merged.get("aliases") or [])]
    norms = [merged.get("norm_name"), *(merged.get("norm_aliases") or [])]
    aliases, norm_aliases = [], []
    for surface, norm in zip(surfaces, norms, strict=False):
        if norm and norm not in have:
            have.add(norm)
            aliases.append(surface)
            norm_aliases.append(norm)
    fills = not (survivor.get("description") or "") and bool(merged.get("description"))
    # Every description the merged entity carried that the survivor does not keep as its own:
    # what each source said is kept, listed on the entity.
    known = {survivor.get("description") or "", *(survivor.get("absorbed_descriptions") or [])}
    theirs = [] if fills else [merged.get("description") or ""]
    descriptions = [d for d in [*theirs, *(merged.get("absorbed_descriptions") or [])]
                    if d and d not in known]  # fmt: skip
    return {
        "aliases": aliases,
        "norm_aliases": norm_aliases,
        "description": merged.get("description") if fills else "",
        "descriptions": list(dict.fromkeys(descriptions))[:MAX_ABSORBED_DESCRIPTIONS],
    }


def kept_values(merged: dict, survivor: dict) -> dict:
    """The survivor's values with the merged entity's folded in; a differing value is kept as
    a conflict beside the survivor's (`values_combined`), never written over it."""
    values, conflicts = values_combined(
        values_load(survivor.get("values_json")), values_load(survivor.get("value_conflicts_json")),
        values_load(merged.get("values_json")), values_load(merged.get("value_conflicts_json")),
    )  # fmt: skip
    return {"values_json": values_dump(values), "conflicts_json": values_dump(conflicts)}


def _edge_record(edge: dict, why: str) -> dict:
    return {
        "type": edge["type"],
        "out": edge["out"],
        "other_uid": edge["other_uid"],
        "other_label": edge["other_label"],
        "props": props_encode(edge["props"]),
        "why": why,
    }


def merge_plan(edges: list[dict], mine: dict) -> dict:
    """Decide for each edge of the merged entity (MERGED_EDGE maps): move, combine into the
    survivor's, or drop; `mine` is the survivor's SURVIVOR_COLLECTIONS. No query: the merge and
    the pair page's preview both decide with it."""
    plan: dict = {"out": [], "in": [], "combos": [], "dropped": []}
    if not edges:
        return plan
    related = {(r["out"], r["other"], r["props"].get("predicate")): r for r in mine["related"]}
    mentions = {(m["other"], m["surface"], m["start"], m["end"]) for m in mine["mentions"]}
    pending, not_same, shared = (set(mine[k]) for k in ("pending", "not_same", "shared"))
    for edge in edges:
        kind, other, props = edge["type"], edge["other_id"], edge["props"]
        if edge["to_survivor"]:
            plan["dropped"].append(_edge_record(edge, "between the two"))
            continue
        if kind == "RELATED_TO":
            twin = related.get((edge["out"], other, props.get("predicate")))
            if twin is not None:
                plan["combos"].append(_combine(edge, twin))
                continue
        elif kind == "MENTIONS":
            key = (other, props.get("surface"), props.get("start"), props.get("end"))
            if key in mentions:
                plan["dropped"].append(_edge_record(edge, "same mention on the survivor"))
                continue
        elif kind == "SAME_AS" and props.get("status") == "pending":
            if other in pending or other in not_same:
                plan["dropped"].append(_edge_record(edge, "survivor already paired or not same"))
                continue
            pending.add(other)
        elif kind in ("ABOUT", "IN_COMMUNITY") and other in shared:
            plan["dropped"].append(_edge_record(edge, "the survivor has it already"))
            continue
        elif kind == "NOT_SAME":
            if other in not_same:
                plan["dropped"].append(_edge_record(edge, "survivor already not same"))
                continue
            not_same.add(other)
        move = {"type": kind, "other_id": other, "props": props}
        plan["out" if edge["out"] else "in"].append(move)
    return plan


def _combine(edge: dict, twin: dict) -> dict:
    """The ingestion contract applied to two observations histories of one relation."""
    mine, theirs = edge["props"], twin["props"]

    def union(key: str) -> list:
        return list(dict.fromkeys([*(theirs.get(key) or []), *(mine.get(key) or [])]))

    def pick(key: str, choose):
        values = [v for v in (theirs.get(key), mine.get(key)) if v is not None]
        return choose(values) if values else None

    write = {
        "id": twin["id"],
        "weight": (theirs.get("weight") or 0) + (mine.get("weight") or 0),
        "confidence": ((theirs.get("confidence") or 0.0) + (mine.get("confidence") or 0.0)) / 2,
        "observations": union("observations"),
        "chunks": union("chunks"),
        "first_seen": pick("first_seen", min),
        "last_seen": pick("last_seen", max),
        "nuance": theirs.get("nuance") or mine.get("nuance") or "",
    }
    record = {
        "survivor_edge_uid": theirs.get("uid"),
        "before": props_encode(theirs),
        "after": {"weight": write["weight"], "observations": write["observations"]},
        "edge": _edge_record(edge, "combined"),
    }
    return {"write": write, "record": record}
