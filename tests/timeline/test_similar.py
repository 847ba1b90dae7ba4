"""Recall by shared relations: similar() ranks entities of the kind by the targets they share,
rare targets first, says through which, finds entities of the past, and stays in its tenant."""

from __future__ import annotations

import pytest

from apps.timeline.services import check_rows_write
from apps.timeline.similar import similar
from memoryproject.api_errors import ApplicationError, NotFoundError
from tests.conftest import scope_for
from tests.timeline.conftest import kinds_declare, row

T1, T2, T3 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"


def devices(scope) -> None:
    # d1 is in r1, used by red and blue. d2 shares r1 and red; d3 shares only blue; the hub team
    # "all" is used by every device, so sharing it says little.
    check_rows_write(scope, rows=[
        row("d1", T1, relations={"LOCATED_IN": "r1", "USED_BY": ["red", "blue", "all"]}),
        row("d2", T1, relations={"LOCATED_IN": "r1", "USED_BY": ["red", "all"]}),
        row("d3", T1, relations={"LOCATED_IN": "r3", "USED_BY": ["blue", "all"]}),
        row("d4", T1, relations={"LOCATED_IN": "r4", "USED_BY": ["all"]}),
        row("d5", T1, relations={"LOCATED_IN": "r4", "USED_BY": ["all"]}),
        row("d6", T1, relations={"LOCATED_IN": "r6", "USED_BY": ["all"]}),
        # d9 was in r1 once and moved away: an entity of the past is found by it.
        row("d9", T1, relations={"LOCATED_IN": "r1"}),
        row("d9", T2, relations={"LOCATED_IN": "r9"}),
    ])  # fmt: skip


def test_similar_ranks_by_shared_targets_rare_ones_weighing_most(kinds):
    devices(kinds)
    got = similar(kinds, kind="Device", key="d1")
    keys = [g["key"] for g in got]
    assert keys[0] == "d2"  # r1, red and all
    assert set(keys) == {"d2", "d3", "d4", "d5", "d6", "d9"} and "d1" not in keys
    by_key = {g["key"]: g for g in got}
    assert by_key["d2"]["through"] == [
        {"rel": "LOCATED_IN", "target": "r1"},
        {"rel": "USED_BY", "target": "all"},
        {"rel": "USED_BY", "target": "red"},
    ]
    # One rare team (blue, two users) outweighs one hub (all, six users).
    assert by_key["d3"]["score"] > by_key["d4"]["score"]
    # d9 pointed at r1 in the past: found, through r1, with no current r1 of its own.
    assert by_key["d9"]["through"] == [{"rel": "LOCATED_IN", "target": "r1"}]


def test_through_chooses_the_relation_types_and_is_checked(kinds):
    devices(kinds)
    rooms = similar(kinds, kind="Device", key="d1", through=["LOCATED_IN"])
    assert [g["key"] for g in rooms] == ["d2", "d9"]
    assert all(p["rel"] == "LOCATED_IN" for g in rooms for p in g["through"])
    assert [g["key"] for g in similar(kinds, kind="Device", key="d1", limit=1)] == ["d2"]
    with pytest.raises(ApplicationError) as bad:
        similar(kinds, kind="Device", key="d1", through=["OWNS"])
    assert bad.value.field == "through"
    with pytest.raises(NotFoundError):
        similar(kinds, kind="Nothing", key="d1")
    assert similar(kinds, kind="Device", key="unknown") == []


def test_only_current_relations_of_the_entity_count(kinds):
    check_rows_write(kinds, rows=[
        row("d1", T1, relations={"LOCATED_IN": "r1"}),
        row("d1", T3, relations={"LOCATED_IN": "r2"}),
        row("d2", T1, relations={"LOCATED_IN": "r1"}),
        row("d3", T1, relations={"LOCATED_IN": "r2"}),
    ])  # fmt: skip
    assert [g["key"] for g in similar(kinds, kind="Device", key="d1")] == ["d3"]


def test_another_tenant_is_never_similar(kinds, make_tenant):
    devices(kinds)
    other = scope_for(make_tenant())
    kinds_declare(other)
    check_rows_write(other, rows=[row("x1", T1, relations={"LOCATED_IN": "r1"}),
                                  row("d1", T1, relations={"LOCATED_IN": "r1"})])  # fmt: skip
    assert "x1" not in {g["key"] for g in similar(kinds, kind="Device", key="d1")}
    assert [g["key"] for g in similar(other, kind="Device", key="d1")] == ["x1"]


def test_similar_over_the_api(tenant, api_client):
    kinds_declare(scope_for(tenant))
    devices(scope_for(tenant))
    got = api_client.get("/api/v1/kinds/Device/entities/d1/similar?through=LOCATED_IN&limit=5")
    assert got.status_code == 200
    assert [g["key"] for g in got.json()["results"]] == ["d2", "d9"]
    bad = api_client.get("/api/v1/kinds/Device/entities/d1/similar?through=OWNS")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "through"
    many = api_client.get("/api/v1/kinds/Device/entities/d1/similar?limit=1000")
    assert many.status_code == 400 and "limit" in many.json()["error"]["fields"]
    assert api_client.get("/api/v1/kinds/Nope/entities/d1/similar").status_code == 404


def test_similar_past_its_time_is_a_503(tenant, api_client, settings):
    kinds_declare(scope_for(tenant))
    settings.GRAPH_SEARCH_SECONDS = 1e-9  # gone before the first read
    stopped = api_client.get("/api/v1/kinds/Device/entities/d1/similar")
    assert stopped.status_code == 503
    assert stopped.json()["error"]["code"] == "query_timeout"
    assert "similar" in stopped.json()["error"]["message"]
