"""The reference walk: GDS PageRank on the seeds' whole connected work graph (or rings of it),
projected for the call and dropped after. Slow (a projection of every node reached) and kept
for what the local push in walk.py is measured against: the tests check that both rank alike
on small graphs and bench/task_context.py reports their agreement@10 on large ones.

Same graph and weights as walk.py: tasks, evidence that is not superseded, active entities,
undirected, weights by edge kind (SIMILAR_TO's times its score), restart at the seeds.
"""

from __future__ import annotations

from django.conf import settings

from apps.graph import cypher
from apps.graph.algorithms import check_graph_size, memory_read, projected
from apps.graph.scope import Scope
from apps.tasks.walk import EDGE_WEIGHTS

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
WITH s, t, CASE type(r) WHEN 'SIMILAR_TO' THEN $weights.SIMILAR_TO * toFloat(r.score)
                        ELSE $weights[type(r)] END AS weight
WITH gds.graph.project($tenant + '/' + $call, s, t,
       {relationshipProperties: {weight: coalesce(weight, 1.0)}},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes
"""
PAGERANK = """
UNWIND range(0, size($seeds) - 1) AS i
MATCH (s:Task {tenant: $tenant, uid: $seeds[i]}) USING INDEX SEEK s:Task(uid)
WITH collect([s, $seed_weights[i]]) AS seeds
CALL gds.pageRank.stream($tenant + '/' + $call, {sourceNodes: seeds,
  dampingFactor: 0.85, maxIterations: 100, tolerance: 1e-8,
  relationshipWeightProperty: 'weight', concurrency: $concurrency})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS n, score
WHERE n.tenant = $tenant AND score > 0 AND (n:Task OR n:Evidence)
RETURN n.uid AS uid, score ORDER BY score DESC, uid LIMIT $limit
"""


def rings(scope: Scope, seeds: list[str], *, hops: int, cap: int) -> dict:
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


def reference_walk(
    scope: Scope,
    seeds: list[str],
    *,
    seed_weights: list[float] | None = None,
    weights: dict[str, float] | None = None,
    hops: int = 1000,
    limit: int = 300,
) -> list[dict]:
    """Tasks and evidence by GDS PageRank personalized to `seeds` on their connected work graph
    (up to `hops` rings, GRAPH_ALGORITHMS' node bound): [{uid, score}], highest first, the
    scores as GDS gives them (proportional to walk.py's on the same graph, not equal)."""
    cap = settings.GRAPH_ALGORITHMS["max_nodes"]
    around = rings(scope, seeds, hops=hops, cap=cap)
    check_graph_size({"nodes": len(around["ids"]), "relations": around["relations"]},
                     "work-graph nodes")  # fmt: skip
    bytes_max = cypher.read(scope, ESTIMATE, **around)[0]["bytesMax"]
    with projected(scope, PROJECT, bytes_max=bytes_max, ids=around["ids"],
                   weights=weights or EDGE_WEIGHTS) as call:  # fmt: skip
        if call is None:
            return []
        seed_weights = seed_weights or [0.5**i for i in range(len(seeds))]
        return memory_read(scope, PAGERANK, call=call, seeds=seeds, seed_weights=seed_weights,
                           limit=limit,
                           concurrency=settings.GRAPH_ALGORITHMS["concurrency"])  # fmt: skip
