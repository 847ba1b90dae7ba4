"""The agent API of kinds and rows."""

from __future__ import annotations

from apps.graph.write_failures import write_failures_list
from tests.conftest import scope_for
from tests.timeline.conftest import DEVICE, ROOM, TEAM, row

T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"


def declare(client):
    for kind in (ROOM, TEAM, DEVICE):
        assert client.post("/api/v1/kinds", kind, format="json").status_code in (200, 201)


def test_kinds_rows_and_a_partial_update(tenant, api_client):
    declare(api_client)
    assert [k["name"] for k in api_client.get("/api/v1/kinds").json()["results"]] == [
        "Device", "Room", "Team"]  # fmt: skip
    rows = [row("d1", T1, status="ok", relations={"LOCATED_IN": "r1"}), row("d1", T1, status="ok")]
    got = api_client.post("/api/v1/rows", {"rows": rows}, format="json")
    assert got.status_code == 200
    assert [r["status"] for r in got.json()["receipts"]] == ["created", "refused"]
    patch = api_client.patch("/api/v1/rows/Device/d1", {"t": T2, "values": {"temp": 40}},
                             format="json")  # fmt: skip
    assert patch.status_code == 200 and patch.json()["status"] == "changed"
    stale = api_client.patch("/api/v1/rows/Device/d1", {"t": T1, "values": {"temp": 1}},
                             format="json")  # fmt: skip
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"


def test_bad_rows_are_400_with_field_and_limit_and_recorded(tenant, api_client):
    declare(api_client)
    naive = api_client.post("/api/v1/rows", {"rows": [row("d1", "2026-01-01T00:00:00")]},
                            format="json")  # fmt: skip
    assert naive.status_code == 400 and naive.json()["error"]["field"] == "rows[0].t"
    many = api_client.post("/api/v1/rows", {"rows": [row("d", T1)] * 501}, format="json")
    assert many.status_code == 400 and "rows" in many.json()["error"]["fields"]
    bad_kind = api_client.post("/api/v1/kinds", {"name": "lower", "key": "k"}, format="json")
    assert bad_kind.status_code == 400 and bad_kind.json()["error"]["field"] == "name"
    changed_key = api_client.post("/api/v1/kinds", {**ROOM, "key": "other"}, format="json")
    assert changed_key.status_code == 409
    assert {f["kind"] for f in write_failures_list(scope_for(tenant))} >= {"row", "kind"}


def test_keys_need_their_scopes(tenant, make_api_client):
    reader = make_api_client(tenant, scopes=["memory:read"])
    writer = make_api_client(tenant, scopes=["memory:write"])
    assert reader.post("/api/v1/rows", {"rows": [row("d1", T1)]}, format="json").status_code == 403
    assert writer.post("/api/v1/kinds", ROOM, format="json").status_code == 403
    assert reader.get("/api/v1/kinds").status_code == 200


def test_another_tenants_kinds_and_entities_are_out_of_reach(tenant, api_client, make_tenant,
                                                            make_api_client):  # fmt: skip
    declare(api_client)
    api_client.post("/api/v1/rows", {"rows": [row("d1", T1, status="ok")]}, format="json")
    other = make_api_client(make_tenant())
    assert other.get("/api/v1/kinds").json()["results"] == []
    assert other.post("/api/v1/rows", {"rows": [row("d1", T1)]}, format="json").status_code == 400
    assert other.patch("/api/v1/rows/Device/d1", {"t": T2}, format="json").status_code == 404
