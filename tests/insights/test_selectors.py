"""Each whole-graph algorithm against networkx on the relations the test wrote, now (every
relation ever true) and at two times (only what held then), in a tenant beside another holding
the same graph (never counted)."""

import networkx as nx
import pytest

from apps.graph import cypher
from apps.insights import selectors
from memoryproject.api_errors import ApplicationError
from tests.conftest import scope_for
from tests.insights.known_graph import CLOSED, T1, T2, gds_pagerank, known_graph_write, known_nx

TIMES = [None, T1, T2]


@pytest.fixture
def known(make_tenant):
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    known_graph_write(other)
    return mine, known_graph_write(mine)


def _names(uids, prefix):
    return [uid.removeprefix(prefix) for uid in uids]


def _projections(scope) -> list[str]:
    rows = cypher.read(scope, "CALL gds.graph.list() YIELD graphName "
                              "WITH graphName WHERE graphName STARTS WITH $tenant "
                              "RETURN graphName")  # fmt: skip
    return [r["graphName"] for r in rows]


@pytest.mark.slow
@pytest.mark.parametrize("at", TIMES)
def test_groups_important_and_between_match_networkx(known, at):
    scope, prefix = known
    graph = known_nx(at)

    groups = selectors.graph_groups(scope, at=at, limit=100, members=100)
    found = {frozenset(_names([m["uid"] for m in g["members"]], prefix)) for g in groups["groups"]}
    assert found == {frozenset(c) for c in nx.weakly_connected_components(graph)}
    assert groups["nodes"] == graph.number_of_nodes()
    sizes = [g["size"] for g in groups["groups"]]
    assert sizes == sorted(sizes, reverse=True)

    important = selectors.graph_important(scope, at=at, limit=100)
    got = {r["uid"].removeprefix(prefix): r["score"] for r in important["results"]}
    expected = gds_pagerank(graph)
    assert set(got) == set(expected)
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-6)
    for name, score in expected.items():
        assert got[name] == pytest.approx(score, abs=5e-4), name

    between = selectors.graph_between(scope, at=at, limit=100)
    assert between["exact"] and between["sample"] is None
    brandes = nx.betweenness_centrality(nx.DiGraph(graph), normalized=False)
    got = {r["uid"].removeprefix(prefix): r["score"] for r in between["results"]}
    for name, score in brandes.items():
        assert got[name] == pytest.approx(score, abs=1e-6), name
    assert not _projections(scope)


@pytest.mark.slow
def test_one_predicate_and_the_time_change_the_answers(known):
    scope, prefix = known
    works_for = selectors.graph_important(scope, predicate="works_for", limit=100)
    expected = gds_pagerank(known_nx(predicate="works_for"))
    got = {r["uid"].removeprefix(prefix): r["score"] for r in works_for["results"]}
    for name, score in expected.items():
        assert got[name] == pytest.approx(score, abs=5e-4), name
    # The bridge A4 -> B1 held at T1 and no longer at T2: one group then, two after.
    at_t1 = selectors.graph_groups(scope, at=T1, limit=100, members=100)["groups"]
    at_t2 = selectors.graph_groups(scope, at=T2, limit=100, members=100)["groups"]
    assert at_t1[0]["size"] == 8 and at_t2[0]["size"] == 5  # B1..B4 and E1, created late


@pytest.mark.slow
def test_ties_go_to_the_oldest_and_a_sample_is_stated(known, settings):
    scope, prefix = known
    ranked = selectors.graph_important(scope, at=T1, limit=100)["results"]
    # C1 and C2 (no relation at T1) and D1 tie; their uids sort as their names, all as old.
    tail = [r["uid"].removeprefix(prefix) for r in ranked if r["uid"].endswith(("C1", "C2", "D1"))]
    assert tail == ["C1", "C2", "D1"]
    assert selectors.graph_important(scope, at=T1, limit=100)["results"] == ranked

    settings.GRAPH_ALGORITHMS = {**settings.GRAPH_ALGORITHMS, "betweenness_steps": 1,
                                 "betweenness_min_sample": 4}  # fmt: skip
    sampled = selectors.graph_between(scope, limit=5)
    assert sampled["exact"] is False and sampled["sample"] == 4 and sampled["nodes"] == 12
    # A caller's sample: how many sources; as many as the graph has nodes is the exact count.
    chosen = selectors.graph_between(scope, limit=5, sample=6)
    assert chosen["exact"] is False and chosen["sample"] == 6
    whole = selectors.graph_between(scope, limit=100, sample=12)
    assert whole["exact"] is True and whole["sample"] is None
    with pytest.raises(ApplicationError) as bad:
        selectors.graph_between(scope, sample=0)
    assert bad.value.field == "sample"


@pytest.mark.slow
@pytest.mark.parametrize("at", [None, T1])
def test_communities_are_named_by_their_most_important_members(known, at):
    scope, prefix = known
    answer = selectors.graph_communities(scope, at=at, limit=100)
    found = {frozenset(_names([m["uid"] for m in c["members"]], prefix)) for c in answer["communities"]
             if c["size"] <= 3}  # fmt: skip
    assert sum(c["size"] for c in answer["communities"]) == known_nx(at).number_of_nodes()
    undirected = nx.Graph()
    undirected.add_nodes_from(known_nx(at))
    for s, o, data in known_nx(at).edges(data=True):
        w = undirected.get_edge_data(s, o, {"weight": 0})["weight"]
        undirected.add_edge(s, o, weight=w + data["weight"])
    louvain = {frozenset(c) for c in nx.community.louvain_communities(undirected, weight="weight",
                                                                      seed=42)}  # fmt: skip
    sizes = sorted((len(c) for c in louvain), reverse=True)
    assert [c["size"] for c in answer["communities"]] == sizes
    assert found <= louvain  # communities of up to three are named by all their members
    # Named by PageRank on Leiden's projection, where a relation links both ways.
    both_ways = known_nx(at)
    both_ways.add_edges_from([(o, s) for s, o in known_nx(at).edges()])
    ranks = gds_pagerank(both_ways)
    for community in answer["communities"]:
        named = _names([m["uid"] for m in community["members"]], prefix)
        assert [ranks[n] for n in named] == sorted((ranks[n] for n in named), reverse=True)
        assert community["name"] == ", ".join(named)
    b1 = selectors.entity_community(scope, uid=prefix + "B1", at=at)
    assert b1["size"] >= 4
    assert selectors.entity_community(scope, uid="nobody", at=at) is None
    assert not _projections(scope)
    assert CLOSED  # the bridge's end is a time of the known graph
