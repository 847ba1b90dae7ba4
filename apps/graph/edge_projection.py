"""Groups and importance (GDS) of a graph handed over as a list of edges, never stored.

The caller numbers its nodes 0..n-1 and gives directed edges between those numbers; the projection
is built from the numbers alone (GDS's Cypher projection takes integers for nodes), so it reads no
node of the database and a graph mixing a tenant's relations with hypothetical ones (the
timeline's what_if) is grouped and ranked by the same algorithms as the stored graph
(apps/graph/algorithms.py): weakly connected components, and PageRank scaled so the scores of all
nodes add up to 1. The projection is made, checked against the tenant's memory bound and
dropped by `algorithms.projected`. Nothing is written: the queries run in read transactions.
"""

from __future__ import annotations

from django.conf import settings

from apps.graph import cypher
from apps.graph.algorithms import PAGERANK_PARAMS, projected
from apps.graph.scope import Scope

ESTIMATE = """
CALL gds.graph.project.estimate('*', '*', {nodeCount: $nodes, relationshipCount: $relations})
YIELD bytesMax
RETURN bytesMax, $tenant AS tenant
"""
# A node without an edge comes as [node, null]: projected alone.
PROJECT = """
UNWIND $edges AS edge
WITH gds.graph.project($tenant + '/' + $call, edge[0], edge[1]) AS g
RETURN g.nodeCount AS nodes
"""
GROUPS = """
CALL gds.wcc.stream($tenant + '/' + $call, {concurrency: $concurrency})
YIELD nodeId, componentId
RETURN nodeId AS node, componentId AS group
"""
RANKS = """
CALL gds.pageRank.stream($tenant + '/' + $call, {dampingFactor: $damping,
  maxIterations: $iterations, tolerance: $tolerance, concurrency: $concurrency})
YIELD nodeId, score
RETURN nodeId AS node, score
"""


def groups_and_ranks(
    scope: Scope, nodes: int, edges: list[tuple[int, int]]
) -> tuple[dict[int, int], dict[int, float]]:
    """({node: group}, {node: PageRank score, all adding up to 1}) of the directed graph of
    nodes 0..nodes-1 and `edges`; groups ignore the direction (weakly connected)."""
    if nodes == 0:
        return {}, {}
    estimate = cypher.read(scope, ESTIMATE, nodes=nodes, relations=len(edges))[0]["bytesMax"]
    linked = {n for edge in edges for n in edge}
    listed = [[a, b] for a, b in edges] + [[n, None] for n in range(nodes) if n not in linked]
    concurrency = settings.GRAPH_ALGORITHMS["concurrency"]
    with projected(scope, PROJECT, bytes_max=estimate, edges=listed) as call:
        params = {"call": call, "concurrency": concurrency}
        groups = {r["node"]: r["group"] for r in cypher.read(scope, GROUPS, **params)}
        rows = cypher.read(scope, RANKS, **params, **PAGERANK_PARAMS)
    total = sum(r["score"] for r in rows) or 1.0
    return groups, {r["node"]: r["score"] / total for r in rows}
