"""The agent API of promoted knowledge: a user's facts, the neighbourhood of a question, a
promotion queued as a job."""

from __future__ import annotations

import pytest

from apps.knowledge.services import knowledge_promote_chains
from tests.conftest import scope_for
from tests.lessons.conftest import say

pytestmark = pytest.mark.django_db


def test_a_users_facts_their_neighbourhood_and_a_queued_promotion(tenant, api_client):
    scope = scope_for(tenant)
    for text in ["I use Go.", "I use Go, again.", "I use Rust."]:
        say(scope, "ann", text)
    knowledge_promote_chains(scope)
    facts = api_client.get("/api/v1/knowledge/ann").json()["results"]
    assert facts[0]["to"] == "go" and facts[0]["weight"] == 2
    near = api_client.get("/api/v1/knowledge/ann", {"q": "rust"}).json()["results"]
    assert {f["to"] for f in near} == {"go", "rust"}
    queued = api_client.post("/api/v1/knowledge/promotions")
    assert queued.status_code == 202 and queued.json()["url"].endswith(queued.json()["job"])
