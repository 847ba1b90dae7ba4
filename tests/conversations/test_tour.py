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
    # As the README says: a name alone never merges. And the pair is no twin: the document's
    # Grace Hopper is named beside Remington Rand and New York, the agent's beside COBOL, no
    # neighbour alike (context none), so P(same) stays under the twin rule's threshold.
    assert hopper["action"] == "pending" and "context none" in hopper["reason"], hopper
    assert hopper["score"] < twin_reads.TWIN_MIN_P
    asked = api_client.post("/api/v1/context", ASKED, format="json")
    assert asked.status_code == 200, asked.json()
    body = asked.json()

    # Two entities until a reviewer decides, the first naming the second and the pending pair:
    # not "Grace Hopper (Person)" twice with nothing to tell them apart.
    hits = [e for e in body["entity_hits"] if e["name"] == "Grace Hopper"]
    assert {e["uid"] for e in hits} == {hopper["entity_uid"], hopper["matched_uid"]}
    first, second = hits
    assert [(p["uid"], p["p"]) for p in first["pending"]] == [
        (second["uid"], round(hopper["score"], 4))
    ]
    assert second["pending"] == [] and first["twins"] == second["twins"] == []
    lines = re.findall(r"^\[\d+\] (Grace Hopper \(Person\).*)$", body["context"], re.M)
    pair = first["pending"][0]["pair"]
    assert lines == [f"Grace Hopper (Person); may be the Grace Hopper (Person) below "
                     f"(P={hopper['score']:.2f}, pending review {pair})",
                     "Grace Hopper (Person)"]  # fmt: skip
    assert "Grace Hopper -CREATED-> COBOL" in body["context"]
