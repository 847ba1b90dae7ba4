"""The agent API of reads over time, what relied on an entry, and trust."""

from __future__ import annotations

from tests.conftest import scope_for
from tests.timeline.conftest import kinds_declare, row

T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
BASE = "/api/v1/kinds/Device/entities/d1"


def write(tenant):
    from apps.timeline.services import check_rows_write

    scope = scope_for(tenant)
    kinds_declare(scope)
    check_rows_write(scope, rows=[
        row("d1", T1, status="ok", note="pump room", relations={"LOCATED_IN": "r1"}),
        row("d1", T2, status="hot", note="boiler", relations={"LOCATED_IN": "r2"}),
    ])  # fmt: skip
    return scope


def test_reads_over_time(tenant, api_client):
    write(tenant)
    history = api_client.get(f"{BASE}/history?last=1").json()["results"]
    assert [h["values"]["status"] for h in history] == ["hot"]
    as_of = api_client.get(f"{BASE}/as-of?at=2026-01-01T12:00:00%2B00:00").json()["state"]
    assert as_of["values"]["status"] == "ok"
    assert api_client.get(f"{BASE}/related/LOCATED_IN").json()["results"] == ["r2"]
    then = api_client.get(f"{BASE}/related/LOCATED_IN?at=2026-01-01T12:00:00Z").json()
    assert then["results"] == ["r1"]
    pointing = api_client.get("/api/v1/kinds/Room/entities/r2/pointing-at/LOCATED_IN").json()
    assert pointing["results"] == [{"kind": "Device", "key": "d1"}]
    found = api_client.get("/api/v1/kinds/Device/history-search?q=pump").json()["results"]
    assert [(f["key"], f["valid_to"]) for f in found] == [("d1", T2)]
    diff = api_client.get(f"/api/v1/diff?since={T1}&until={T2}").json()
    assert diff["changed"][0]["changes"]["status"] == {"before": "ok", "after": "hot"}


def test_bad_times_are_400_with_the_field(tenant, api_client):
    write(tenant)
    naive = api_client.get(f"{BASE}/as-of?at=2026-01-01T00:00:00")
    assert naive.status_code == 400 and naive.json()["error"]["field"] == "at"
    backwards = api_client.get(f"/api/v1/diff?since={T2}&until={T1}")
    assert backwards.status_code == 400 and backwards.json()["error"]["field"] == "until"
    too_many = api_client.get(f"{BASE}/history?last=1001")
    assert too_many.status_code == 400


def test_invalidate_needs_review_and_reports_impact(tenant, api_client, make_api_client):
    from apps.lessons.services.episodes import check_entry_record, check_episode_open

    scope = write(tenant)
    entry = check_entry_record(scope, episode=check_episode_open(scope)["id"], type="look")["id"]
    writer = make_api_client(tenant, scopes=["memory:read", "memory:write"])
    assert writer.post(f"/api/v1/entries/{entry}/invalidate", {}, format="json").status_code == 403
    marked = api_client.post(f"/api/v1/entries/{entry}/invalidate", {"reason": "wrong"},
                             format="json")  # fmt: skip
    assert marked.status_code == 201 and marked.json()["status"] == "invalidated"
    impact = api_client.get(f"/api/v1/entries/{entry}/impact").json()
    assert impact["entry"]["invalid"] is True and impact["entry"]["reason"] == "wrong"
    assert api_client.get("/api/v1/entries/nope/impact").status_code == 404
    trust = api_client.get(f"/api/v1/agents/{scope.actor}/trust").json()
    assert trust["rates"]["entries"] == {"for": 0, "against": 1, "rate": 1 / 3}


def test_another_tenant_reads_nothing(tenant, make_tenant, make_api_client):
    write(tenant)
    other = make_api_client(make_tenant())
    assert other.get(f"{BASE}/history").json()["results"] == []
    assert other.get(f"{BASE}/as-of?at={T2}").json()["state"] is None
    assert other.get(f"{BASE}/related/LOCATED_IN").json()["results"] == []
    assert other.get("/api/v1/kinds/Device/history-search?q=pump").json()["results"] == []
