"""Argument components in the long-term graph: the claims, premises and assumptions a document
states are :Argument nodes linked to their chunk (STATED_IN) and to the entities named inside
them (ABOUT), with provenance, kept to their tenant, found by words (GET /api/v1/search),
listed on the document (page and API) and erased with it, the residue scan finding nothing."""

from django.test import Client

from apps.graph import cypher
from apps.graph.residue import tenant_residue
from apps.ingestion import services
from apps.ingestion.document_deletion import document_erase
from apps.tenants.models import Job, Role
from tests.conftest import scope_for

TEXT = (
    "# Pumps\n\nBrisvane Hydraulics builds pumps for farms in Kenya and sells them through "
    "cooperatives. We assume that Brisvane Hydraulics will open a second plant in Nairobi "
    "before the rains. The harvest was late this year.\n\nOur premise is that diesel prices "
    "stay high. This assumption drives the forecast for the coming quarter.\n"
)


def ingest(scope, content=TEXT):
    queued = services.check_document_submit(scope, content=content, source="test")
    job = Job.objects.select_related("tenant").get(uid=queued["job"])
    services.document_ingest_job_run(job)
    return queued["document"], job


def arguments(scope):
    return cypher.read(
        scope,
        "MATCH (a:Argument {tenant: $tenant})-[:STATED_IN]->(c:Chunk {tenant: $tenant}) "
        "RETURN a.kind AS kind, a.text AS text, a.agent AS agent, a.document_uid AS document, "
        "c.uid = a.chunk_uid AS own_chunk, c.text CONTAINS a.text AS in_chunk, "
        "COLLECT { MATCH (a)-[:ABOUT]->(e:Entity) RETURN e.name ORDER BY e.name } AS about "
        "ORDER BY a.position, a.start",
    )


def test_stated_components_become_nodes_linked_to_chunk_and_entities(scope):
    document, job = ingest(scope)
    found = arguments(scope)
    assert [a["kind"] for a in found] == ["assumption", "premise"]
    assumption, premise = found
    assert assumption["text"].startswith("We assume that Brisvane Hydraulics will open")
    assert set(assumption["about"]) >= {"Brisvane Hydraulics", "Nairobi"}
    assert premise["about"] == []
    assert all(a["own_chunk"] and a["in_chunk"] and a["document"] == document for a in found)
    assert {a["agent"] for a in found} == {scope.actor}
    services.document_ingest_job_run(job)  # a redelivered job: nothing new
    assert len(arguments(scope)) == 2


def test_found_by_words_only_in_its_tenant_and_shown_on_the_document(
    make_tenant, make_api_client, make_person
):
    mine, theirs = make_tenant(), make_tenant()
    document, _ = ingest(scope_for(mine))
    api = make_api_client(mine)
    body = api.get("/api/v1/search", {"q": "second plant Nairobi", "in": "arguments"}).json()
    assert [r["kind"] for r in body["results"]] == ["argument"]
    assert body["results"][0]["source"]["uid"] == document
    assert "assumption" in body["results"][0]["snippet"]
    other = make_api_client(theirs).get("/api/v1/search", {"q": "second plant Nairobi"}).json()
    assert other["results"] == []
    detail = api.get(f"/api/v1/documents/{document}").json()
    assert [a["kind"] for a in detail["arguments"]] == ["assumption", "premise"]
    person = make_person(mine, Role.VIEWER)
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    page = client.get(f"/documents/{document}/").content.decode()
    assert 'id="document-arguments"' in page and "We assume that Brisvane Hydraulics" in page


def test_erased_with_their_document(scope):
    document, _ = ingest(scope)
    chunks = [r["uid"] for r in cypher.read(
        scope, "MATCH (c:Chunk {tenant: $tenant, document_uid: $d}) RETURN c.uid AS uid",
        d=document)]  # fmt: skip
    result = document_erase(scope, uid=document)
    assert result["arguments"] == 2 and result["left"] == 0
    assert arguments(scope) == []
    assert tenant_residue(scope, needles=[document, *chunks, "second plant"]) == {}
