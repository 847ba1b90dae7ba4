"""The shortest chain between two entities against networkx, now and at a time, with what each
step says about its relation's window."""

import networkx as nx
import pytest

from apps.insights.connection import graph_connection
from memoryproject.api_errors import NotFoundError
from tests.conftest import scope_for
from tests.insights.known_graph import CLOSED, NAMES, T1, T2, known_graph_write, known_nx


@pytest.fixture
def known(make_tenant):
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    known_graph_write(other)
    return mine, known_graph_write(mine)


@pytest.mark.parametrize("at", [None, T1, T2])
def test_every_pair_gets_a_shortest_chain_of_real_relations(known, at):
    scope, prefix = known
    graph = known_nx(at)
    either_way = nx.Graph(graph.to_undirected())
    for source in ["A1", "B4", "C1"]:
        for target in NAMES:
            if source == target or target not in graph or source not in graph:
                continue
            answer = graph_connection(scope, source=prefix + source, target=prefix + target, at=at)
            if not nx.has_path(either_way, source, target):
                assert not answer["found"], (source, target)
                continue
            assert answer["length"] == nx.shortest_path_length(either_way, source, target)
            chain = [e["uid"].removeprefix(prefix) for e in answer["entities"]]
            assert chain[0] == source and chain[-1] == target
            for step, (a, b) in zip(
                answer["steps"], zip(chain, chain[1:], strict=False), strict=True
            ):
                forward = step["direction"] == "forward"
                assert graph.has_edge(a, b) if forward else graph.has_edge(b, a)
                assert step["predicate"] in {d["predicate"] for d in
                                             (graph.get_edge_data(a, b) or graph.get_edge_data(b, a)).values()}  # fmt: skip
            again = graph_connection(scope, source=prefix + source, target=prefix + target, at=at)
            assert again == answer  # the same chain each time among equals


def test_each_step_says_whether_it_holds_now(known):
    scope, prefix = known
    now = graph_connection(scope, source=prefix + "A4", target=prefix + "B2")
    bridge = now["steps"][0]
    assert (bridge["predicate"], bridge["direction"]) == ("works_for", "forward")
    assert bridge["holds_now"] is False and bridge["until"].startswith(CLOSED.date().isoformat())
    assert now["steps"][1]["holds_now"] is True and now["steps"][1]["until"] is None
    # At T1 the bridge held; at T2 it no longer did and nothing else joins the two groups.
    assert graph_connection(scope, source=prefix + "A4", target=prefix + "B2", at=T1)["found"]
    assert not graph_connection(scope, source=prefix + "A4", target=prefix + "B2", at=T2)["found"]
    with pytest.raises(NotFoundError):  # E1 did not exist yet at T1
        graph_connection(scope, source=prefix + "A1", target=prefix + "E1", at=T1)


def test_an_entity_of_another_tenant_is_not_found(known, make_tenant):
    scope, prefix = known
    other = scope_for(make_tenant())
    theirs = known_graph_write(other)
    with pytest.raises(NotFoundError) as refused:
        graph_connection(scope, source=prefix + "A1", target=theirs + "A2")
    assert refused.value.field == "target"
