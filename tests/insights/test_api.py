"""The /api/v1/graph/... operations: answers, bad input, tenants kept apart, the memory bound
(a tenant setting), one heavy run per tenant (429), and no projection left behind."""

import pytest

from apps.graph import algorithms, cypher
from apps.insights.heavy_runs import heavy_run
from tests.conftest import scope_for
from tests.insights.known_graph import known_graph_write

BASE = "/api/v1/graph/"


def _projections(scope) -> list[str]:
    rows = cypher.read(scope, "CALL gds.graph.list() YIELD graphName "
                              "WITH graphName WHERE graphName STARTS WITH $tenant "
                              "RETURN graphName")  # fmt: skip
    return [r["graphName"] for r in rows]


@pytest.fixture
def known(tenant, api_client):
    scope = scope_for(tenant)
    return scope, known_graph_write(scope), api_client


@pytest.mark.slow
def test_each_operation_answers(known):
    scope, prefix, api = known
    groups = api.get(BASE + "groups", {"limit": 2, "members": 3}).json()
    assert groups["total"] == 3 and len(groups["groups"]) == 2  # A-B-E, C, D
    assert groups["groups"][0]["members"][0]["uid"] == prefix + "A1"  # the oldest of equals
    important = api.get(BASE + "important", {"predicate": "near", "limit": 3}).json()
    assert important["predicate"] == "near" and len(important["results"]) == 3
    between = api.get(BASE + "between", {"at": "2025-06-01T00:00:00Z"}).json()
    assert between["exact"] and between["at"].startswith("2025-06-01") and not between["kept"]
    path = api.get(BASE + "connection", {"source": prefix + "A1", "target": prefix + "B2"}).json()
    assert path["found"] and path["length"] == 3
    assert {"source", "target", "holds_now", "since", "until"} <= set(path["steps"][0])
    communities = api.get(BASE + "communities").json()
    assert sum(c["size"] for c in communities["communities"]) == 12
    mine = api.get(BASE + f"entities/{prefix}A2/community").json()
    assert mine["size"] >= 3 and mine["name"]
    assert not _projections(scope)


@pytest.mark.parametrize(
    ("params", "field"),
    [({"limit": 101}, "limit"), ({"at": "yesterday"}, "at"), ({"at": "0001-01-01T00:00:00Z"}, "at"),
     ({"records": "Lesson"}, "records"), ({"members": 0}, "members"), ({"tenant": "x"}, "tenant")],
)  # fmt: skip
def test_bad_input_is_refused_with_its_field(api_client, params, field):
    response = api_client.get(BASE + "groups", params)
    assert response.status_code == 400
    assert field in str(response.json()["error"])


def test_no_key_no_answer(client):
    assert client.get(BASE + "groups").status_code == 401


@pytest.mark.slow
def test_another_tenants_entities_are_not_reached(known, make_tenant):
    scope, prefix, api = known
    theirs = known_graph_write(scope_for(make_tenant()))
    response = api.get(BASE + "connection", {"source": prefix + "A1", "target": theirs + "A1"})
    assert response.status_code == 404 and response.json()["error"]["field"] == "target"
    assert api.get(BASE + f"entities/{theirs}A1/community").status_code == 404
    groups = api.get(BASE + "groups", {"limit": 100, "members": 100}).json()
    uids = [m["uid"] for g in groups["groups"] for m in g["members"]]
    assert len(uids) == 12 and all(u.startswith(prefix) for u in uids)


@pytest.mark.slow
def test_over_the_tenants_memory_bound_is_refused_before_projecting(known, tenant):
    scope, _, api = known
    tenant.settings = {**tenant.settings, "graph_memory_mb": 0}
    tenant.save()
    response = api.get(BASE + "important")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"], error["limit"]) == (
        "graph_too_large",
        "graph_memory_mb",
        0,
    )
    assert "MB" in error["message"]
    assert not _projections(scope)


@pytest.mark.slow
def test_a_second_heavy_run_of_the_tenant_gets_429_and_others_do_not_wait(known, make_tenant,
                                                                         make_api_client):  # fmt: skip
    scope, _, api = known
    with heavy_run(scope):
        response = api.get(BASE + "communities")
        assert response.status_code == 429
        assert response.json()["error"]["code"] == "graph_busy"
        other = make_tenant()
        known_graph_write(scope_for(other))
        assert make_api_client(other).get(BASE + "groups").status_code == 200
    assert api.get(BASE + "communities").status_code == 200


def test_a_projection_is_dropped_even_when_the_block_fails(known):
    scope, _, _ = known
    with pytest.raises(RuntimeError), algorithms.tenant_projection(scope) as call:
        assert _projections(scope) == [f"{scope.tenant}/{call}"]
        raise RuntimeError("an algorithm failed")
    assert not _projections(scope)


def test_communities_of_entities_without_relations(api_client):
    """Issue 38: a kind and one row, no relation; Leiden used to fail on the projection's
    missing weight (a 500). Each lone entity is its own community, now and at a time."""
    kind = {"name": "Room", "key": "code"}
    assert api_client.post("/api/v1/kinds", kind, format="json").status_code in (200, 201)
    rows = {"rows": [{"kind": "Room", "key": "r1", "t": "2026-01-01T00:00:00Z", "values": {}}]}
    receipt = api_client.post("/api/v1/rows", rows, format="json")
    assert receipt.status_code == 200, receipt.content
    for params in ({}, {"at": "2099-06-01T00:00:00Z"}):
        answer = api_client.get(BASE + "communities", params)
        assert answer.status_code == 200, answer.content
        assert [c["size"] for c in answer.json()["communities"]] == [1]
        uid = answer.json()["communities"][0]["id"]
        mine = api_client.get(BASE + f"entities/{uid}/community", params)
        assert mine.status_code == 200, mine.content
        assert mine.json()["size"] == 1
