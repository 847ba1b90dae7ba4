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
