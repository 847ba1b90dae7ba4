"""A document's date, and a fact's own time, as when its relations start (through the real API):
the relations of a dated document hold from its date, its entities existed by then, an older
fact moves a start back, and a bad date is a 400 naming the field with nothing stored."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.graph import cypher
from apps.timeline.document_dates import parse_document_date

DATED = dt.datetime(2019, 3, 4, tzinfo=dt.UTC)
TEXT = (
    "Acme Corp acquired Globex Corporation. The company is based in Berlin, where it employs "
    "four hundred engineers. Marta Lindqvist works for Acme Corp as its chief engineer, and "
    "she lives in Berlin with her family."
)

OTHER = (
    "Northwind Traders is based in Oslo, where its ships are loaded every morning. Per Hansen "
    "works for Northwind Traders and keeps the harbour books in order."
)


def document_relations(scope, document: str) -> list[dict]:
    return cypher.read(
        scope,
        "MATCH (c:Chunk {tenant: $tenant, document_uid: $document})-[:MENTIONS]->(e:Entity) "
        "WITH collect(DISTINCT e) AS mentioned, collect(DISTINCT c.uid) AS chunks "
        "UNWIND mentioned AS e "
        "OPTIONAL MATCH (e)-[r:RELATED_TO]-() WHERE any(c IN r.chunks WHERE c IN chunks) "
        "RETURN e.name AS name, e.created_at AS created, r.valid_from AS since",
        document=document,
    )


def test_the_relations_of_a_dated_document_hold_from_its_date(scope, api_client):
    started = dt.datetime.now(dt.UTC).replace(microsecond=0)
    dated = api_client.post("/api/v1/documents?wait=true",
                            {"content": TEXT, "source": "news", "date": "2019-03-04"},
                            format="json")  # fmt: skip
    assert dated.status_code == 201, dated.json()
    rows = document_relations(scope, dated.json()["document"])
    since = [r["since"].to_native() for r in rows if r["since"] is not None]
    assert since and set(since) == {DATED}
    # Every entity it mentions existed by its date (reads at a time: e.created_at <= t).
    assert rows and all(r["created"].to_native() <= DATED for r in rows)

    undated = api_client.post("/api/v1/documents?wait=true",
                              {"content": OTHER, "source": "news"},
                              format="json")  # fmt: skip
    assert undated.status_code == 201, undated.json()
    rows = document_relations(scope, undated.json()["document"])
    fresh = [r["since"].to_native() for r in rows
             if r["since"] is not None and r["name"] == "Oslo"]  # fmt: skip
    assert fresh and all(t >= started for t in fresh)


@pytest.mark.parametrize(
    "date",
    ["2019-13-01", "03/04/2019", "2019-03-04T10:00:00", "1850-01-01", "2999-01-01", 20190304, ""],
)
def test_a_bad_date_is_refused_with_the_field_and_nothing_is_stored(scope, api_client, date):
    response = api_client.post("/api/v1/documents?wait=true",
                               {"content": TEXT, "source": "news", "date": date},
                               format="json")  # fmt: skip
    assert response.status_code == 400, response.json()
    assert "date" in str(response.json())
    stored = cypher.read(scope, "MATCH (d:Document {tenant: $tenant}) RETURN count(d) AS n")
    assert stored == [{"n": 0}]


def test_a_date_is_a_day_or_a_time_with_its_zone_and_not_after_now():
    assert parse_document_date("2019-03-04", field="date") == DATED
    assert parse_document_date("2019-03-04T01:30:00.9+01:00", field="date") == dt.datetime(
        2019, 3, 4, 0, 30, tzinfo=dt.UTC
    )
    future = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat()
    with pytest.raises(Exception, match="not after now"):
        parse_document_date(future, field="date")
    # An offset that moves year 1 before the calendar is a refusal, not a crash.
    with pytest.raises(Exception, match="between 1900"):
        parse_document_date("0001-01-01T00:00:00+01:00", field="date")


def facts(obj: str, when: str) -> dict:
    return {
        # Identifiers, so each request meets the same two entities (a name alone never merges).
        "entities": [{"name": "Marta Lindqvist", "type": "Person",
                      "values": {"email": "marta@example.org"}},
                     {"name": obj, "type": "Location", "values": {"id:geo": obj.lower()}}],
        "relations": [{"subject": "Marta Lindqvist", "predicate": "LOCATED_IN", "object": obj,
                       "valid_from": when}],
    }  # fmt: skip


def test_a_facts_time_places_it_and_an_older_one_moves_the_start_back(kinds, api_client):
    # LOCATED_IN is one-at-a-time for the Device kind (tests/timeline/conftest.py), so a later
    # target closes the earlier one where it starts.
    for body in (facts("Berlin", "2020-01-01"), facts("Oslo", "2022-01-01T00:00:00Z"),
                 facts("Berlin", "2018-06-01")):  # fmt: skip
        response = api_client.post("/api/v1/facts", body, format="json")
        assert response.status_code == 201, response.json()
    rows = cypher.read(kinds, "MATCH (:Entity {tenant: $tenant, name: 'Marta Lindqvist'})"
                       "-[r:RELATED_TO]->(x) RETURN x.name AS x, r.valid_from AS f, "
                       "r.valid_to AS t")  # fmt: skip
    got = sorted((r["x"], r["f"].to_native().date().isoformat(),
                  r["t"] and r["t"].to_native().date().isoformat()) for r in rows)  # fmt: skip
    assert got == [("Berlin", "2018-06-01", "2022-01-01"), ("Oslo", "2022-01-01", None)]
    refused = api_client.post("/api/v1/facts", facts("Oslo", "next week"), format="json")
    assert refused.status_code == 400 and "valid_from" in str(refused.json())
