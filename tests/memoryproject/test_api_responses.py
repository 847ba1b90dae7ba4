"""Answers with real data in them fit the response schema the OpenAPI documents (the generated
requests of test_api_schema.py mostly meet an empty tenant): each read operation is called on a
tenant holding episodes, entries, a lesson, a playbook with a run and a handoff, and its answer
is validated against the schema of its status; so are the conversation reads of a session with
messages and a summary."""

from __future__ import annotations

import httpx
import pytest
import schemathesis

from apps.knowledge.services import knowledge_promote_chains
from tests.conftest import scope_for
from tests.lessons.conftest import say
from tests.memoryproject.test_api_schema import openapi
from tests.review.review_fixtures import anthropic_pair, pending_pairs
from tests.timeline.conftest import DEVICE, ROOM, TEAM, row

T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"

pytestmark = pytest.mark.slow


@pytest.fixture
def agent(tenant, make_api_client, live_server):
    key = make_api_client(tenant).raw_key
    client = httpx.Client(base_url=live_server.url, headers={"Authorization": f"Api-Key {key}"},
                          timeout=120)  # fmt: skip
    yield client
    client.close()


def written(response: httpx.Response) -> dict:
    assert response.status_code in (200, 201), response.text[:500]
    return response.json()


def test_read_answers_with_data_fit_their_schema(agent, tenant):
    schema = schemathesis.openapi.from_dict(openapi())
    episodes = []
    for n in range(3):
        ep = written(agent.post("/api/v1/episodes", json={"title": f"fan {n}"}))["id"]
        written(agent.post(f"/api/v1/episodes/{ep}/entries",
                           json={"type": "note", "text": "hot", "values": {"t": 90}}))  # fmt: skip
        written(agent.post(f"/api/v1/episodes/{ep}/close", json={"outcome": {"ok": True}}))
        episodes.append(ep)
    written(agent.post("/api/v1/lessons", json={"key": "fans", "statement": "Check the fan.",
                                                 "supported_by": episodes[:1]}))  # fmt: skip
    written(agent.post("/api/v1/playbooks", json={
        "key": "hot", "trigger": {"status": "hot"}, "steps": [{"do": "check the fan"}],
        "supported_by": episodes}))  # fmt: skip
    written(agent.post("/api/v1/playbooks/hot/runs",
                       json={"episode": episodes[0], "succeeded": True}))  # fmt: skip
    me = written(agent.get("/api/v1/agents/me"))["agent"]
    written(agent.post("/api/v1/handoffs", json={
        "key": "h1", "to": me, "points_to": [{"kind": "episode", "id": episodes[0]}]}))  # fmt: skip

    reads = {
        "/api/v1/episodes": ("/api/v1/episodes", {}),
        "/api/v1/episodes/{uid}": (f"/api/v1/episodes/{episodes[0]}", {}),
        "/api/v1/lessons": ("/api/v1/lessons", {}),
        "/api/v1/lessons/{key}": ("/api/v1/lessons/fans", {}),
        "/api/v1/playbooks": ("/api/v1/playbooks", {}),
        "/api/v1/playbooks/{key}": ("/api/v1/playbooks/hot", {}),
        "/api/v1/playbooks-for": ("/api/v1/playbooks-for", {"situation": '{"status": "hot"}'}),
        "/api/v1/handoffs": ("/api/v1/handoffs", {}),
        "/api/v1/agents/me": ("/api/v1/agents/me", {}),
        "/api/v1/health": ("/api/v1/health", {}),
    }
    # Conversations: a session with messages and a summary.
    session = "/api/v1/users/ann/sessions/s1/"
    for n, text in enumerate(["The fan is loud.", "Check the fan.", "It was the fan."]):
        role = "user" if n % 2 == 0 else "assistant"
        written(agent.post(session + "messages", json={"role": role, "text": text, "by": "ann"}))
    written(agent.put(session + "summary", json={"text": "A loud fan.", "upto": 2, "by": "a"}))
    reads.update({
        "/api/v1/users/{user}/sessions/{sid}/messages": (session + "messages", {}),
        "/api/v1/users/{user}/sessions/{sid}/context": (session + "context", {"last": 5}),
        "/api/v1/users/{user}/sessions": ("/api/v1/users/ann/sessions", {}),
        "/api/v1/users/{user}/said-about": ("/api/v1/users/ann/said-about", {"entity": "x"}),
        "/api/v1/users/{user}/messages/search": ("/api/v1/users/ann/messages/search",
                                                 {"q": "fan"}),
    })  # fmt: skip
    # Promoted knowledge, read whole and around a word (two shapes of `messages`).
    scope = scope_for(tenant)
    for text in ["I use Go.", "I use Go, again.", "I use Rust."]:
        say(scope, "bob", text)
    knowledge_promote_chains(scope)
    reads["/api/v1/knowledge/{user}"] = ("/api/v1/knowledge/bob", {})
    near = agent.get("/api/v1/knowledge/bob", params={"q": "rust"})
    assert near.json()["results"]
    schema["/api/v1/knowledge/{user}"]["GET"].validate_response(near)
    for documented, (path, params) in reads.items():
        response = agent.get(path, params=params)
        assert response.status_code in (200, 503), (path, response.text[:300])
        body = response.json()
        assert body.get("results", [body]), path  # the data is in the answer, not an empty list
        schema[documented]["GET"].validate_response(response)


def fits(schema, documented: str, method: str, response: httpx.Response) -> dict:
    assert response.status_code < 300, (documented, response.status_code, response.text[:500])
    schema[documented][method].validate_response(response)
    return response.json()


# The answers the first test does not read, in three parts (each within the test timeout on a
# busy machine): each answer holding real data is checked against its operation and status.
def test_review_task_and_evidence_answers_fit_their_schema(agent, tenant):
    schema = schemathesis.openapi.from_dict(openapi())
    scope = scope_for(tenant)
    anthropic_pair(scope)
    [pair] = pending_pairs(scope)
    detail = fits(
        schema, "/api/v1/reviews/{uid}", "GET", agent.get(f"/api/v1/reviews/{pair['uid']}")
    )
    assert detail["merged"]["mentions"] and detail["evidence"]

    made = agent.post("/api/v1/tasks", json={"description": "Why do pumps fail?"})
    task = fits(schema, "/api/v1/tasks", "POST", made)["id"]
    added = agent.post(
        f"/api/v1/tasks/{task}/evidence",
        json={"content": "Seals wear out", "source": "manual", "strength": 0.9},
    )
    evidence = fits(schema, "/api/v1/tasks/{task}/evidence", "POST", added)["id"]
    assert fits(schema, "/api/v1/tasks/{task}", "GET", agent.get(f"/api/v1/tasks/{task}"))[
        "evidence"
    ]
    assert fits(schema, "/api/v1/tasks/ready", "GET", agent.get("/api/v1/tasks/ready"))["results"]
    fits(schema, "/api/v1/evidence/{evidence_id}", "GET", agent.get(f"/api/v1/evidence/{evidence}"))


def test_kind_row_lesson_impact_and_trust_answers_fit_their_schema(agent, settings):
    settings.LESSON_PROMOTION_RULES = {"ok": "tests.lessons.test_api.ok_rule"}
    schema = schemathesis.openapi.from_dict(openapi())
    for kind in (ROOM, TEAM, DEVICE):
        fits(schema, "/api/v1/kinds", "POST", agent.post("/api/v1/kinds", json=kind))
    assert len(fits(schema, "/api/v1/kinds", "GET", agent.get("/api/v1/kinds"))["results"]) == 3
    rows = [row("d1", T1, status="ok", relations={"LOCATED_IN": "r1"}),
            row("d1", T2, status="hot", relations={"LOCATED_IN": "r2"})]  # fmt: skip
    fits(schema, "/api/v1/rows", "POST", agent.post("/api/v1/rows", json={"rows": rows}))
    diff = fits(schema, "/api/v1/diff", "GET", agent.get("/api/v1/diff", params={
        "since": T1, "until": T2}))  # fmt: skip
    assert diff["changed"] and diff["opened"] and diff["closed"]
    began = agent.get("/api/v1/diff", params={"since": "2025-12-31T00:00:00Z", "until": T2})
    assert fits(schema, "/api/v1/diff", "GET", began)["created"]

    episodes, entries = [], []
    for n in range(3):
        ep = fits(schema, "/api/v1/episodes", "POST",
                  agent.post("/api/v1/episodes", json={"title": f"pump {n}"}))["id"]  # fmt: skip
        entry = agent.post(f"/api/v1/episodes/{ep}/entries", json={"type": "note", "text": "hot"})
        entries.append(fits(schema, "/api/v1/episodes/{uid}/entries", "POST", entry)["id"])
        closing = agent.post(f"/api/v1/episodes/{ep}/close", json={"outcome": {"fixed": True}})
        fits(schema, "/api/v1/episodes/{uid}/close", "POST", closing)
        episodes.append(ep)
    lesson = agent.post("/api/v1/lessons", json={"key": "seals", "statement": "Check the seals.",
                                                  "supported_by": episodes[:1]})  # fmt: skip
    fits(schema, "/api/v1/lessons", "POST", lesson)
    playbook = agent.post("/api/v1/playbooks", json={
        "key": "hot", "trigger": {"status": "hot"}, "steps": [{"do": "check the seals"}],
        "supported_by": episodes})  # fmt: skip
    fits(schema, "/api/v1/playbooks", "POST", playbook)
    run = agent.post("/api/v1/playbooks/hot/runs", json={"episode": episodes[0], "succeeded": True})
    fits(schema, "/api/v1/playbooks/{key}/runs", "POST", run)
    switch = agent.post("/api/v1/playbooks/hot/switch", json={"enabled": False, "reason": "x"})
    fits(schema, "/api/v1/playbooks/{key}/switch", "POST", switch)
    promoted = agent.post("/api/v1/promotions", json={"rule": "ok", "at_least": 2})
    assert fits(schema, "/api/v1/promotions", "POST", promoted)["lessons"]
    marked = agent.post(f"/api/v1/entries/{entries[0]}/invalidate", json={"reason": "wrong"})
    assert fits(schema, "/api/v1/entries/{uid}/invalidate", "POST", marked)["impact"]["lessons"]
    impact = agent.get(f"/api/v1/entries/{entries[0]}/impact")
    assert fits(schema, "/api/v1/entries/{uid}/impact", "GET", impact)["playbooks"]
    me = fits(schema, "/api/v1/agents/me", "GET", agent.get("/api/v1/agents/me"))["agent"]
    trust = fits(
        schema, "/api/v1/agents/{name}/trust", "GET", agent.get(f"/api/v1/agents/{me}/trust")
    )
    assert trust["rates"]["entries"]["against"] == 1
    given = agent.post("/api/v1/handoffs", json={
        "key": "h1", "to": me, "points_to": [{"kind": "episode", "id": episodes[0]}]})  # fmt: skip
    fits(schema, "/api/v1/handoffs", "POST", given)
    accepted = agent.post("/api/v1/handoffs/h1/accept")
    fits(schema, "/api/v1/handoffs/{key}/accept", "POST", accepted)


def test_conversation_write_answers_fit_their_schema(agent):
    schema = schemathesis.openapi.from_dict(openapi())
    session = "/api/v1/users/ann/sessions/s1/"
    for text in ["The pump is loud.", "Check the seals.", "It was the seals."]:
        said = agent.post(session + "messages", json={"role": "user", "text": text, "by": "ann"})
        fits(schema, "/api/v1/users/{user}/sessions/{sid}/messages", "POST", said)
    summary = agent.put(session + "summary", json={"text": "A loud pump.", "upto": 2, "by": "a"})
    fits(schema, "/api/v1/users/{user}/sessions/{sid}/summary", "PUT", summary)
    asked = agent.post("/api/v1/context", json={"user": "ann", "session": "s1",
                                                 "message": "What about the seals?"})  # fmt: skip
    assert fits(schema, "/api/v1/context", "POST", asked)["message"]["uid"]
    preview = agent.post("/api/v1/erasures/preview", json={"user": "ann"})
    assert fits(schema, "/api/v1/erasures/preview", "POST", preview)["messages"] == 4


def test_every_operation_that_queues_a_job_answers_the_same_202(agent):
    """An agent follows any queued work the same way: each operation that queues a job answers
    202 with {job, url, status, progress}, as its schema says, and the url serves that job."""
    schema = schemathesis.openapi.from_dict(openapi())
    fits(schema, "/api/v1/kinds", "POST", agent.post("/api/v1/kinds", json=ROOM))
    task = fits(schema, "/api/v1/tasks", "POST",
                agent.post("/api/v1/tasks", json={"description": "Why is the pump loud?"}))["id"]  # fmt: skip
    message = {"role": "user", "text": "The pump is loud.", "by": "ann"}
    queued = [
        ("/api/v1/tasks/similarity-sync", "/api/v1/tasks/similarity-sync", None),
        ("/api/v1/tasks/{task}/pages", f"/api/v1/tasks/{task}/pages",
         {"pages": [{"url": "https://ex.org/p", "content": "Pumps get loud when seals wear."}]}),
        ("/api/v1/knowledge/promotions", "/api/v1/knowledge/promotions", None),
        ("/api/v1/kinds/{kind}/rows-from-entries",
         f"/api/v1/kinds/{ROOM['name']}/rows-from-entries", None),
        ("/api/v1/match-model/learn", "/api/v1/match-model/learn", None),
        ("/api/v1/suspect-merges/rescore", "/api/v1/suspect-merges/rescore", None),
        ("/api/v1/resolution/reresolve", "/api/v1/resolution/reresolve", None),
        ("/api/v1/users/{user}/sessions/{sid}/messages:import",
         "/api/v1/users/ann/sessions/s1/messages:import", {"messages": [message]}),
        ("/api/v1/erasures", "/api/v1/erasures", {"user": "ann"}),
    ]  # fmt: skip
    for documented, path, body in queued:
        answer = agent.post(path, json=body) if body is not None else agent.post(path)
        assert answer.status_code == 202, (path, answer.status_code, answer.text[:300])
        job = fits(schema, documented, "POST", answer)
        assert set(job) == {"job", "url", "status", "progress"}, path
        assert agent.get(job["url"]).json()["uid"] == job["job"], path
