"""Undoing a merge: both entities come back and every relationship the merge moved goes back.

Rules (README "Review"):
- Edges the merge moved (their `moved_by` ends with this merge) go back with their current
  properties, so observations added to them since stay counted; edges deleted since stay deleted.
- Edges the merge dropped (between the two, or doubles) are recreated as they were; the decided
  pair itself comes back pending, so it is in the queue again.
- Relations both had were combined: if the survivor's edge is unchanged since, it gets its exact
  earlier properties back; otherwise the restored side's weight and observations are taken out
  of it and its confidence is left as is (an average cannot be split).
- Edges added to the survivor after the merge stay with it, except MENTIONS whose surface form
  names only the restored side (one of its names, none of the survivor's own): they go back.
- Aliases the survivor absorbed are removed; aliases it learned since stay.
- A merge that later merges built on is refused until those are undone (latest first): a later
  merge into the same survivor, or the survivor merged into another entity.
"""

from __future__ import annotations

from apps.graph.cypher import ScopedTx
from apps.graph.graph_version import do_graph_version_bump
from apps.resolution.entity_values import values_dump, values_load, values_uncombined
from apps.resolution.signals import name_normalize
from apps.review.merge_records import props_decode, record_load
from apps.review.merges import do_review_lock
from memoryproject.api_errors import ConflictError, NotFoundError

# Every entity through the uid index (index hints): on a small tenant the planner otherwise
# reads the tenant's entities by its tenant index, a cost that grows with the graph.
MERGE_STATE = """
MATCH (m:Merge {tenant: $tenant, uid: $uid}) USING INDEX SEEK m:Merge(uid)
OPTIONAL MATCH (b:Entity {uid: m.survivor_uid})
USING INDEX SEEK b:Entity(uid) WHERE b.tenant = $tenant
OPTIONAL MATCH (a:Entity {uid: m.merged_uid})
USING INDEX SEEK a:Entity(uid) WHERE a.tenant = $tenant
RETURN m.status AS status, m.undone_by AS undone_by, toString(m.undone_at) AS undone_at,
       m.record AS record, m.created_at AS created_at, m.survivor_uid AS survivor,
       m.merged_uid AS merged, m.same_as_uid AS same_as_uid, a.status AS a_status,
       b.status AS b_status,
       b {.aliases, .norm_aliases, .description, .values_json, .value_conflicts_json,
          .absorbed_descriptions} AS survivor_now,
  COLLECT { MATCH (later:Merge {tenant: $tenant, survivor_uid: m.survivor_uid, status: 'done'})
            WHERE later.created_at > m.created_at
            RETURN later {.uid, .merged_name, .actor} ORDER BY later.created_at DESC } AS later,
  COLLECT { MATCH (onward:Merge {tenant: $tenant, merged_uid: m.survivor_uid, status: 'done'})
            RETURN onward {.uid, .survivor_name, .actor} } AS onward
"""

MOVE_BACK = """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
MATCH (b:Entity {tenant: $tenant, uid: $survivor})-[r]-(o)
WHERE r.moved_by IS NOT NULL AND last(r.moved_by) = $merge_uid
WITH a, b, r, o, startNode(r) = b AS out, type(r) AS t, properties(r) AS props,
     CASE WHEN size(r.moved_by) > 1 THEN r.moved_by[0..-1] ELSE null END AS earlier
CALL (a, o, out, t, props, earlier) {
  WITH * WHERE out
  CREATE (a)-[n:$(t)]->(o) SET n = props, n.moved_by = earlier
  RETURN n
  UNION
  WITH * WHERE NOT out
  CREATE (o)-[n:$(t)]->(a) SET n = props, n.moved_by = earlier
  RETURN n
}
DELETE r
RETURN count(n) AS n
"""

LATE_MENTIONS = """
MATCH (b:Entity {tenant: $tenant, uid: $survivor})<-[r:MENTIONS]-(:Chunk {tenant: $tenant})
WHERE r.moved_by IS NULL AND r.created_at >= $since
RETURN elementId(r) AS id, r.surface AS surface
"""

MENTIONS_BACK = """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
UNWIND $ids AS id
MATCH (c)-[r:MENTIONS]->() WHERE elementId(r) = id AND c.tenant = $tenant
CREATE (c)-[n:MENTIONS]->(a) SET n = properties(r)
DELETE r
RETURN count(n) AS n
"""

RECREATE_OUT = """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
UNWIND $edges AS e
MATCH (o:$(e.other_label) {tenant: $tenant, uid: e.other_uid})
CREATE (a)-[r:$(e.type)]->(o) SET r = e.props
RETURN count(r) AS n
"""

RECREATE_IN = """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
UNWIND $edges AS e
MATCH (o:$(e.other_label) {tenant: $tenant, uid: e.other_uid})
CREATE (o)-[r:$(e.type)]->(a) SET r = e.props
RETURN count(r) AS n
"""

COMBINED_NOW = """
MATCH (b:Entity {tenant: $tenant, uid: $survivor})-[r:RELATED_TO]-()
WHERE r.uid IN $uids
RETURN r.uid AS uid, r.weight AS weight, r.observations AS observations, r.chunks AS chunks
"""

COMBINED_RESTORE = """
MATCH (b:Entity {tenant: $tenant, uid: $survivor})-[r:RELATED_TO]-()
UNWIND $edges AS e
WITH r, e WHERE r.uid = e.uid
SET r += e.props
RETURN count(r) AS n
"""

RESTORE_ENTITIES = """
MATCH (a:Entity {uid: $merged})-[f:MERGED_INTO]->(b:Entity)
USING INDEX SEEK a:Entity(uid)
WHERE a.tenant = $tenant AND b.tenant = $tenant
DELETE f
WITH DISTINCT a, b
SET a.status = 'active', a.merged_into = null, a.updated_at = datetime(),
    b.aliases = $aliases, b.norm_aliases = $norm_aliases, b.description = $description,
    b.description_embedding = CASE WHEN $description = '' THEN null
                                   ELSE b.description_embedding END,
    b.values_json = $values_json, b.value_conflicts_json = $conflicts_json,
    b.absorbed_descriptions = $absorbed_descriptions, b.updated_at = datetime()
WITH a
MATCH (m:Merge {tenant: $tenant, uid: $merge_uid}) USING INDEX SEEK m:Merge(uid)
SET m.status = 'undone', m.undone_by = $actor, m.undone_at = datetime()
RETURN toString(m.undone_at) AS undone_at
"""


def do_merge_undo(stx: ScopedTx, *, merge_uid: str) -> dict:
    """Undo one merge inside the caller's transaction (see the module's rules). Raises
    ConflictError when it was undone already or later merges built on it."""
    do_review_lock(stx)
    rows = stx.run(MERGE_STATE, uid=merge_uid)
    if not rows:
        raise NotFoundError("No such merge.")
    state = rows[0]
    if state["status"] != "done":
        raise ConflictError(
            f"Already undone by {state['undone_by']} at {state['undone_at']}.",
            extra={"decided_by": state["undone_by"], "decided_at": state["undone_at"]},
        )
    if state["onward"]:
        onward = state["onward"][0]
        raise ConflictError(
            f"The survivor was since merged into '{onward['survivor_name']}' by "
            f"{onward['actor']}: undo merge {onward['uid']} first.",
            extra={"blocking_merge": onward["uid"]},
        )
    if state["later"]:
        later = state["later"][0]
        raise ConflictError(
            f"'{later['merged_name']}' was merged into the same survivor later by "
            f"{later['actor']}: undo merge {later['uid']} first (latest first).",
            extra={"blocking_merge": later["uid"]},
        )
    if state["a_status"] != "merged" or state["b_status"] != "active":
        raise ConflictError("The entities of this merge are not as it left them.")
    record = record_load(state["record"])
    merged, survivor = state["merged"], state["survivor"]
    ids = dict(merged=merged, survivor=survivor)
    moved_back = stx.run(MOVE_BACK, merge_uid=merge_uid, **ids)[0]["n"]
    moved_back += _late_mentions_back(stx, record, state["created_at"], **ids)
    _combined_restore(stx, record, survivor=survivor)
    dropped = [*record.get("dropped", []), *(c["edge"] for c in record.get("combined", []))]
    for direction, query in (("out", RECREATE_OUT), ("in", RECREATE_IN)):
        edges = [
            {**e, "props": props_decode(e["props"])}
            for e in dropped
            if e["out"] == (direction == "out")
        ]
        if edges:
            stx.run(query, edges=edges, merged=merged)
    names = _names_restored(record, state["survivor_now"] or {})
    row = stx.run(RESTORE_ENTITIES, merge_uid=merge_uid, actor=stx.scope.actor, **names, **ids)[0]
    do_graph_version_bump(stx)  # kept whole-graph answers see this undo
    return {
        "merge_uid": merge_uid,
        "survivor_uid": survivor,
        "merged_uid": merged,
        "moved_back": moved_back,
        "recreated": len(dropped),
        "undone_at": row["undone_at"],
        "review_uid": _decided_pair(record, state["same_as_uid"]),
    }


def _decided_pair(record: dict, same_as_uid: str | None) -> str | None:
    """The pair the merge decided, pending again: the merge's own, not another pending pair of
    the merged entity the merge dropped as a duplicate of one the survivor had."""
    pending = [e["props"].get("uid") for e in record.get("dropped", [])
               if e["type"] == "SAME_AS" and e["props"].get("status") == "pending"]  # fmt: skip
    return same_as_uid if same_as_uid in pending else (pending or [None])[0]


def _late_mentions_back(stx: ScopedTx, record: dict, since, *, merged: str, survivor: str) -> int:
    merged_names = record["merged"]
    theirs = {merged_names.get("norm_name"), *(merged_names.get("norm_aliases") or [])}
    own = record["survivor"]
    ours = {own.get("norm_name"), *(own.get("norm_aliases") or [])}
    rows = stx.run(LATE_MENTIONS, survivor=survivor, since=since)
    ids = [r["id"] for r in rows if name_normalize(r["surface"] or "") in theirs - ours]
    if not ids:
        return 0
    return stx.run(MENTIONS_BACK, ids=ids, merged=merged)[0]["n"]


def _combined_restore(stx: ScopedTx, record: dict, *, survivor: str) -> None:
    combined = [c for c in record.get("combined", []) if c.get("survivor_edge_uid")]
    if not combined:
        return
    now = {
        r["uid"]: r
        for r in stx.run(
            COMBINED_NOW, survivor=survivor, uids=[c["survivor_edge_uid"] for c in combined]
        )
    }
    restores = []
    for c in combined:
        current = now.get(c["survivor_edge_uid"])
        if current is None:
            continue  # deleted since: nothing to give back
        before = props_decode(c["before"])
        after = c["after"]
        unchanged = current["weight"] == after["weight"] and list(
            current["observations"] or []
        ) == list(after["observations"])
        if unchanged:
            props = before
        else:
            mine = c["edge"]["props"]
            gone = set(mine.get("observations") or []) - set(before.get("observations") or [])
            gone_chunks = set(mine.get("chunks") or []) - set(before.get("chunks") or [])
            props = {
                "weight": max(1, (current["weight"] or 0) - (mine.get("weight") or 0)),
                "observations": [o for o in current["observations"] or [] if o not in gone],
                "chunks": [o for o in current["chunks"] or [] if o not in gone_chunks],
            }
        restores.append({"uid": c["survivor_edge_uid"], "props": props})
    if restores:
        stx.run(COMBINED_RESTORE, survivor=survivor, edges=restores)


def _names_restored(record: dict, now: dict) -> dict:
    absorbed = set(record["absorbed"]["norm_aliases"])
    pairs = [
        (surface, norm)
        for surface, norm in zip(
            now.get("aliases") or [], now.get("norm_aliases") or [], strict=False
        )
        if norm not in absorbed
    ]
    description = now.get("description") or ""
    if record["absorbed"]["description"] and description == record["absorbed"]["description"]:
        description = record["survivor"].get("description") or ""
    taken = set(record["absorbed"].get("descriptions") or [])
    before, merged = record["survivor"], record["merged"]
    values, conflicts = values_uncombined(
        values_load(now.get("values_json")), values_load(now.get("value_conflicts_json")),
        before=(values_load(before.get("values_json")),
                values_load(before.get("value_conflicts_json"))),
        taken=values_load(merged.get("values_json")),
        taken_conflicts=values_load(merged.get("value_conflicts_json")),
    )  # fmt: skip
    return {
        "aliases": [p[0] for p in pairs],
        "norm_aliases": [p[1] for p in pairs],
        "description": description,
        "absorbed_descriptions": [
            d for d in now.get("absorbed_descriptions") or [] if d not in taken
        ],
        "values_json": values_dump(values),
        "conflicts_json": values_dump(conflicts),
    }
