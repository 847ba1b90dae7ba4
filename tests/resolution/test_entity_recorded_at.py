"""An entity's two times (issue 34, a small thing seen): `created_at` is when it existed by, and
an older fact's `valid_from` moves it back (apps.timeline); `recorded_at` is when the memory
stored it and no date moves it. Through the real facts and entity APIs and Neo4j."""

from __future__ import annotations

import datetime as dt


def test_a_facts_valid_from_moves_created_at_back_but_never_recorded_at(api_client):
    started = dt.datetime.now(dt.UTC).replace(microsecond=0)
    body = {
        "entities": [{"name": "Marta Lindqvist", "type": "Person",
                      "values": {"email": "marta@example.org"}},
                     {"name": "Berlin", "type": "Location"}],
        "relations": [{"subject": "Marta Lindqvist", "predicate": "LOCATED_IN",
                       "object": "Berlin", "valid_from": "1990-05-01"}],
    }  # fmt: skip
    response = api_client.post("/api/v1/facts", body, format="json")
    assert response.status_code == 201, response.json()
    uid = next(r["entity_uid"] for r in response.json()["receipts"]
               if r.get("name") == "Marta Lindqvist")  # fmt: skip
    entity = api_client.get(f"/api/v1/entities/{uid}").json()
    assert entity["created_at"].startswith("1990-05-01"), entity["created_at"]
    recorded = dt.datetime.fromisoformat(entity["recorded_at"].replace("Z", "+00:00"))
    assert recorded >= started, (entity["recorded_at"], started)
