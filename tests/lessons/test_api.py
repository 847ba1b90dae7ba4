"""The agent API of episodes, lessons, playbooks, handoffs and promotion."""

from __future__ import annotations

import json

import pytest

from apps.graph.write_failures import write_failures_list
from tests.conftest import scope_for
from tests.lessons.conftest import entity_make

STEPS = [{"do": "check the fan"}]


def closed(client, outcome=None):
    ep = client.post("/api/v1/episodes", {"title": "t"}, format="json").json()["id"]
    client.post(f"/api/v1/episodes/{ep}/entries", {"type": "observation"}, format="json")
    client.post(f"/api/v1/episodes/{ep}/close", {"outcome": outcome or {"ok": True}}, format="json")
    return ep


def test_episode_flow_with_citations_and_no_entry_changes(tenant, api_client):
    d1 = entity_make(scope_for(tenant), "d1")
    opened = api_client.post("/api/v1/episodes", {"key": "d1-hot", "about": [d1]}, format="json")
    assert opened.status_code == 201
    ep = opened.json()["id"]
    first = api_client.post(
        f"/api/v1/episodes/{ep}/entries",
        {
            "type": "observation",
            "values": {"status": "hot"},
            "cites": [{"kind": "entity", "id": d1}],
        },
        format="json",
    )
    assert first.status_code == 201 and first.json()["seq"] == 1
    close = api_client.post(
        f"/api/v1/episodes/{ep}/close",
        {"outcome": {"failed": False}, "cites": [{"kind": "entry", "id": first.json()["id"]}]},
        format="json",
    )
    assert close.json() == {"id": close.json()["id"], "seq": 2, "status": "closed"}
    body = api_client.get(f"/api/v1/episodes/{ep}").json()
    assert [e["type"] for e in body["entries"]] == ["observation", "outcome"]
    assert api_client.get(f"/api/v1/episodes?about={d1}").json()["results"][0]["id"] == ep
    # Closed: no entry, no reopening; there is no way to change or delete an entry.
    again = api_client.post(f"/api/v1/episodes/{ep}/entries", {"type": "note"}, format="json")
    assert again.status_code == 409
    assert api_client.post("/api/v1/episodes", {"key": "d1-hot"}, format="json").status_code == 409
    for method in ("put", "patch", "delete"):
        assert getattr(api_client, method)(f"/api/v1/episodes/{ep}", {}).status_code == 405


def test_bad_input_is_refused_with_field_and_limit_and_recorded(tenant, api_client):
    ep = api_client.post("/api/v1/episodes", {}, format="json").json()["id"]
    missing = api_client.post(
        f"/api/v1/episodes/{ep}/entries",
        {"type": "note", "cites": [{"kind": "entity", "id": "nope"}]},
        format="json",
    )
    assert missing.status_code == 400 and missing.json()["error"]["field"] == "cites"
    unknown = api_client.post(
        f"/api/v1/episodes/{ep}/entries", {"type": "note", "mood": "x"}, format="json"
    )
    assert unknown.status_code == 400 and "mood" in unknown.json()["error"]["fields"]
    long = api_client.post(
        f"/api/v1/episodes/{ep}/entries", {"type": "note", "text": "x" * 10_001}, format="json"
    )
    assert long.status_code == 400 and long.json()["error"]["field"] == "text"
    learn = api_client.post(
        "/api/v1/lessons", {"key": "l", "statement": "s", "supported_by": [ep]}, format="json"
    )
    assert learn.status_code == 400 and learn.json()["error"]["code"] == "episode_open"
    no_steps = api_client.post(
        "/api/v1/playbooks",
        {"key": "p", "trigger": {"a": 1}, "steps": [], "supported_by": [ep], "needs": 1},
        format="json",
    )
    assert no_steps.status_code == 400 and no_steps.json()["error"]["field"] == "steps"
    kinds = {f["kind"] for f in write_failures_list(scope_for(tenant))}
    assert {"entry", "lesson", "playbook"} <= kinds


def test_lessons_playbooks_and_the_review_switch(tenant, api_client, make_api_client):
    eps = [closed(api_client) for _ in range(3)]
    learned = api_client.post(
        "/api/v1/lessons",
        {"key": "fan", "statement": "fans fail", "supported_by": eps[:2]},
        format="json",
    )
    assert learned.status_code == 201 and learned.json()["weight"] == 2
    weigh = api_client.post(
        "/api/v1/lessons/fan/evidence", {"episode": eps[2], "agrees": False}, format="json"
    )
    assert weigh.json() == {"id": "fan", "status": "weighed", "weight": 1}
    assert api_client.get("/api/v1/lessons?at_least=2").json()["results"] == []
    assert api_client.get("/api/v1/lessons/fan").json()["against"] == 1

    written = api_client.post(
        "/api/v1/playbooks",
        {"key": "hot", "trigger": {"status": "hot"}, "steps": STEPS, "supported_by": eps},
        format="json",
    )
    assert written.status_code == 201 and written.json()["id"] == "hot#1"
    situation = json.dumps({"status": "hot", "room": "r2"})
    found = api_client.get("/api/v1/playbooks-for", {"situation": situation}).json()["results"]
    assert found[0]["steps"] == STEPS
    run = api_client.post(
        "/api/v1/playbooks/hot/runs", {"episode": eps[0], "succeeded": False}, format="json"
    )
    assert run.json()["status"] == "judged"

    writer_only = make_api_client(tenant, scopes=["memory:read", "memory:write"])
    refused = writer_only.post("/api/v1/playbooks/hot/switch", {"enabled": False}, format="json")
    assert refused.status_code == 403
    reviewer = make_api_client(tenant, scopes=["review"])
    off = reviewer.post(
        "/api/v1/playbooks/hot/switch", {"enabled": False, "reason": "bad"}, format="json"
    )
    assert off.status_code == 200 and off.json()["enabled"] is False
    assert off.json()["switched_by"].endswith(":test key")
    assert api_client.get("/api/v1/playbooks-for", {"situation": situation}).json()["results"] == []
    detail = api_client.get("/api/v1/playbooks/hot").json()
    assert detail["enabled"] is False and len(detail["runs"]) == 1


def test_handoffs_between_two_agents(tenant, make_api_client):
    giver, receiver = make_api_client(tenant), make_api_client(tenant)
    ep = closed(giver)
    me = receiver.get("/api/v1/agents/me").json()["agent"]
    body = {"key": "h1", "to": me, "points_to": [{"kind": "episode", "id": ep}], "note": "yours"}
    assert giver.post("/api/v1/handoffs", body, format="json").status_code == 201
    assert giver.post("/api/v1/handoffs", body, format="json").json()["status"] == "unchanged"
    text_only = {**body, "key": "h2", "points_to": []}
    assert giver.post("/api/v1/handoffs", text_only, format="json").status_code == 400
    mine = receiver.get("/api/v1/handoffs").json()["results"]
    assert [h["id"] for h in mine] == ["h1"] and mine[0]["points_to"][0]["id"] == ep
    assert giver.post("/api/v1/handoffs/h1/accept").status_code == 403
    assert receiver.post("/api/v1/handoffs/h1/accept").json()["status"] == "accepted"
    assert receiver.post("/api/v1/handoffs/h1/accept").status_code == 409


def test_promotions(tenant, api_client, settings):
    settings.LESSON_PROMOTION_RULES = {"ok": "tests.lessons.test_api.ok_rule"}
    for _ in range(2):
        closed(api_client, {"fixed": True})
    receipt = api_client.post("/api/v1/promotions", {"rule": "ok", "at_least": 2}, format="json")
    assert receipt.json()["lessons"] == [{"id": "fixed", "status": "learned", "weight": 2}]
    unknown = api_client.post("/api/v1/promotions", {"rule": "nope"}, format="json")
    assert unknown.status_code == 404 and unknown.json()["error"]["field"] == "rule"


def ok_rule(episode):
    return [
        {"lesson": "fixed", "statement": "it gets fixed", "agrees": episode["outcome"]["fixed"]}
    ]


def test_another_tenants_records_answer_404(tenant, make_tenant, api_client, make_api_client):
    ep = closed(api_client)
    other = make_api_client(make_tenant())
    assert other.get(f"/api/v1/episodes/{ep}").status_code == 404
    assert (
        other.post(f"/api/v1/episodes/{ep}/entries", {"type": "x"}, format="json").status_code
        == 404
    )
    reader = make_api_client(tenant, scopes=["memory:read"])
    assert reader.post("/api/v1/episodes", {}, format="json").status_code == 403
    assert reader.get("/api/v1/episodes").status_code == 200


pytestmark = pytest.mark.django_db
