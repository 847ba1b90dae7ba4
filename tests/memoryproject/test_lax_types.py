"""Types taken too laxly once (issue 38): a boolean as a number, a time with a trailing NUL,
a kind named like one of the graph's own labels. Each is a 400 naming the field, and nothing of
it is stored."""

from __future__ import annotations

import pytest

from apps.graph.nodes import graph_labels
from tests.timeline.conftest import DEVICE, ROOM, TEAM, row

T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"


def field_of(response, status=400) -> str:
    assert response.status_code == status, response.content[:300]
    return response.json()["error"]["field"]


def test_a_boolean_is_no_strength(api_client):
    task = api_client.post("/api/v1/tasks", {"description": "Why?"}, format="json").json()["id"]
    for flag in (True, False):
        body = {"content": "Seals wear out", "source": "manual", "strength": flag}
        answer = api_client.post(f"/api/v1/tasks/{task}/evidence", body, format="json")
        assert field_of(answer) == "strength"
    # A claim's lease, an integer: true is no 1 either.
    claim = api_client.post("/api/v1/tasks/claim", {"lease_seconds": True}, format="json")
    assert field_of(claim) == "lease_seconds"
    body = {"content": "Seals wear out", "source": "manual", "strength": 1}
    assert api_client.post(f"/api/v1/tasks/{task}/evidence", body, format="json").status_code == 201


@pytest.fixture
def declared(api_client):
    for kind in (ROOM, TEAM, DEVICE):
        assert api_client.post("/api/v1/kinds", kind, format="json").status_code in (200, 201)
    assert api_client.post("/api/v1/rows", {"rows": [row("d1", T1, status="ok")]},
                           format="json").status_code == 200  # fmt: skip
    return api_client


@pytest.mark.parametrize("nul", [T2 + "\x00", "2026-01-02\x0000:00:00Z", T2 + " \x00"])
def test_a_time_with_a_nul_is_refused_by_every_route_that_takes_one(declared, nul):
    api = declared
    rows = api.post("/api/v1/rows", {"rows": [row("d2", nul, status="ok")]}, format="json")
    assert field_of(rows) == "rows[0].t"
    value = api.post("/api/v1/rows", {"rows": [row("d2", T2, last_seen=nul)]}, format="json")
    assert field_of(value) == "rows[0].values.last_seen"
    patch = api.patch("/api/v1/rows/Device/d1", {"t": nul, "values": {"temp": 4}}, format="json")
    assert field_of(patch) == "t"
    laid = [{"kind": "Device", "key": "d1", "values": {"status": "x"}}]
    assert field_of(api.post("/api/v1/what-if", {"at": nul, "rows": laid}, format="json")) == "at"
    history = api.get("/api/v1/kinds/Device/entities/d1/history").json()
    assert len(history["results"]) == 1  # only the row written before the attacks


@pytest.mark.parametrize("name", ["Entity", "Task", "Kind", "State", "Document", "EntrySerial"])
def test_a_kind_is_not_named_like_the_graphs_own_nodes(api_client, name):
    assert name in graph_labels()
    answer = api_client.post("/api/v1/kinds", {"name": name, "key": "code"}, format="json")
    assert field_of(answer) == "name" and answer.json()["error"]["code"] == "reserved"
    assert api_client.get("/api/v1/kinds").json()["results"] == []
