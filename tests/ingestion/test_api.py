"""POST /api/v1/documents and /api/v1/facts: what an agent sends, what it gets back, and what is
refused (400 naming the field and the limit, nothing half-written, the refusal recorded)."""

import pytest

from apps.graph import cypher
from apps.graph.write_failures import write_failures_list
from apps.tenants.models import Job, KeyScope
from tests.conftest import scope_for

STORY = (
    "# Baker Street\n\n"
    "Sherlock Holmes lives in London. Holmes works for Scotland Yard as a consultant, "
    "and Dr. John Watson writes down every case they solve together. Their rooms are small, "
    "the rent is late again, and Mrs. Hudson keeps a careful list of every broken window.\n\n"
    "## The firm\n\n"
    "Acme Corp acquired Globex Corporation in 2020. The company is based in Berlin, "
    "where it employs four hundred engineers and a small team of lawyers. Its products ship "
    "to customers in every country of the union, and its reports are public every quarter.\n"
)


def graph_counts(tenant):
    return cypher.read(
        scope_for(tenant),
        "RETURN COUNT { MATCH (d:Document {tenant: $tenant}) } AS documents, "
        "COUNT { MATCH (c:Chunk {tenant: $tenant}) } AS chunks, "
        "COUNT { MATCH (e:Entity {tenant: $tenant}) } AS entities, "
        "COUNT { MATCH (:Chunk {tenant: $tenant})-[m:MENTIONS]->() } AS mentions, "
        "COUNT { MATCH (:Entity {tenant: $tenant})-[r:RELATED_TO]->() } AS relations",
    )[0]


def test_a_document_is_queued_with_its_job_url(tenant, api_client):
    response = api_client.post(
        "/api/v1/documents",
        {"content": STORY, "source": "notes", "title": "Holmes", "metadata": {"k": 1}},
        format="json",
    )
    assert response.status_code == 202, response.json()
    body = response.json()
    assert body["job_url"] == f"/api/v1/jobs/{body['job']}"
    job = Job.objects.get(uid=body["job"])
    assert job.subject == body["document"] and job.kind == "document_ingest"
    assert api_client.get(body["job_url"]).json()["status"] == "queued"
    source = cypher.read(
        scope_for(tenant),
        "MATCH (d:Document {tenant: $tenant, uid: $uid}) RETURN d.source AS source",
        uid=body["document"],
    )
    assert source == [{"source": "notes"}]


def test_wait_ingests_inline_and_answers_with_receipts(tenant, api_client):
    response = api_client.post(
        "/api/v1/documents?wait=true", {"content": STORY, "source": "notes"}, format="json"
    )
    assert response.status_code == 201, response.json()
    result = response.json()["result"]
    assert result["done"] == result["total"] == result["chunks_written"] >= 2
    assert result["entities_created"] >= 5 and result["relations"] >= 2
    names = {r["name"] for r in result["receipts"] if r["kind"] == "entity"}
    assert {"Sherlock Holmes", "Acme Corp", "Berlin"} <= names
    resolved = {
        (r["name"], r["matched_name"]) for r in result["receipts"] if r["kind"] == "reference"
    }
    assert ("The company", "Acme Corp") in resolved
    assert graph_counts(tenant)["chunks"] == result["chunks_written"]


def test_a_replayed_document_changes_nothing(tenant, api_client):
    first = api_client.post(
        "/api/v1/documents?wait=true",
        {"content": STORY, "source": "notes", "url": "https://example.org/a"},
        format="json",
    ).json()
    before = graph_counts(tenant)
    again = api_client.post(
        "/api/v1/documents?wait=true", {"content": STORY, "source": "copy"}, format="json"
    )
    assert again.status_code == 200
    assert (
        again.json()["receipts"][0].items()
        >= {"action": "duplicate", "layer": "content_hash"}.items()
    )
    moved = api_client.post(
        "/api/v1/documents",
        {"content": STORY + "\nUpdated.", "source": "notes", "url": "https://example.org/a"},
        format="json",
    ).json()
    assert moved["receipts"][0]["layer"] == "url" and moved["document"] == first["document"]
    assert graph_counts(tenant) == before


@pytest.mark.parametrize(
    "body,field",
    [
        ({"content": "   \n\t ", "source": "s"}, "content"),
        ({"content": "", "source": "s"}, "content"),
        ({"content": "text", "source": "s", "colour": "red"}, "colour"),
        ({"content": 42, "source": "s"}, "content"),
        ({"content": ["a"], "source": "s"}, "content"),
        ({"source": "s"}, "content"),
        ({"content": "ok", "source": "s", "url": "not a url"}, "url"),
        ({"content": "ok", "source": "s", "metadata": "x"}, "metadata"),
    ],
)
def test_bad_documents_are_refused_with_the_field(tenant, api_client, body, field):
    response = api_client.post("/api/v1/documents", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error.get("field") == field or field in error.get("fields", {}), error
    assert graph_counts(tenant)["documents"] == 0
    assert Job.objects.filter(tenant=tenant).count() == 0


def test_a_lone_surrogate_escape_is_refused(tenant, api_client):
    raw = b'{"content": "bad \\ud800 surrogate", "source": "s"}'
    response = api_client.post("/api/v1/documents", raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "content"
    assert graph_counts(tenant)["documents"] == 0


def test_too_large_content_names_the_tenants_limit(make_tenant, make_api_client):
    tenant = make_tenant(max_document_bytes=1000)
    client = make_api_client(tenant)
    response = client.post(
        "/api/v1/documents", {"content": "é" * 501, "source": "s"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"].items() >= {"field": "content", "limit": 1000}.items()
    response = client.post(
        "/api/v1/documents?wait=true", {"content": "word " * 190, "source": "s"}, format="json"
    )
    assert response.status_code == 201
    inline_limit = tenant.setting("max_inline_document_bytes")
    tenant.settings = {"max_document_bytes": 10**6}
    tenant.save()
    big = client.post(
        "/api/v1/documents?wait=true",
        {"content": "x " * inline_limit, "source": "s"},
        format="json",
    )
    assert big.json()["error"].items() >= {"field": "wait", "limit": inline_limit}.items()


def test_invalid_utf8_is_refused_and_recorded(tenant, api_client):
    raw = b'{"content": "caf\xe9 au lait", "source": "s"}'
    response = api_client.post("/api/v1/documents", raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"].items() >= {"code": "invalid_utf8", "field": "body"}.items()
    failures = write_failures_list(scope_for(tenant))
    assert [f["kind"] for f in failures] == ["invalid_utf8"]
    api_client.post("/api/v1/documents", raw, content_type="application/json")
    assert write_failures_list(scope_for(tenant))[0]["count"] == 2


def test_a_key_without_write_scope_cannot_send(tenant, make_api_client):
    client = make_api_client(tenant, scopes=[KeyScope.MEMORY_READ])
    response = client.post("/api/v1/documents", {"content": STORY, "source": "s"}, format="json")
    assert response.status_code == 403


FACTS = {
    "entities": [
        {"name": "Ada Lovelace", "type": "Person", "aliases": ["Ada"], "description": "analyst"},
        {"name": "Analytical Engine", "type": "Object", "description": "a mechanical computer"},
        {"name": "Charles Babbage", "type": "Person"},
    ],
    "relations": [
        {"subject": "Ada Lovelace", "predicate": "wrote programs for", "object": "Analytical Engine",
         "confidence": 0.9, "nuance": "first published algorithm"},
        {"subject": "Charles Babbage", "predicate": "CREATED", "object": "Analytical Engine"},
    ],
}  # fmt: skip


def test_facts_pass_the_gate_and_return_receipts(tenant, api_client):
    response = api_client.post("/api/v1/facts", FACTS, format="json")
    assert response.status_code == 201, response.json()
    receipts = response.json()["receipts"]
    assert sorted(r["name"] for r in receipts if r["kind"] == "entity") == [
        "Ada Lovelace", "Analytical Engine", "Charles Babbage",
    ]  # fmt: skip
    rels = cypher.read(
        scope_for(tenant),
        "MATCH (a:Entity {tenant: $tenant})-[r:RELATED_TO]->(b) "
        "RETURN a.name AS a, r.predicate AS p, b.name AS b ORDER BY a",
    )
    assert [(r["a"], r["p"], r["b"]) for r in rels] == [
        ("Ada Lovelace", "RELATES_TO", "Analytical Engine"),
        ("Charles Babbage", "CREATED", "Analytical Engine"),
    ]


def test_facts_with_source_text_keep_it_and_replay_changes_nothing(tenant, api_client):
    body = {
        **FACTS,
        "source_text": "Ada Lovelace wrote the first program for the Analytical Engine.",
    }
    first = api_client.post("/api/v1/facts", body, format="json")
    assert first.status_code == 201
    before = graph_counts(tenant)
    assert before["documents"] == 1 and before["chunks"] == 1 and before["mentions"] >= 2
    again = api_client.post("/api/v1/facts", body, format="json").json()
    assert again["receipts"][0]["action"] == "duplicate"
    assert graph_counts(tenant) == before


@pytest.mark.parametrize(
    "change,field",
    [
        (lambda b: b["entities"][1].update(type="Planet"), "entities[1].type"),
        (lambda b: b["relations"][1].update(object="Difference Engine"), "relations[1].object"),
        (lambda b: b["relations"][0].update(subject="Lord Byron"), "relations[0].subject"),
        (lambda b: b["entities"][0].update(colour="red"), "entities"),
        (lambda b: b["relations"][0].update(confidence="high"), "relations"),
        (lambda b: b.update(entities=[]), "entities"),
    ],
)
def test_bad_facts_are_refused_whole(tenant, api_client, change, field):
    import copy

    body = copy.deepcopy(FACTS)
    change(body)
    response = api_client.post("/api/v1/facts", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error.get("field") == field or field in error.get("fields", {}), error
    assert graph_counts(tenant)["entities"] == 0
    assert write_failures_list(scope_for(tenant)), "the refusal is recorded"


def test_too_many_facts_names_the_limit(make_tenant, make_api_client):
    tenant = make_tenant(max_facts_per_request=2)
    response = make_api_client(tenant).post("/api/v1/facts", FACTS, format="json")
    assert response.status_code == 400
    assert response.json()["error"].items() >= {"field": "entities", "limit": 2}.items()


def test_facts_on_an_ingested_text_leave_its_reading_order_alone(tenant, api_client):
    from tests.ingestion.test_pipeline import DOCUMENT

    api_client.post(
        "/api/v1/documents?wait=true", {"content": DOCUMENT, "source": "s"}, format="json"
    )
    body = {**FACTS, "source_text": DOCUMENT}
    assert api_client.post("/api/v1/facts", body, format="json").status_code == 201
    chain = cypher.read(
        scope_for(tenant),
        "MATCH (a:Chunk {tenant: $tenant})-[:NEXT]->(b) RETURN a.position AS a, b.position AS b "
        "ORDER BY a",
    )
    assert [(r["a"], r["b"]) for r in chain] == [(0, 1), (1, 2), (2, 3)]


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_is_down_refuses_the_document_and_keeps_nothing(tenant, api_client,
                                                                       monkeypatch):  # fmt: skip
    """The broker is outside the project, so its outage is simulated: the publish raises. The
    answer is a 503, the job is recorded failed with the reason, the document is not kept (its
    resend would otherwise be a duplicate never read); once the broker is back it is queued."""
    from kombu.exceptions import OperationalError

    from apps.ingestion import tasks

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.document_ingest, "delay", broker_down)
    body = {"content": STORY, "source": "notes"}
    refused = api_client.post("/api/v1/documents", body, format="json")
    assert refused.status_code == 503, refused.content[:300]
    error = refused.json()["error"]
    assert error["code"] == "queue_unavailable" and "nothing was done" in error["message"]
    job = Job.objects.get(uid=error["job"])
    assert job.status == "failed" and "work queue could not be reached" in job.error
    assert graph_counts(tenant)["documents"] == 0

    monkeypatch.undo()  # the broker is back: the same document is queued, not a duplicate
    queued = api_client.post("/api/v1/documents", body, format="json")
    assert queued.status_code == 202 and queued.json()["status"] == "queued"
    assert graph_counts(tenant)["documents"] == 1
