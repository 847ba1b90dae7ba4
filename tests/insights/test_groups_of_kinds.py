"""groups filtered by kinds and by relations (seed 001: groups(graph, [DEVICE], ["ABOUT"])):
the entities of the kinds named, joined by the relations named only."""

from __future__ import annotations

from apps.insights import selectors
from apps.timeline.services import check_rows_write
from tests.timeline.conftest import kinds_declare, row

T1 = "2026-01-01T00:00:00Z"


def keyed(group: dict) -> set[str]:
    return {m["name"] for m in group["members"]}


def test_groups_of_some_kinds_joined_by_some_relations(scope, api_client):
    kinds_declare(scope)
    check_rows_write(scope, rows=[
        row("d1", T1, relations={"LOCATED_IN": "r1", "USED_BY": ["red"]}),
        row("d2", T1, relations={"LOCATED_IN": "r1"}),
        row("d3", T1, relations={"USED_BY": ["red"]}),
    ])  # fmt: skip
    every = selectors.graph_groups(scope, limit=50, members=50)["groups"]
    assert [keyed(g) for g in every] == [{"d1", "d2", "d3", "r1", "red"}]
    rooms = selectors.graph_groups(scope, relations=["LOCATED_IN"], limit=50, members=50)
    assert [keyed(g) for g in rooms["groups"]][0] == {"d1", "d2", "r1"}
    assert {"d3"} in [keyed(g) for g in rooms["groups"]]
    devices = selectors.graph_groups(scope, kinds=["Device", "Room"], limit=50, members=50)
    assert sorted(map(sorted, (keyed(g) for g in devices["groups"]))) == [
        ["d1", "d2", "r1"], ["d3"]]  # fmt: skip
    assert devices["nodes"] == 4  # the teams are left out
    got = api_client.get("/api/v1/graph/groups", {"kinds": "Device,Room", "limit": 50,
                                                  "members": 50})  # fmt: skip
    assert got.status_code == 200 and got.json()["nodes"] == 4
