"""The neighbourhood of the entities a context call found (seed 003): their neighbours 1-2 hops
away through confident relations, the earlier traces that touched them, and their twins (a
pending pair is shown once; one that is no twin, named between the two), read in one
transaction as soon as both entity rankings are in."""

from __future__ import annotations

from apps.graph.cypher import ScopedTx
from apps.resolution.twin_reads import twins_read

MIN_NEIGHBOUR_CONFIDENCE = 0.5

# Neighbours 1-2 hops away through confident relations, the most observed first, then the most
# recently seen (seed 002's order); prior traces that touched each entity, newest first (each
# entity keeps the uids of its latest, see traces.RECENT_TRACES_KEPT). Both are optional: an
# entity with no relation and no trace still gives its row.
AROUND = """
UNWIND $uids AS uid
MATCH (e:Entity {uid: uid}) WHERE e.tenant = $tenant
OPTIONAL CALL (e) {
  MATCH (e)-[r:RELATED_TO]-(n:Entity)
  WHERE r.confidence >= $min_conf AND n.tenant = $tenant AND n.status = 'active'
  RETURN n, r, 1 AS hops, e AS via
  ORDER BY r.weight DESC, r.last_seen DESC LIMIT $per
  UNION
  // Two hops go out only through the best first hops, so a hub next door costs no more.
  MATCH (e)-[r1:RELATED_TO]-(v:Entity)
  WHERE r1.confidence >= $min_conf AND v.tenant = $tenant AND v.status = 'active'
  WITH e, v, r1 ORDER BY r1.weight DESC, r1.last_seen DESC LIMIT $per
  MATCH (v)-[r:RELATED_TO]-(n:Entity)
  WHERE r.confidence >= $min_conf AND n <> e AND r <> r1
    AND n.tenant = $tenant AND n.status = 'active'
  RETURN n, r, 2 AS hops, v AS via
  ORDER BY r.weight DESC, r.last_seen DESC LIMIT $per
}
WITH e, n, r, hops, via ORDER BY r.weight DESC, r.last_seen DESC
WITH e, collect(CASE WHEN n IS NOT NULL THEN
                 {uid: n.uid, name: n.name, type: n.type, hops: hops, via: via.name,
                  predicate: r.predicate, from: startNode(r).name, to: endNode(r).name,
                  weight: r.weight, confidence: r.confidence, chunks: coalesce(r.chunks, [])[..50],
                  last_seen: toString(r.last_seen)} END)[..$per] AS neighbours
CALL (e) {
  OPTIONAL CALL (e) {
    UNWIND coalesce(e.recent_traces, []) AS uid
    MATCH (t:ReasoningTrace {uid: uid}) WHERE t.tenant = $tenant
    RETURN t ORDER BY t.created_at DESC LIMIT $traces
  }
  OPTIONAL MATCH (t)-[:FOR_MESSAGE]->(q:Message)
  RETURN collect(CASE WHEN t IS NULL THEN null ELSE
    {uid: t.uid, at: toString(t.created_at), own: t.user = $user,
     question: CASE WHEN t.user = $user THEN q.text END,
     session: CASE WHEN t.user = $user THEN t.sid END} END) AS traces
}
RETURN e {.uid, .name, .type, .description, aliases: coalesce(e.aliases, [])} AS entity,
       neighbours, traces
"""


def entities_around(unit: ScopedTx, fused: list[dict], *, user: str, k: int) -> dict:
    """{"entities": the fused entities still active, in their order, with score and ranks;
    "neighbours": at most 2k, the heaviest first, then the most recently seen; "traces": the
    prior traces that touched them; "twins": each entity's twins (for twins_fold, which the
    caller applies once it has dropped what a passage says)}. Runs in the caller's
    transaction."""
    around = unit.run(AROUND, uids=[f["uid"] for f in fused], user=user, per=k * 2,
                      traces=3, min_conf=MIN_NEIGHBOUR_CONFIDENCE) if fused else []  # fmt: skip
    by_uid = {row["entity"]["uid"]: row for row in around}
    entities, neighbours, traces, seen = [], [], [], {f["uid"] for f in fused}
    for item in fused:
        row = by_uid.get(item["uid"])
        if row is None:
            continue
        entities.append({**row["entity"], "score": round(item["score"], 5), "ranks": item["ranks"]})
        for n in row["neighbours"]:
            if n["uid"] not in seen:
                seen.add(n["uid"])
                neighbours.append({**n, "of": item["uid"]})
        for t in row["traces"]:
            if t["uid"] not in {x["uid"] for x in traces}:
                traces.append({**t, "about": item["uid"]})
    neighbours.sort(key=lambda n: n["last_seen"] or "", reverse=True)
    neighbours.sort(key=lambda n: -(n["weight"] or 0))  # stable: weight first, then recency
    twins = twins_read(unit, [e["uid"] for e in entities], among=True) if entities else {}
    return {"entities": entities, "neighbours": neighbours[: k * 2], "traces": traces,
            "twins": twins}  # fmt: skip
