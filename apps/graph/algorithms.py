"""Graph algorithms (Neo4j Graph Data Science) on one tenant's entity graph.

Each call projects the tenant's active entities and their RELATED_TO relations into GDS's
in-memory catalog (a Cypher projection, undirected: a relation links both ways for ranking,
grouping and paths), runs one algorithm, and drops the projection in `finally` (each holds heap
even when small). The projection's name is built from the scope's tenant and a fresh id, so calls
never share or touch another's. Before projecting, the sizes and then the memory the projection
and the algorithm need are checked against settings.GRAPH_ALGORITHMS (GraphTooLarge otherwise).

Relation properties in the projection: `weight` (the relation's weight, 1.0 when absent) and
`cost` (1 / weight: heavier relations are shorter, for paths).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from apps.graph import cypher
from apps.graph.scope import Scope

SIZE_AND_ESTIMATE = """
MATCH (e:Entity {tenant: $tenant, status: 'active'})
WITH count(e) AS nodes,
     sum(COUNT { (e)-[:RELATED_TO]->(:Entity {tenant: $tenant, status: 'active'}) }) AS relations
CALL gds.graph.project.estimate('*', '*', {nodeCount: nodes, relationshipCount: relations})
YIELD bytesMax
RETURN nodes, relations, bytesMax
"""
PROJECT = """
MATCH (s:Entity {tenant: $tenant, status: 'active'})
OPTIONAL MATCH (s)-[r:RELATED_TO]->(t:Entity {tenant: $tenant, status: 'active'})
WITH s, t, toFloat(coalesce(r.weight, 1.0)) AS weight
WITH gds.graph.project($tenant + '/' + $call, s, t,
       {relationshipProperties: {weight: weight,
                                 cost: CASE WHEN weight > 0 THEN 1.0 / weight ELSE 1.0 END}},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relations
"""
DROP = "CALL gds.graph.drop($tenant + '/' + $call, false) YIELD graphName RETURN graphName"

# The algorithms: each estimate and stream query reads the projection named for this call.
PAGERANK_ESTIMATE = """
MATCH (s:Entity {tenant: $tenant}) WHERE s.uid IN $seeds
WITH collect(s) AS seeds
CALL gds.pageRank.stream.estimate($tenant + '/' + $call, {sourceNodes: seeds,
  dampingFactor: $damping, maxIterations: $iterations, tolerance: $tolerance,
  relationshipWeightProperty: $weight_property, concurrency: $concurrency})
YIELD bytesMax RETURN bytesMax
"""
PAGERANK = """
MATCH (s:Entity {tenant: $tenant}) WHERE s.uid IN $seeds
WITH collect(s) AS seeds
CALL gds.pageRank.stream($tenant + '/' + $call, {sourceNodes: seeds,
  dampingFactor: $damping, maxIterations: $iterations, tolerance: $tolerance,
  relationshipWeightProperty: $weight_property, concurrency: $concurrency})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS e, score WHERE e.tenant = $tenant AND score > 0
RETURN e.uid AS uid, score ORDER BY score DESC, uid LIMIT $limit
"""
WCC_ESTIMATE = """
CALL gds.wcc.stream.estimate($tenant + '/' + $call, {concurrency: $concurrency})
YIELD bytesMax RETURN bytesMax
"""
WCC = """
CALL gds.wcc.stream($tenant + '/' + $call, {concurrency: $concurrency})
YIELD nodeId, componentId
WITH gds.util.asNode(nodeId) AS e, componentId WHERE e.tenant = $tenant
RETURN e.uid AS uid, componentId AS group
"""
LEIDEN_ESTIMATE = """
CALL gds.leiden.stream.estimate($tenant + '/' + $call, {concurrency: $concurrency,
  randomSeed: $seed, relationshipWeightProperty: $weight_property})
YIELD bytesMax RETURN bytesMax
"""
LEIDEN = """
CALL gds.leiden.stream($tenant + '/' + $call, {concurrency: $concurrency, randomSeed: $seed,
  relationshipWeightProperty: $weight_property})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS e, communityId WHERE e.tenant = $tenant
RETURN e.uid AS uid, communityId AS group
"""
DIJKSTRA_ESTIMATE = """
MATCH (a:Entity {tenant: $tenant, uid: $source}), (b:Entity {tenant: $tenant, uid: $target})
CALL gds.shortestPath.dijkstra.stream.estimate($tenant + '/' + $call, {sourceNode: a,
  targetNode: b, relationshipWeightProperty: 'cost', concurrency: $concurrency})
YIELD bytesMax RETURN bytesMax
"""
DIJKSTRA = """
MATCH (a:Entity {tenant: $tenant, uid: $source}), (b:Entity {tenant: $tenant, uid: $target})
CALL gds.shortestPath.dijkstra.stream($tenant + '/' + $call, {sourceNode: a, targetNode: b,
  relationshipWeightProperty: 'cost', concurrency: $concurrency})
YIELD totalCost, nodeIds
RETURN totalCost AS cost, [id IN nodeIds | gds.util.asNode(id).uid] AS uids
"""


class GraphTooLarge(ValueError):
    """The tenant's graph, or the memory an algorithm needs on it, is over the set bounds."""


def _bounds() -> dict:
    return settings.GRAPH_ALGORITHMS


@contextmanager
def tenant_projection(scope: Scope) -> Iterator[str]:
    """The tenant's entity graph in GDS's catalog for the duration of the block; yields the
    call id that, with the tenant, names it. Dropped on the way out, whatever happened."""
    bounds = _bounds()
    size = cypher.read(scope, SIZE_AND_ESTIMATE)[0]
    if size["nodes"] > bounds["max_nodes"] or size["relations"] > bounds["max_relations"]:
        raise GraphTooLarge(
            f"{size['nodes']} entities and {size['relations']} relations; the bounds are "
            f"{bounds['max_nodes']} and {bounds['max_relations']} (GRAPH_ALGORITHMS)."
        )
    _check_memory(size["bytesMax"], "projecting the graph")
    call = uuid.uuid4().hex
    try:
        cypher.read(scope, PROJECT, call=call)
        yield call
    finally:
        cypher.read(scope, DROP, call=call)


def _check_memory(bytes_max: int, what: str) -> None:
    limit = _bounds()["max_memory_mb"] * 1024 * 1024
    if bytes_max > limit:
        raise GraphTooLarge(
            f"{what} needs up to {bytes_max // 1024 // 1024} MB; the bound is "
            f"{_bounds()['max_memory_mb']} MB (GRAPH_ALGORITHMS)."
        )


def _run(scope: Scope, estimate: str, stream: str, **params) -> list[dict]:
    params["concurrency"] = _bounds()["concurrency"]
    with tenant_projection(scope) as call:
        rows = cypher.read(scope, estimate, call=call, **params)
        if not rows:  # a source or target not in the tenant's graph
            return []
        _check_memory(rows[0]["bytesMax"], "the algorithm")
        return cypher.read(scope, stream, call=call, **params)


def personalized_pagerank(
    scope: Scope, seeds: list[str], *, limit: int = 20, weighted: bool = False
) -> list[dict]:
    """Entities ranked by PageRank personalized to the `seeds` entities (seed 000's spreading
    from what a question names): [{uid, score}], highest first."""
    return _run(scope, PAGERANK_ESTIMATE, PAGERANK, seeds=list(seeds), limit=limit,
                damping=0.85, iterations=100, tolerance=1e-7,
                weight_property="weight" if weighted else None)  # fmt: skip


def connected_groups(scope: Scope) -> dict[str, int]:
    """Weakly connected components: {uid: group id}; entities linked by any path share one."""
    return {row["uid"]: row["group"] for row in _run(scope, WCC_ESTIMATE, WCC)}


def communities(scope: Scope, *, weighted: bool = True, seed: int = 42) -> dict[str, int]:
    """Leiden communities: {uid: community id}, densely related entities together."""
    rows = _run(scope, LEIDEN_ESTIMATE, LEIDEN, seed=seed,
                weight_property="weight" if weighted else None)  # fmt: skip
    return {row["uid"]: row["group"] for row in rows}


def shortest_path(scope: Scope, source: str, target: str) -> dict | None:
    """The cheapest chain of relations between two entities (cost 1/weight per relation):
    {uids: [source, ..., target], cost}, or None when they are not connected."""
    rows = _run(scope, DIJKSTRA_ESTIMATE, DIJKSTRA, source=source, target=target)
    return {"uids": rows[0]["uids"], "cost": rows[0]["cost"]} if rows else None
