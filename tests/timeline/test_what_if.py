"""what_if against a plain networkx computation of the same graphs (before and after the rows are
laid), with nothing written and another tenant holding the same rows never counted."""

from __future__ import annotations

import datetime as dt

import networkx as nx
import pytest

from apps.graph import cypher
from apps.timeline.services import check_rows_write
from apps.timeline.what_if import what_if
from tests.conftest import scope_for
from tests.insights.known_graph import gds_pagerank
from tests.timeline.conftest import kinds_declare, row

T0, T1 = "2026-01-01T00:00:00Z", "2026-01-03T00:00:00Z"
AT = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
STORED = [  # (device, room, teams)
    ("d1", "r1", ["ta"]), ("d2", "r1", []), ("d3", "r2", []), ("d4", "r3", []), ("d5", "r4", []),
]  # fmt: skip
LAID = [  # d3 moves to r1 (r2 left alone), d4 is used by ta and in no room, d9 is new in r3
    {"kind": "Device", "key": "d3", "relations": {"LOCATED_IN": "r1"}},
    {"kind": "Device", "key": "d4", "relations": {"USED_BY": ["ta"]}},
    {"kind": "Device", "key": "d9", "values": {"status": "new"}, "relations": {"LOCATED_IN": "r3"}},
]
EVERYTHING = """
MATCH (n {tenant: $tenant}) OPTIONAL MATCH (n)-[r]->()
RETURN count(DISTINCT n) AS nodes, count(r) AS edges,
       collect(DISTINCT [n.uid, n.updated_at]) AS seen
"""


def _store(scope) -> None:
    kinds_declare(scope)
    rows = [row(d, T0, relations={"LOCATED_IN": r, "USED_BY": teams}) for d, r, teams in STORED]
    rows.append(row("d5", T1, relations={"LOCATED_IN": "r1"}))  # after AT: not seen
    check_rows_write(scope, rows=rows)


def _nx(laid: bool) -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    for device, room, teams in STORED:
        if laid and device in ("d3", "d4"):
            continue
        graph.add_edges_from([(device, room), *((device, t) for t in teams)])
    if laid:
        graph.add_edges_from([("d3", "r1"), ("d4", "ta"), ("d9", "r3")])
        graph.add_nodes_from(["r2"])  # stays, related to nothing
    return graph


def _gathered(big: nx.MultiDiGraph, small: nx.MultiDiGraph) -> set:
    """Components of `big` that hold nodes of several components of `small` (nodes of `small`
    only), with those parts."""
    out = set()
    for whole in nx.weakly_connected_components(big):
        parts = {frozenset(c & whole) for c in nx.weakly_connected_components(small) if c & whole}
        if len(parts) > 1:
            out.add((frozenset(whole & set(small)), frozenset(parts)))
    return out


def _found(changes: list[dict]) -> set:
    keys = lambda g: frozenset(m["key"] for m in g["members"])  # noqa: E731
    return {(keys(c), frozenset(keys(p) for p in c["parts"])) for c in changes}


@pytest.mark.slow
def test_what_if_matches_networkx_and_writes_nothing(make_tenant):
    mine, other = scope_for(make_tenant()), scope_for(make_tenant())
    _store(other)
    _store(mine)
    other_rows = [{**r, "key": r["key"] + "x"} for r in LAID]
    check_rows_write(other, rows=[{**r, "t": T0} for r in other_rows])
    graph_before = cypher.read(mine, EVERYTHING)

    answer = what_if(mine, at=AT, rows=LAID)

    before, after = _nx(laid=False), _nx(laid=True)
    assert answer["entities"] == {"before": before.number_of_nodes(),
                                  "after": after.number_of_nodes()}  # fmt: skip
    assert _found(answer["joins"]) == _gathered(after, before)
    assert _found(answer["splits"]) == _gathered(before, after)
    assert _found(answer["joins"])  # d3 and d4 join the group of r1 and ta
    assert _found(answer["splits"])  # d3 leaves r2, d4 leaves r3
    ranks_before, ranks_after = gds_pagerank(before), gds_pagerank(after)
    got = {i["key"]: i for i in answer["importance"]}
    for key in after:
        change = ranks_after[key] - ranks_before.get(key, 0.0)
        if abs(change) > 1e-3:
            assert got[key]["before"] == pytest.approx(ranks_before.get(key, 0.0), abs=5e-4)
            assert got[key]["after"] == pytest.approx(ranks_after[key], abs=5e-4)
    changes = [abs(i["change"]) for i in answer["importance"]]
    assert changes == sorted(changes, reverse=True)
    assert cypher.read(mine, EVERYTHING) == graph_before
    projections = cypher.read(mine, "CALL gds.graph.list() YIELD graphName "
                                    "WITH graphName WHERE graphName STARTS WITH $tenant "
                                    "RETURN graphName")  # fmt: skip
    assert not projections


def test_what_if_input_is_bounded_with_the_field(tenant, api_client):
    kinds_declare(scope_for(tenant))
    url = "/api/v1/what-if"
    good = {"at": "2026-01-02T00:00:00Z", "rows": LAID[:1]}
    answer = api_client.post(url, good, format="json")
    assert answer.status_code == 200 and answer.json()["entities"] == {"before": 0, "after": 2}
    cases = [
        ({**good, "rows": LAID[:1] * 51}, "rows"),
        ({**good, "at": "2026-01-02T00:00:00"}, "at"),
        ({**good, "rows": [{**LAID[0], "t": T0}]}, "rows[0].t"),
        ({**good, "rows": [{**LAID[0], "kind": "Nope"}]}, "rows[0].kind"),
        ({**good, "rows": [{**LAID[0], "relations": {"LOCATED_IN": ["r1", "r2"]}}]},
         "rows[0].relations.LOCATED_IN"),
    ]  # fmt: skip
    for body, field in cases:
        refused = api_client.post(url, body, format="json")
        assert refused.status_code == 400, body
        assert refused.json()["error"]["field"] == field, refused.json()
