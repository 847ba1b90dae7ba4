"""Graph algorithms through GDS on a tenant's entity graph, checked against networkx on the same
known graph: Personalized PageRank, connected groups (WCC), Leiden communities, Dijkstra."""

import uuid

import networkx as nx
import pytest

from apps.graph import algorithms, cypher
from tests.conftest import scope_for

# Two dense groups joined by one bridge (A4-B1), a separate pair, a lone entity. Weights make
# the cheapest path (cost 1/weight) differ from the one with fewest hops.
EDGES = [
    ("A1", "A2", 2.0), ("A1", "A3", 1.0), ("A1", "A4", 0.5), ("A2", "A3", 1.0),
    ("A2", "A4", 2.0), ("A3", "A4", 1.0), ("A4", "B1", 1.0), ("B1", "B2", 1.0),
    ("B1", "B3", 1.0), ("B1", "B4", 0.25), ("B2", "B3", 1.0), ("B2", "B4", 1.0),
    ("B3", "B4", 1.0), ("C1", "C2", 1.0),
]  # fmt: skip
NAMES = sorted({n for a, b, _ in EDGES for n in (a, b)} | {"D1"})

GRAPH = """
UNWIND $names AS name
CREATE (:Entity {uid: $prefix + name, tenant: $tenant, name: name, type: 'Object',
                 status: 'active', aliases: []})
WITH count(*) AS made
UNWIND $edges AS edge
MATCH (a:Entity {tenant: $tenant, uid: $prefix + edge[0]}),
      (b:Entity {tenant: $tenant, uid: $prefix + edge[1]})
CREATE (a)-[:RELATED_TO {tenant: $tenant, weight: edge[2], predicate: 'near'}]->(b)
RETURN count(*) AS n
"""


def _graph_in(scope) -> str:
    prefix = uuid.uuid4().hex[:8] + "-"
    cypher.write(scope, GRAPH, names=NAMES, prefix=prefix,
                 edges=[[a, b, w] for a, b, w in EDGES])  # fmt: skip
    return prefix


def _nx() -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(NAMES)
    for a, b, w in EDGES:
        graph.add_edge(a, b, weight=w, cost=1.0 / w)
    return graph


def _partition(groups: dict[str, int], prefix: str) -> set[frozenset[str]]:
    by_group: dict[int, set[str]] = {}
    for uid, group in groups.items():
        by_group.setdefault(group, set()).add(uid.removeprefix(prefix))
    return {frozenset(members) for members in by_group.values()}


def _projections() -> list[str]:
    rows = cypher.system_query("CALL gds.graph.list() YIELD graphName RETURN graphName")
    return [r["graphName"] for r in rows]


@pytest.fixture
def two_tenants(make_tenant):
    """The known graph in one tenant, and the same graph again in another (never counted)."""
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    _graph_in(other)
    return mine, _graph_in(mine)


@pytest.mark.slow
def test_algorithms_match_networkx_and_leave_no_projection(two_tenants):
    scope, prefix = two_tenants
    graph = _nx()

    ranked = algorithms.personalized_pagerank(scope, [prefix + "A1"], limit=len(NAMES))
    expected = nx.pagerank(
        graph, alpha=0.85, personalization={"A1": 1.0}, weight=None, tol=1e-12, max_iter=10_000
    )
    total = sum(row["score"] for row in ranked)
    got = {row["uid"].removeprefix(prefix): row["score"] / total for row in ranked}
    assert set(got) == {n for n, score in expected.items() if score > 1e-9}
    for name, score in got.items():
        assert score == pytest.approx(expected[name], abs=1e-4), name
    assert ranked[0]["uid"] == prefix + "A1"

    groups = algorithms.connected_groups(scope)
    assert len(groups) == len(NAMES)  # the other tenant's copy is not in the projection
    assert _partition(groups, prefix) == {frozenset(c) for c in nx.connected_components(graph)}

    found = _partition(algorithms.communities(scope), prefix)
    louvain = nx.community.louvain_communities(graph, weight="weight", seed=42)
    assert found == {frozenset(c) for c in louvain}
    assert {"A1", "A2", "A3", "A4"} in found and {"B1", "B2", "B3", "B4"} in found

    path = algorithms.shortest_path(scope, prefix + "A1", prefix + "B4")
    # B2 and B3 tie on the way to B4: any of the cheapest chains is right.
    cheapest = [list(p) for p in nx.all_shortest_paths(graph, "A1", "B4", weight="cost")]
    assert [uid.removeprefix(prefix) for uid in path["uids"]] in cheapest
    assert path["cost"] == pytest.approx(nx.dijkstra_path_length(graph, "A1", "B4", weight="cost"))
    assert algorithms.shortest_path(scope, prefix + "A1", prefix + "D1") is None

    assert not [name for name in _projections() if name.startswith(scope.tenant)]


@pytest.mark.slow
def test_a_graph_over_the_memory_bound_is_refused_before_projecting(two_tenants, settings):
    scope, prefix = two_tenants
    settings.GRAPH_ALGORITHMS = {**settings.GRAPH_ALGORITHMS, "max_memory_mb": 0}
    with pytest.raises(algorithms.GraphTooLarge, match="MB"):
        algorithms.connected_groups(scope)
    settings.GRAPH_ALGORITHMS = {**settings.GRAPH_ALGORITHMS, "max_nodes": 3}
    with pytest.raises(algorithms.GraphTooLarge, match="entities"):
        algorithms.connected_groups(scope)
    assert not [name for name in _projections() if name.startswith(scope.tenant)]
