"""Context for a task by Personalized PageRank over the tenant's work graph (seed 000).

The projection holds the seeds' neighbourhood in the tenant's work graph: tasks, evidence that
is not superseded, and the active entities that evidence MENTIONS, joined by SUBTASK_OF,
DEPENDS_ON, PRODUCED, MENTIONS (weight 1) and SIMILAR_TO (weight = cosine), all undirected, so
one random walk follows structure and meaning together. PageRank restarts at the task and its
ancestors and the tasks it depends on (the seeds), the task weighing 1, each dependency 1/2 and
each ancestor half the one below it: the task asks, its dependencies' findings are its inputs,
its ancestors frame the question. The neighbourhood is read ring by ring from the seeds
(HOPS rings, at most NEIGHBOURHOOD nodes, the nodes most linked to the ring before first), so a
call's cost follows the neighbourhood, not the tenant's whole graph. The ranked tasks and
evidence are then taken in order while they fit the token budget (about four characters a
token), each with why: a seed, or the shortest path from a seed that reached it. Bounds and the
projection's lifetime are those of apps/graph/algorithms.py (`projected`): sizes and memory
checked first, the projection named for this call and dropped in `finally`.
"""

from __future__ import annotations

import math

from django.conf import settings

from apps.graph import cypher
from apps.graph.algorithms import (
    GraphOutOfMemory,
    GraphTooLarge,
    check_graph_size,
    memory_read,
    projected,
)
from apps.graph.scope import Scope
from apps.tasks.services.task_writes import resolve_task_uid
from memoryproject.api_errors import ApplicationError

MAX_TOKEN_BUDGET = 100_000
MAX_ITEMS = 100
RANKED = 300  # nodes read back from PageRank, before the budget picks
MAX_SEEDS = 20  # the task and up to this many ancestors, and as many dependencies
CHARS_PER_TOKEN = 4
# The walk's world: the rings of nodes within HOPS edges of a seed, at most NEIGHBOURHOOD nodes.
# A restart probability of 0.15 leaves 0.85^3 of the mass past the third ring, but the ranking
# near the seeds, which is all the budget ever takes, is measured to hold (bench/task_context.py).
HOPS = 3
NEIGHBOURHOOD = 5000

# The seeds, then one ring of the neighbourhood a query: the nodes not yet taken that the ring
# before reaches, the most linked to it first, and each one's degree (edges in the projection's
# types) so the projection's size is known before it is made.
SEED_NODES = """
MATCH (s:Task {tenant: $tenant}) WHERE s.uid IN $seeds
RETURN elementId(s) AS id,
       COUNT { (s)-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-() } AS degree
"""
RING = """
UNWIND $frontier AS id
MATCH (a) WHERE elementId(a) = id
MATCH (a)-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(b)
WHERE b.tenant = $tenant AND NOT elementId(b) IN $seen
  AND (b:Task OR (b:Evidence AND NOT b.superseded) OR (b:Entity AND b.status = 'active'))
WITH b, count(*) AS links ORDER BY links DESC, b.uid LIMIT $room
RETURN elementId(b) AS id,
       COUNT { (b)-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-() } AS degree
"""
ESTIMATE = """
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id AND n.tenant = $tenant
WITH count(n) AS nodes
CALL gds.graph.project.estimate('*', '*', {nodeCount: nodes, relationshipCount: $relations})
YIELD bytesMax RETURN bytesMax
"""
PROJECT = """
UNWIND $ids AS id
MATCH (s) WHERE elementId(s) = id AND s.tenant = $tenant
OPTIONAL MATCH (s)-[r:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]->(t)
WHERE elementId(t) IN $ids
WITH s, t, CASE type(r) WHEN 'SIMILAR_TO' THEN toFloat(r.score) ELSE 1.0 END AS weight
WITH gds.graph.project($tenant + '/' + $call, s, t,
       {relationshipProperties: {weight: coalesce(weight, 1.0)}},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes
"""
SEEDS = """
MATCH (t:Task {tenant: $tenant, uid: $uid})
OPTIONAL MATCH path = (t)-[:SUBTASK_OF*1..20]->(p:Task {tenant: $tenant})
WITH t, p, length(path) AS depth ORDER BY depth
RETURN t.uid AS task, [x IN collect(p.uid) WHERE x IS NOT NULL] AS ancestors,
       [(t)-[:DEPENDS_ON]->(d:Task) WHERE d.tenant = $tenant | d.uid] AS dependencies
"""
PAGERANK = """
UNWIND range(0, size($seeds) - 1) AS i
MATCH (s:Task {tenant: $tenant, uid: $seeds[i]})
WITH collect([s, $weights[i]]) AS seeds
CALL gds.pageRank.stream($tenant + '/' + $call, {sourceNodes: seeds,
  dampingFactor: 0.85, maxIterations: 40, tolerance: 1e-6,
  relationshipWeightProperty: 'weight', concurrency: $concurrency})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS n, score
WHERE n.tenant = $tenant AND score > 0 AND (n:Task OR n:Evidence)
RETURN n.uid AS uid, score ORDER BY score DESC, uid LIMIT $limit
"""
DETAILS = """
UNWIND $uids AS u
CALL (u) {
  MATCH (n:Task {tenant: $tenant, uid: u}) RETURN n
  UNION
  MATCH (n:Evidence {tenant: $tenant, uid: u}) RETURN n
}
RETURN u AS uid, n:Task AS is_task, n.short_id AS id, n.description AS description,
       n.result_summary AS result_summary, n.status AS status, n.content AS content,
       n.strength AS strength, n.source AS source
"""
# The shortest way from a seed to each chosen node (up to four edges), as [name, edge] steps.
PATHS = """
CYPHER 25
UNWIND $uids AS u
CALL (u) {
  MATCH (n:Task {tenant: $tenant, uid: u}) RETURN n
  UNION
  MATCH (n:Evidence {tenant: $tenant, uid: u}) RETURN n
}
OPTIONAL CALL (n) {
  MATCH p = ANY SHORTEST (s:Task WHERE s.tenant = $tenant AND s.uid IN $seeds)
            (()-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-()){1,4} (n)
  WHERE all(x IN nodes(p) WHERE x.tenant = $tenant AND coalesce(x.superseded, false) = false)
  RETURN p ORDER BY length(p) LIMIT 1
}
RETURN u AS uid,
       CASE WHEN p IS NULL THEN null ELSE
         [i IN range(0, length(p) - 1) |
           [coalesce(nodes(p)[i].short_id, nodes(p)[i].name), type(relationships(p)[i])]]
         + [[n.short_id, null]] END AS steps
"""


def tokens_of(text: str) -> int:
    return max(1, math.ceil(len(text) / CHARS_PER_TOKEN))


def neighbourhood(
    scope: Scope, seeds: list[str], *, hops: int = HOPS, cap: int = NEIGHBOURHOOD
) -> dict:
    """The work graph around the `seeds` tasks: {ids (element ids), relations (an upper bound
    of the projected relationships)}; ring by ring up to `hops` edges, at most `cap` nodes."""
    found = cypher.read(scope, SEED_NODES, seeds=seeds)
    seen = {r["id"] for r in found}
    relations = sum(r["degree"] for r in found)
    frontier = list(seen)
    for _ in range(hops):
        if not frontier or len(seen) >= cap:
            break
        ring = cypher.read(scope, RING, frontier=frontier, seen=list(seen), room=cap - len(seen))
        frontier = [r["id"] for r in ring]
        seen.update(frontier)
        relations += sum(r["degree"] for r in ring)
    return {"ids": list(seen), "relations": relations}


def ranked_nodes(
    scope: Scope,
    seeds: list[str],
    *,
    limit: int = RANKED,
    hops: int = HOPS,
    cap: int = NEIGHBOURHOOD,
    weights: list[float] | None = None,
) -> list[dict]:
    """Tasks and evidence by PageRank personalized to the `seeds` tasks, on their neighbourhood
    (`hops`, `cap`): [{uid, score}], highest first."""
    around = neighbourhood(scope, seeds, hops=hops, cap=cap)
    size = {"nodes": len(around["ids"]), "relations": around["relations"]}
    check_graph_size(size, "work-graph nodes")
    bytes_max = cypher.read(scope, ESTIMATE, **around)[0]["bytesMax"]
    with projected(scope, PROJECT, bytes_max=bytes_max, ids=around["ids"]) as call:
        if call is None:
            return []
        weights = weights or [0.5**i for i in range(len(seeds))]
        return memory_read(scope, PAGERANK, call=call, seeds=seeds, weights=weights, limit=limit,
                           concurrency=settings.GRAPH_ALGORITHMS["concurrency"])  # fmt: skip


def task_context(scope: Scope, *, task: str, token_budget: int = 4000, limit: int = 30) -> dict:
    """The evidence and tasks around `task` that fit `token_budget`, best first:
    {task, seeds, items: [{kind, id, uid, text, score, tokens, strength, why}], tokens}."""
    if isinstance(token_budget, bool) or not isinstance(token_budget, int):
        raise ApplicationError("token_budget is a whole number.", field="token_budget")
    if not 0 < token_budget <= MAX_TOKEN_BUDGET:
        raise ApplicationError(f"token_budget is 1 to {MAX_TOKEN_BUDGET}.", field="token_budget",
                               limit=MAX_TOKEN_BUDGET)  # fmt: skip
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 < limit <= MAX_ITEMS:
        raise ApplicationError(f"limit is 1 to {MAX_ITEMS}.", field="limit", limit=MAX_ITEMS)
    uid = resolve_task_uid(scope, task)
    kinds = seed_kinds(scope, uid)
    seeds = list(kinds)
    try:
        ranked = ranked_nodes(scope, seeds, weights=seed_weights(kinds))
    except GraphTooLarge as exc:
        raise ApplicationError(str(exc), code="graph_too_large", status=413) from exc
    except GraphOutOfMemory as exc:  # Neo4j refused the memory: the caller may ask again later
        raise ApplicationError(
            f"The graph database has not enough free memory for this now ({exc}); ask again later.",
            code="graph_out_of_memory",
            status=503,
        ) from exc
    scores = {r["uid"]: r["score"] for r in ranked if r["uid"] != uid}
    rows = cypher.read(scope, DETAILS, uids=list(scores)) if scores else []
    rows.sort(key=lambda r: (-scores[r["uid"]], r["uid"]))
    items, used = [], 0
    for row in rows:
        text = _text(row)
        tokens = tokens_of(text)
        if used + tokens > token_budget:
            continue  # a smaller one further down may still fit
        used += tokens
        items.append({
            "kind": "task" if row["is_task"] else "evidence", "id": row["id"], "uid": row["uid"],
            "text": text, "score": round(scores[row["uid"]], 6), "tokens": tokens,
            "strength": row["strength"], "status": row["status"], "source": row["source"],
        })  # fmt: skip
        if len(items) == limit:
            break
    picked = [i["uid"] for i in items if i["uid"] not in seeds]
    steps = {r["uid"]: r["steps"] for r in cypher.read(scope, PATHS, uids=picked, seeds=seeds)}
    for item in items:
        item["why"] = _why(item["uid"], steps.get(item["uid"]), kinds)
    return {"task": uid, "seeds": seeds, "items": items, "tokens": used,
            "token_budget": token_budget}  # fmt: skip


def _text(row: dict) -> str:
    if not row["is_task"]:
        return row["content"]
    if row["result_summary"]:
        return f"{row['description']}\nResult: {row['result_summary']}"
    return row["description"]


def seed_kinds(scope: Scope, uid: str) -> dict[str, str]:
    """The walk's seeds in order: {uid: 'task' | 'dependency' | 'ancestor'}: the task, the
    tasks it depends on (their findings are its inputs), its ancestors nearest first."""
    found = cypher.read(scope, SEEDS, uid=uid)[0]
    kinds = {uid: "task"}
    for dependency in sorted(found["dependencies"])[:MAX_SEEDS]:
        kinds.setdefault(dependency, "dependency")
    for ancestor in found["ancestors"][:MAX_SEEDS]:
        kinds.setdefault(ancestor, "ancestor")
    return kinds


def seed_weights(kinds: dict[str, str]) -> list[float]:
    """The task weighs 1, each dependency 1/2, each ancestor half the one below it."""
    weights, depth = [], 0
    for kind in kinds.values():
        if kind == "ancestor":
            depth += 1
        weights.append(1.0 if kind == "task" else 0.5 if kind == "dependency" else 0.5**depth)
    return weights


def _why(uid: str, steps: list | None, kinds: dict[str, str]) -> dict:
    if uid in kinds:
        return {"seed": kinds[uid], "path": None}
    if not steps:
        return {"seed": None, "path": None}  # reached only by paths longer than four edges
    path = []
    for name, edge in steps:
        path.append(name)
        if edge:
            path.append(edge)
    return {"seed": None, "path": path}
