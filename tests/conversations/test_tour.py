"""The README's five-minute tour, call for call through the API (issue 46): a document, then an
agent's facts naming the same person, then a context call about her."""

from __future__ import annotations

import re

from apps.resolution import twin_reads

DOCUMENT = {"content": "Grace Hopper worked for Remington Rand. Remington Rand is based in New York.",
            "source": "tour", "title": "Tour notes"}  # fmt: skip
FACTS = {"entities": [{"name": "Grace Hopper", "type": "Person", "values": {"born": "1906-12-09"}},
                      {"name": "COBOL", "type": "Object", "description": "a programming language"}],
         "relations": [{"subject": "Grace Hopper", "predicate": "CREATED", "object": "COBOL"}]}  # fmt: skip
ASKED = {"user": "tour", "session": "main", "message": "What did Grace Hopper create?",
         "token_budget": 300}  # fmt: skip


def test_the_tours_two_grace_hoppers_are_told_apart_in_the_context(api_client):
    stored = api_client.post("/api/v1/documents?wait=true", DOCUMENT, format="json")
    assert stored.status_code == 201, stored.json()
    sent = api_client.post("/api/v1/facts", FACTS, format="json")
    assert sent.status_code == 201, sent.json()
    [hopper] = [r for r in sent.json()["receipts"] if r["name"] == "Grace Hopper"]
    # As the README says: a name alone never merges. The document's Grace Hopper is named beside
    # Remington Rand and New York, the agent's beside COBOL: no neighbour alike (context none),
    # which in short text says little, and nothing says they are two: P(same) is at or above
    # the twin rule's threshold, so /context shows her once, naming the pending pair.
    assert hopper["action"] == "pending" and "context none" in hopper["reason"], hopper
    assert hopper["score"] >= twin_reads.TWIN_MIN_P
    asked = api_client.post("/api/v1/context", ASKED, format="json")
    assert asked.status_code == 200, asked.json()
    body = asked.json()

    hits = [e for e in body["entity_hits"] if e["name"] == "Grace Hopper"]
    assert len(hits) == 1 and hits[0]["uid"] in {hopper["entity_uid"], hopper["matched_uid"]}
    [twin] = hits[0]["twins"]
    assert twin["uid"] in {hopper["entity_uid"], hopper["matched_uid"]} - {hits[0]["uid"]}
    lines = re.findall(r"^\[\d+\] (Grace Hopper \(Person\).*)$", body["context"], re.M)
    assert lines == [f"Grace Hopper (Person); possibly the same as Grace Hopper "
                     f"(P={hopper['score']:.2f}, pending review {twin['pair']})"]  # fmt: skip
    assert "Grace Hopper -CREATED-> COBOL" in body["context"]
