"""Graph algorithms (Neo4j Graph Data Science) on one tenant's entity graph.

Each call projects the tenant's active entities and their RELATED_TO relations into GDS's
in-memory catalog (a Cypher projection, undirected: a relation links both ways for ranking,
grouping and paths), runs one algorithm, and drops the projection in `finally` (each holds heap
even when small). The projection's name is built from the scope's tenant and a fresh id, so calls
never share or touch another's. Before projecting, the sizes and then the memory the projection
and the algorithm need are checked against settings.GRAPH_ALGORITHMS (GraphTooLarge otherwise).

Relation properties in the projection: `weight` (the relation's weight, 1.0 when absent) and
`cost` (1 / weight: heavier relations are shorter, for paths).

A `View` narrows the projection: the relations of one predicate (or of a list), the entities of
some kinds, the direction kept (for
PageRank and betweenness), episodes ABOUT entities added as nodes (records), or one time `at`:
then only the entities created by then and the relations that held then (`valid_from <= at <
valid_to`, a missing end open) are projected, and no record.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from neo4j.exceptions import Neo4jError

from apps.graph import cypher
from apps.graph.scope import Scope

SIZE_AND_ESTIMATE = """
MATCH (e:Entity {tenant: $tenant, status: 'active'})
WITH count(e) AS entities,
     sum(COUNT { (e)-[:RELATED_TO]->(:Entity {tenant: $tenant, status: 'active'}) }) AS relations
OPTIONAL MATCH (ep:Episode {tenant: $tenant}) WHERE $episodes AND $at IS NULL
WITH entities, relations, count(ep) AS episodes,
     sum(COUNT { (ep)-[:ABOUT]->(:Entity {tenant: $tenant}) }) AS abouts
WITH entities + episodes AS nodes, relations + abouts AS relations
CALL gds.graph.project.estimate('*', '*', {nodeCount: nodes, relationshipCount: relations})
YIELD bytesMax
RETURN nodes, relations, bytesMax
"""
# The relation test is the windows' rule agreed with the timeline (issue 15); a missing end is
# open, so relations written without windows always hold.
PROJECT = """
CALL () {
  MATCH (s:Entity {tenant: $tenant, status: 'active'})
  WHERE ($at IS NULL OR s.created_at <= $at) AND ($kinds IS NULL OR s.kind IN $kinds)
  OPTIONAL MATCH (s)-[r:RELATED_TO]->(t:Entity {tenant: $tenant, status: 'active'})
  WHERE ($predicate IS NULL OR r.predicate = $predicate) AND ($kinds IS NULL OR t.kind IN $kinds)
    AND ($predicates IS NULL OR r.predicate IN $predicates)
    AND ($at IS NULL OR (t.created_at <= $at
                         AND (r.valid_from IS NULL OR r.valid_from <= $at)
                         AND (r.valid_to IS NULL OR r.valid_to > $at)))
  RETURN s, t, toFloat(coalesce(r.weight, 1.0)) AS weight
  UNION ALL
  MATCH (s:Episode {tenant: $tenant})-[:ABOUT]->(t:Entity {tenant: $tenant, status: 'active'})
  WHERE $episodes AND $at IS NULL AND ($kinds IS NULL OR t.kind IN $kinds)
  RETURN s, t, 1.0 AS weight
}
WITH gds.graph.project($tenant + '/' + $call, s, t,
       {relationshipProperties: {weight: weight,
                                 cost: CASE WHEN weight > 0 THEN 1.0 / weight ELSE 1.0 END}},
       {undirectedRelationshipTypes: $undirected}) AS g
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
RETURN e.uid AS uid, componentId AS group, e.name AS name, e.type AS type,
       coalesce(e.title, '') AS title, e.created_at AS created_at,
       'Episode' IN labels(e) AS record
"""
LEIDEN_ESTIMATE = """
CALL gds.leiden.stream.estimate($tenant + '/' + $call, {concurrency: $concurrency,
  randomSeed: $seed, relationshipWeightProperty: $weight_property})
YIELD bytesMax RETURN bytesMax
"""
# GDS's Leiden fails (a NullPointerException) on a projection without relationships, as a
# tenant of entities and no relation has (issue 38): there every node is a community of its
# own, which is what WCC answers on it.
LEIDEN = """
CALL gds.graph.list($tenant + '/' + $call) YIELD relationshipCount
CALL (relationshipCount) {
  WITH relationshipCount WHERE relationshipCount > 0
  CALL gds.leiden.stream($tenant + '/' + $call, {concurrency: $concurrency, randomSeed: $seed,
    relationshipWeightProperty: $weight_property})
  YIELD nodeId, communityId
  RETURN nodeId, communityId
  UNION ALL
  WITH relationshipCount WHERE relationshipCount = 0
  CALL gds.wcc.stream($tenant + '/' + $call, {concurrency: $concurrency})
  YIELD nodeId, componentId
  RETURN nodeId, componentId AS communityId
}
WITH gds.util.asNode(nodeId) AS e, communityId WHERE e.tenant = $tenant
RETURN e.uid AS uid, communityId AS group
"""
# PageRank over the whole projection, scaled so the scores of all nodes add up to 1 (GDS's
# scores add up to about the number of nodes). Near-equal scores are equal: the oldest first.
RANK_ESTIMATE = """
CALL gds.pageRank.stream.estimate($tenant + '/' + $call, {dampingFactor: $damping,
  maxIterations: $iterations, tolerance: $tolerance, concurrency: $concurrency})
YIELD bytesMax RETURN bytesMax
"""
RANK = """
CALL gds.pageRank.stream($tenant + '/' + $call, {dampingFactor: $damping,
  maxIterations: $iterations, tolerance: $tolerance, concurrency: $concurrency})
YIELD nodeId, score
WITH collect([nodeId, score]) AS rows, sum(score) AS total
UNWIND rows AS row
WITH gds.util.asNode(row[0]) AS e, row[1] / total AS score WHERE e.tenant = $tenant
RETURN e.uid AS uid, e.name AS name, e.type AS type, e.created_at AS created_at, score
ORDER BY round(score, 9) DESC, created_at, uid LIMIT $limit
"""
# Every node's score, unsorted, in the order GDS streams it: for a whole ranking the sort and the
# sum are done by the caller. (ORDER BY ... LIMIT over every node held hundreds of MB of Neo4j's
# transaction memory for 5,000 nodes and exhausted its pool: bench/graph_insights.py.)
RANK_ALL = """
CALL gds.pageRank.stream($tenant + '/' + $call, {dampingFactor: $damping,
  maxIterations: $iterations, tolerance: $tolerance, concurrency: $concurrency})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS e, score WHERE e.tenant = $tenant
RETURN e.uid AS uid, e.name AS name, e.type AS type, e.created_at AS created_at, score
"""
# Brandes' count along the projection's direction; from `$sample` sources when set.
BETWEENNESS_ESTIMATE = """
CALL gds.betweenness.stream.estimate($tenant + '/' + $call,
  CASE WHEN $sample IS NULL THEN {concurrency: $concurrency}
       ELSE {samplingSize: $sample, samplingSeed: $seed, concurrency: $concurrency} END)
YIELD bytesMax RETURN bytesMax
"""
BETWEENNESS = """
CALL gds.betweenness.stream($tenant + '/' + $call,
  CASE WHEN $sample IS NULL THEN {concurrency: $concurrency}
       ELSE {samplingSize: $sample, samplingSeed: $seed, concurrency: $concurrency} END)
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS e, score * $scale AS score WHERE e.tenant = $tenant
RETURN e.uid AS uid, e.name AS name, e.type AS type, e.created_at AS created_at, score
ORDER BY round(score, 6) DESC, created_at, uid LIMIT $limit
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
    """The tenant's graph, or the memory an algorithm needs on it, is over the set bounds;
    `limit` is the bound broken and `setting` where it is set."""

    def __init__(self, message: str, *, limit: int = 0, setting: str = "") -> None:
        super().__init__(message)
        self.limit, self.setting = limit, setting


class GraphOutOfMemory(RuntimeError):
    """Neo4j refused memory a projection or an algorithm asked for although the estimates were
    within bounds: its transaction memory (one transaction's limit or the pool all share) or
    GDS's guard of the free heap. Other work holds that memory for now."""


# Neo4j's codes for a transaction over its own limit and for the shared pool being full.
MEMORY_CODES = frozenset({"Neo.ClientError.General.TransactionOutOfMemoryError",
                          "Neo.TransientError.General.MemoryPoolOutOfMemoryError"})  # fmt: skip
PROCEDURE_FAILED = "Neo.ClientError.Procedure.ProcedureCallFailed"


def memory_read(scope: Scope, query: str, **params) -> list[dict]:
    """cypher.read, with Neo4j's refusals of memory raised as GraphOutOfMemory."""
    try:
        return cypher.read(scope, query, **params)
    except Neo4jError as exc:
        message = str(exc.message or "")
        if exc.code in MEMORY_CODES or (
            exc.code == PROCEDURE_FAILED and "memory" in message.lower()
        ):
            raise GraphOutOfMemory(message) from exc
        raise


@dataclass(frozen=True)
class View:
    """Which part of the tenant's graph a projection holds (see the module's docstring)."""

    at: datetime | None = None
    predicate: str | None = None
    directed: bool = False
    episodes: bool = False
    kinds: tuple[str, ...] | None = None  # entities of these kinds only (groups of kinds)
    predicates: tuple[str, ...] | None = None  # relations of these predicates only

    def params(self) -> dict:
        return {"at": self.at, "predicate": self.predicate, "episodes": self.episodes,
                "kinds": list(self.kinds) if self.kinds else None,
                "predicates": list(self.predicates) if self.predicates else None,
                "undirected": [] if self.directed else ["*"]}  # fmt: skip


WHOLE = View()


def _bounds() -> dict:
    return settings.GRAPH_ALGORITHMS


def memory_limit_mb(scope: Scope) -> int:
    """The memory one projection or algorithm may need: the tenant's `graph_memory_mb` setting,
    never over the deployment's GRAPH_ALGORITHMS bound."""
    tenant_mb = scope.setting("graph_memory_mb")
    deployment_mb = _bounds()["max_memory_mb"]
    return deployment_mb if tenant_mb is None else min(int(tenant_mb), deployment_mb)


def graph_size(scope: Scope, view: View = WHOLE) -> dict:
    """{nodes, relations, bytesMax}: an upper bound of what `view` would project, and the memory
    the projection needs (GDS's estimate), read without projecting."""
    return memory_read(scope, SIZE_AND_ESTIMATE, at=view.at, episodes=view.episodes)[0]


def check_graph_size(size: dict, what: str = "entities") -> None:
    """GraphTooLarge when {nodes, relations} is over the deployment's GRAPH_ALGORITHMS bounds."""
    bounds = _bounds()
    if size["nodes"] > bounds["max_nodes"] or size["relations"] > bounds["max_relations"]:
        raise GraphTooLarge(
            f"{size['nodes']} {what} and {size['relations']} relations; the bounds are "
            f"{bounds['max_nodes']} and {bounds['max_relations']} (GRAPH_ALGORITHMS).",
            limit=bounds["max_nodes"], setting="GRAPH_ALGORITHMS",
        )  # fmt: skip


@contextmanager
def projected(scope: Scope, project: str, *, bytes_max: int, **params) -> Iterator[str | None]:
    """Run `project`, a Cypher projection that names its graph `$tenant + '/' + $call` and
    returns `nodes`, after checking the memory it needs (`bytes_max`) against the tenant's
    bound; yields the call id (None when no node was projected) and drops the projection on the
    way out, whatever happened. The one place a projection is made and dropped: the entity
    graph here, the work graph in apps/tasks/context.py."""
    _check_memory(scope, bytes_max, "projecting the graph")
    call = uuid.uuid4().hex
    try:
        rows = memory_read(scope, project, call=call, **params)
        yield call if rows and rows[0]["nodes"] else None
    finally:
        memory_read(scope, DROP, call=call)


@contextmanager
def tenant_projection(scope: Scope, view: View = WHOLE) -> Iterator[str | None]:
    """The tenant's entity graph (as `view` says) in GDS's catalog for the duration of the
    block; yields the call id that, with the tenant, names it (None when no node was projected).
    Dropped on the way out, whatever happened."""
    size = graph_size(scope, view)
    check_graph_size(size)
    with projected(scope, PROJECT, bytes_max=size["bytesMax"], **view.params()) as call:
        yield call


def _check_memory(scope: Scope, bytes_max: int, what: str) -> None:
    limit_mb = memory_limit_mb(scope)
    if bytes_max > limit_mb * 1024 * 1024:
        raise GraphTooLarge(
            f"{what} needs up to {-(-bytes_max // 1024 // 1024)} MB; the tenant's bound is "
            f"{limit_mb} MB (graph_memory_mb).",
            limit=limit_mb, setting="graph_memory_mb",
        )  # fmt: skip


def _runs(scope: Scope, view: View, steps: list[tuple[str, str]], **params) -> list[list[dict]]:
    """Each (estimate, stream) pair on one projection: every estimate is checked first."""
    params["concurrency"] = _bounds()["concurrency"]
    with tenant_projection(scope, view) as call:
        if call is None:  # nothing to project (no entity, or none existed at the time)
            return [[] for _ in steps]
        for estimate, _ in steps:
            rows = memory_read(scope, estimate, call=call, **params)
            if not rows:  # a source or target not in the tenant's graph
                return [[] for _ in steps]
            _check_memory(scope, rows[0]["bytesMax"], "the algorithm")
        return [memory_read(scope, stream, call=call, **params) for _, stream in steps]


def _run(scope: Scope, estimate: str, stream: str, view: View = WHOLE, **params) -> list[dict]:
    return _runs(scope, view, [(estimate, stream)], **params)[0]


PAGERANK_PARAMS = {"damping": 0.85, "iterations": 100, "tolerance": 1e-7}


def personalized_pagerank(
    scope: Scope, seeds: list[str], *, limit: int = 20, weighted: bool = False
) -> list[dict]:
    """Entities ranked by PageRank personalized to the `seeds` entities (seed 000's spreading
    from what a question names): [{uid, score}], highest first."""
    return _run(scope, PAGERANK_ESTIMATE, PAGERANK, seeds=list(seeds), limit=limit,
                **PAGERANK_PARAMS,
                weight_property="weight" if weighted else None)  # fmt: skip


def pagerank(scope: Scope, view: View = WHOLE, *, limit: int = 20) -> list[dict]:
    """PageRank over the nodes of `view` (directed when it says so), scores adding up to 1 over
    all nodes: the `limit` highest [{uid, name, type, created_at, score}], the oldest first
    among equals. A node nothing points at keeps 0.15 before scaling (GDS: no teleport of a
    dangling node's score)."""
    return _run(scope, RANK_ESTIMATE, RANK, view, limit=limit, **PAGERANK_PARAMS)


def betweenness(scope: Scope, view: View, *, sample: int | None, limit: int, seed: int = 42
                ) -> list[dict]:  # fmt: skip
    """Brandes' betweenness along `view`'s direction, from `sample` source nodes (all when
    None), scaled by nodes / sample so a sampled score estimates the exact one."""
    size = graph_size(scope, view)
    scale = 1.0 if sample is None or sample >= size["nodes"] else size["nodes"] / sample
    return _run(scope, BETWEENNESS_ESTIMATE, BETWEENNESS, view, sample=sample, seed=seed,
                scale=scale, limit=limit)  # fmt: skip


def connected_groups(scope: Scope, view: View = WHOLE) -> dict[str, int]:
    """Weakly connected components: {uid: group id}; entities linked by any path share one."""
    return {row["uid"]: row["group"] for row in connected_nodes(scope, view)}


def connected_nodes(scope: Scope, view: View = WHOLE) -> list[dict]:
    """Weakly connected components, a row per node: {uid, group, name, type, title,
    created_at, record} (record: an episode of `view.episodes`)."""
    return _run(scope, WCC_ESTIMATE, WCC, view)


def communities(scope: Scope, *, weighted: bool = True, seed: int = 42) -> dict[str, int]:
    """Leiden communities: {uid: community id}, densely related entities together."""
    rows = _run(scope, LEIDEN_ESTIMATE, LEIDEN, seed=seed,
                weight_property="weight" if weighted else None)  # fmt: skip
    return {row["uid"]: row["group"] for row in rows}


def ranked_communities(scope: Scope, view: View = WHOLE, *, seed: int = 42
                       ) -> tuple[dict[str, int], list[dict]]:  # fmt: skip
    """Leiden communities (weighted, undirected) and PageRank of every node, on one projection:
    ({uid: community id}, [{uid, name, type, created_at, score}] highest first)."""
    leiden, ranks = _runs(scope, view, [(LEIDEN_ESTIMATE, LEIDEN), (RANK_ESTIMATE, RANK_ALL)],
                          seed=seed, weight_property="weight", **PAGERANK_PARAMS)  # fmt: skip
    total = sum(row["score"] for row in ranks) or 1.0
    for row in ranks:
        row["score"] /= total
    ranks.sort(key=_rank_key)
    return {row["uid"]: row["group"] for row in leiden}, ranks


def _rank_key(row: dict) -> tuple:
    """As RANK orders: the highest score first, near-equal ones equal, then the oldest."""
    created = row["created_at"]
    native = created.to_native() if hasattr(created, "to_native") else created
    return (-round(row["score"], 9), created is None, native, row["uid"])


def shortest_path(scope: Scope, source: str, target: str) -> dict | None:
    """The cheapest chain of relations between two entities (cost 1/weight per relation):
    {uids: [source, ..., target], cost}, or None when they are not connected."""
    rows = _run(scope, DIJKSTRA_ESTIMATE, DIJKSTRA, source=source, target=target)
    return {"uids": rows[0]["uids"], "cost": rows[0]["cost"]} if rows else None
