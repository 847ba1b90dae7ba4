"""GET /api/v1/documents and /api/v1/documents/{uid}: what an agent finds back (filters, pages,
limits refused with the field named), what one document reads as (text, chunks, entities with
mention counts, relations it supports, its job), and that another tenant's uid and a key
without the read scope get nothing."""

import datetime

import pytest

from apps.tenants.models import KeyScope

NOTE = (
    "Marguerite Oyelaran founded Quillfeather Analytics in Lisbon. "
    "Marguerite Oyelaran still leads Quillfeather Analytics today."
)
FACTS = {
    "entities": [
        {"name": "Marguerite Oyelaran", "type": "Person"},
        {"name": "Quillfeather Analytics", "type": "Organization"},
    ],
    "relations": [
        {
            "subject": "Marguerite Oyelaran",
            "predicate": "founded",
            "object": "Quillfeather Analytics",
        },
    ],  # fmt: skip
    "source_text": NOTE,
}


def store(client, content, **fields):
    body = {"content": content, "source": fields.pop("source", "notes"), **fields}
    response = client.post("/api/v1/documents", body, format="json")
    assert response.status_code == 202, response.json()
    return response.json()["document"]


def test_the_list_filters_by_source_title_agent_and_date_and_pages(tenant, make_api_client):
    client = make_api_client(tenant)
    first = store(client, "Minutes of the harbour board, first meeting.", title="Harbour Minutes")
    second = store(client, "Minutes of the harbour board, second meeting.", title="harbour minutes 2",
                   source="board")  # fmt: skip
    third = store(client, "A letter about the lighthouse keeper's pay.", title="Letter")

    listed = client.get("/api/v1/documents").json()
    assert listed["total"] == 3 and [d["uid"] for d in listed["results"]] == [third, second, first]
    row = listed["results"][0]
    assert row["title"] == "Letter" and row["source"] == "notes" and row["chunks"] == 0
    assert row["job"]["status"] == "queued" and row["agent"] and row["created"]

    by_title = client.get("/api/v1/documents", {"title": "HARBOUR min"}).json()
    assert {d["uid"] for d in by_title["results"]} == {first, second}
    by_source = client.get("/api/v1/documents", {"source": "board"}).json()
    assert [d["uid"] for d in by_source["results"]] == [second]
    agent = row["agent"]
    assert client.get("/api/v1/documents", {"agent": agent}).json()["total"] == 3
    assert client.get("/api/v1/documents", {"agent": "someone-else"}).json()["total"] == 0

    tomorrow = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    assert client.get("/api/v1/documents", {"created_after": tomorrow}).json()["total"] == 0
    assert client.get("/api/v1/documents", {"created_before": tomorrow}).json()["total"] == 3

    page1 = client.get("/api/v1/documents", {"limit": 2}).json()
    assert [d["uid"] for d in page1["results"]] == [third, second] and page1["next_offset"] == 2
    page2 = client.get("/api/v1/documents", {"limit": 2, "offset": 2}).json()
    assert [d["uid"] for d in page2["results"]] == [first] and page2["next_offset"] is None


@pytest.mark.parametrize(
    "params,field",
    [
        ({"limit": 101}, "limit"),
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"created_after": "last tuesday"}, "created_after"),
        ({"created_before": "2026-13-40"}, "created_before"),
        ({"created_after": "2026-02-01", "created_before": "2026-01-01"}, "created_after"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_filters_are_refused_naming_the_field(api_client, params, field):
    response = api_client.get("/api/v1/documents", params)
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error.get("field") == field or field in error.get("fields", {}), error
    if params.get("limit") == 101:
        assert error["limit"] == 100


def test_a_document_reads_with_chunks_entities_relations_and_job(tenant, api_client):
    response = api_client.post("/api/v1/facts", FACTS, format="json")
    assert response.status_code == 201, response.json()
    uid = response.json()["document"]

    doc = api_client.get(f"/api/v1/documents/{uid}").json()
    assert doc["content"] == NOTE and doc["source"] == "facts"
    assert len(doc["chunks"]) == 1
    chunk = doc["chunks"][0]
    assert chunk["text"] == NOTE and (chunk["start"], chunk["end"]) == (0, len(NOTE))
    named = {e["name"]: e["mentions"] for e in doc["entities"]}
    assert named == {"Marguerite Oyelaran": 2, "Quillfeather Analytics": 2}
    for m in doc["mentions"]:
        assert NOTE[m["chunk_start"] + m["start"] : m["chunk_start"] + m["end"]] == m["surface"]
    [relation] = doc["relations"]
    assert relation["subject_name"] == "Marguerite Oyelaran"
    assert relation["object_name"] == "Quillfeather Analytics"
    assert relation["observed_here"] == 1 and relation["observed_elsewhere"] == 0


def test_the_ingestion_job_is_shown_with_the_document(api_client):
    uid = store(api_client, "The tide tables for the spring of the year.")
    doc = api_client.get(f"/api/v1/documents/{uid}").json()
    assert doc["job"]["status"] == "queued" and doc["chunks"] == []


def test_another_tenants_document_is_not_found_like_an_unknown_one(make_tenant, make_api_client):
    ours, theirs = make_tenant(), make_tenant()
    their_client = make_api_client(theirs)
    uid = store(their_client, "Their private ledger of the grain stores.")
    client = make_api_client(ours)
    unknown = client.get("/api/v1/documents/0123456789abcdef0123456789abcdef")
    foreign = client.get(f"/api/v1/documents/{uid}")
    assert foreign.status_code == unknown.status_code == 404
    assert foreign.json() == unknown.json()
    assert client.get("/api/v1/documents").json()["total"] == 0
    assert (
        client.delete(f"/api/v1/documents/{uid}").json()
        == client.delete("/api/v1/documents/0123456789abcdef0123456789abcdef").json()
    )
    assert their_client.get(f"/api/v1/documents/{uid}").status_code == 200


def test_reading_needs_the_read_scope_and_deleting_the_write_scope(tenant, make_api_client):
    writer = make_api_client(tenant, scopes=[KeyScope.MEMORY_WRITE])
    uid = store(writer, "Notes on the ferry timetable for winter.")
    assert writer.get("/api/v1/documents").status_code == 403
    assert writer.get(f"/api/v1/documents/{uid}").status_code == 403
    reader = make_api_client(tenant, scopes=[KeyScope.MEMORY_READ])
    assert reader.get("/api/v1/documents").status_code == 200
    assert reader.get(f"/api/v1/documents/{uid}").status_code == 200
    refused = reader.delete(f"/api/v1/documents/{uid}")
    assert refused.status_code == 403
    assert reader.get(f"/api/v1/documents/{uid}").status_code == 200


def test_each_read_is_one_round_trip(api_client):
    from apps.graph.cypher import count_round_trips

    for i in range(5):
        store(api_client, f"Harbour note number {i} about the pilots.")
    uid = api_client.post("/api/v1/facts", FACTS, format="json").json()["document"]
    with count_round_trips() as listed:
        assert api_client.get("/api/v1/documents").json()["total"] == 6
    with count_round_trips() as read:
        assert api_client.get(f"/api/v1/documents/{uid}").status_code == 200
    assert (listed[0], read[0]) == (1, 1)
