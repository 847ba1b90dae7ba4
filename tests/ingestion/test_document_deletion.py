"""Deleting a document: what only it taught goes (its chunks, mentions, the relations only it
observed, the entities only it named, what the gate merged from it into an entity that stays),
what others also taught stays with their provenance intact, and the tenant-wide residue scan
finds nothing of it. Idempotent, audited, and run by a real Celery worker."""

import pytest

from apps.graph import cypher
from apps.graph.residue import tenant_residue
from apps.ingestion import document_deletion
from apps.ingestion.document_deletion import check_document_delete, document_delete_job_run
from apps.tenants.models import AuditEvent, Job, KeyScope
from memoryproject.api_errors import NotFoundError
from tests.conftest import scope_for, wait_for

PERSON = {"name": "Marguerite Oyelaran", "type": "Person",
          "values": {"email": "marguerite@quillfeather.example"}}  # fmt: skip
FIRM = {"name": "Quillfeather Analytics", "type": "Organization",
        "values": {"domain": "quillfeather.example"}}  # fmt: skip
KEPT_TEXT = "Marguerite Oyelaran founded Quillfeather Analytics, the records of the registry say."
GONE_TEXT = (
    "Maggie Oyelaran, born Marguerite Oyelaran, founded Quillfeather Analytics. "
    "Quillfeather Analytics keeps its servers in Zanzibrook, near Tobiah Wrenfield's farm."
)


def kept_facts():
    return {"entities": [PERSON, FIRM], "source_text": KEPT_TEXT,
            "relations": [{"subject": PERSON["name"], "predicate": "founded",
                           "object": FIRM["name"]}]}  # fmt: skip


def gone_facts():
    person = {**PERSON, "aliases": ["Maggie Oyelaran"], "values": {**PERSON["values"],
              "phone": "+351 21 555 0199"}}  # fmt: skip
    return {
        "entities": [person, FIRM, {"name": "Zanzibrook", "type": "Location"},
                     {"name": "Tobiah Wrenfield", "type": "Person"}],
        "relations": [
            {"subject": PERSON["name"], "predicate": "founded", "object": FIRM["name"]},
            {"subject": FIRM["name"], "predicate": "located_in", "object": "Zanzibrook"},
        ],
        "source_text": GONE_TEXT,
    }  # fmt: skip


def entity(scope, name):
    rows = cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant}) WHERE e.name = $name AND e.status = 'active' "
        "RETURN e {.uid, .aliases, .values_json, "
        "mentions: COUNT { (:Chunk)-[:MENTIONS]->(e) }} AS e",
        name=name,
    )
    return [r["e"] for r in rows]


def relations(scope):
    return cypher.read(
        scope,
        "MATCH (s:Entity {tenant: $tenant})-[r:RELATED_TO]->(o:Entity) "
        "RETURN s.name AS s, r.predicate AS p, o.name AS o, r.weight AS weight, "
        "r.observations AS observations ORDER BY p",
    )


def chunk_uids(scope, document):
    return [r["uid"] for r in cypher.read(
        scope, "MATCH (c:Chunk {tenant: $tenant, document_uid: $d}) RETURN c.uid AS uid",
        d=document)]  # fmt: skip


@pytest.fixture
def two_documents(tenant, api_client):
    """The kept document first, then the one to delete: its person and firm merge into the
    kept document's (same email, same domain); Zanzibrook and the located_in relation are only
    its own; Tobiah Wrenfield is also stated by an agent's fact with no text."""
    kept = api_client.post("/api/v1/facts", kept_facts(), format="json")
    assert kept.status_code == 201, kept.json()
    stated = {"entities": [{"name": "Tobiah Wrenfield", "type": "Person"}]}
    assert api_client.post("/api/v1/facts", stated, format="json").status_code == 201
    gone = api_client.post("/api/v1/facts", gone_facts(), format="json")
    assert gone.status_code == 201, gone.json()
    return kept.json()["document"], gone.json()["document"]


def test_deletion_removes_what_only_it_taught_and_keeps_what_others_did(tenant, two_documents):
    scope = scope_for(tenant)
    kept, gone = two_documents
    [person] = entity(scope, PERSON["name"])
    assert "Maggie Oyelaran" in person["aliases"] and person["mentions"] == 3
    assert [r["weight"] for r in relations(scope)] == [2, 1]  # founded twice, located_in once
    gone_chunks = chunk_uids(scope, gone)
    kept_chunks = chunk_uids(scope, kept)
    assert tenant_residue(scope, needles=["Zanzibrook", "Maggie", "555 0199"])

    job = check_document_delete(scope, uid=gone)
    assert job.kind == "document_delete" and job.subject == gone
    result = document_delete_job_run(job)

    job.refresh_from_db()
    assert job.status == "done", job.error
    assert result["left"] == 0 and result["residue"] == {}
    # Zanzibrook, and its own Tobiah Wrenfield (a name alone never merges: it was pending
    # beside the stated one), with that pending pair.
    assert result["chunks"] == 1 and result["entities_deleted"] == 2
    assert result["pairs_deleted"] == 1
    assert result["relations_deleted"] == 1 and result["merges_undone"] >= 1
    [founded] = relations(scope)
    assert (founded["p"], founded["weight"]) == ("FOUNDED", 1)
    assert founded["observations"] == kept_chunks
    [person] = entity(scope, PERSON["name"])
    assert person["mentions"] == 1 and "Maggie Oyelaran" not in (person["aliases"] or [])
    assert "phone" not in (person["values_json"] or "")
    assert "email" in person["values_json"]  # the kept document's
    assert [e["mentions"] for e in entity(scope, FIRM["name"])] == [1]
    assert entity(scope, "Zanzibrook") == []
    assert len(entity(scope, "Tobiah Wrenfield")) == 1  # an agent stated it too
    # Nothing anywhere in the tenant holds the document, its chunks or its own words.
    needles = [gone, *gone_chunks, "Zanzibrook", "Maggie", "555 0199", "Wrenfield's farm"]
    assert tenant_residue(scope, needles=needles) == {}
    assert tenant_residue(scope, needles=[kept, *kept_chunks])  # the other one is whole

    actions = list(AuditEvent.objects.filter(tenant=tenant).values_list("action", flat=True))
    assert "document.delete_requested" in actions and "document.deleted" in actions
    done = AuditEvent.objects.get(tenant=tenant, action="document.deleted")
    assert done.details["chunks"] == 1 and "residue" not in done.details


def test_a_second_deletion_is_a_404_and_a_rerun_changes_nothing(tenant, two_documents):
    scope = scope_for(tenant)
    _, gone = two_documents
    job = check_document_delete(scope, uid=gone)
    # Asked again while it is queued: the same job.
    assert check_document_delete(scope, uid=gone).uid == job.uid
    document_delete_job_run(job)
    before = relations(scope)
    with pytest.raises(NotFoundError):
        check_document_delete(scope, uid=gone)
    # A redelivered task runs the work again: nothing is left to do, nothing else changes.
    again = document_deletion.document_erase(scope, uid=gone)
    assert again["documents"] == 0 and again["chunks"] == 0 and again["left"] == 0
    assert relations(scope) == before


def test_a_run_that_stopped_after_the_chunks_is_finished_by_the_next(tenant, two_documents):
    """The first run planned and deleted the chunks, then stopped (a crash, or a second run that
    started in between and deleted the document): the entities only the document named have no
    mention left to find them by, and the next run still deletes them."""
    scope = scope_for(tenant)
    _, gone = two_documents
    plan = cypher.write(scope, document_deletion.PLAN, uid=gone)[0]
    cypher.write(scope, document_deletion.CHUNKS_DELETE, uid=gone, chunks=plan["chunks"])
    assert entity(scope, "Zanzibrook")  # no mention left, still there

    result = document_deletion.document_erase(scope, uid=gone)
    assert result["documents"] == 1 and result["left"] == 0
    assert result["entities_deleted"] == 2
    assert entity(scope, "Zanzibrook") == []
    assert tenant_residue(scope, needles=[gone, "Zanzibrook", "Wrenfield's farm"]) == {}


def test_the_api_answers_202_with_the_jobs_url_then_404(tenant, api_client, two_documents):
    _, gone = two_documents
    response = api_client.delete(f"/api/v1/documents/{gone}")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert body["job_url"] == f"/api/v1/jobs/{body['job']}" and body["document"] == gone
    document_delete_job_run(Job.objects.get(uid=body["job"]))
    assert api_client.get(body["job_url"]).json()["status"] == "done"
    assert api_client.get(f"/api/v1/documents/{gone}").status_code == 404
    assert api_client.delete(f"/api/v1/documents/{gone}").status_code == 404


def test_a_pending_pair_with_an_entity_only_it_named_goes_with_it(tenant, api_client):
    """A name alone never merges: the second document's 'Ilse Brandvold' is a new entity with a
    pending SAME_AS to the first's; deleting the second takes the entity and the pair."""
    scope = scope_for(tenant)
    first = {"entities": [{"name": "Ilse Brandvold", "type": "Person"}],
             "source_text": "Ilse Brandvold sings in the harbour choir."}  # fmt: skip
    second = {"entities": [{"name": "Ilse Brandvold", "type": "Person"}],
              "source_text": "Ilse Brandvold repairs fishing nets in Tromso."}  # fmt: skip
    api_client.post("/api/v1/facts", first, format="json")
    uid = api_client.post("/api/v1/facts", second, format="json").json()["document"]
    pairs = (
        "MATCH (:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]->() RETURN count(s) AS n"
    )
    if cypher.read(scope, pairs)[0]["n"] == 0:
        pytest.skip("the gate merged the two on its own; no pending pair to remove")
    document_delete_job_run(check_document_delete(scope, uid=uid))
    assert cypher.read(scope, pairs)[0]["n"] == 0
    assert [e["mentions"] for e in entity(scope, "Ilse Brandvold")] == [1]


def test_deleting_needs_the_write_scope(tenant, two_documents):
    _, gone = two_documents
    reader = scope_for(tenant, permissions={KeyScope.MEMORY_READ})
    with pytest.raises(Exception, match="memory:write"):
        check_document_delete(reader, uid=gone)


@pytest.mark.worker
@pytest.mark.slow
def test_a_real_worker_deletes_it_even_when_the_task_runs_twice_at_once(
    celery_worker, make_tenant, make_api_client
):
    from apps.ingestion import tasks

    tenant = make_tenant()
    client = make_api_client(tenant)
    assert client.post("/api/v1/facts", kept_facts(), format="json").status_code == 201
    gone = client.post("/api/v1/facts", gone_facts(), format="json").json()["document"]
    scope = scope_for(tenant)
    gone_chunks = chunk_uids(scope, gone)
    response = client.delete(f"/api/v1/documents/{gone}")
    assert response.status_code == 202, response.json()
    job_uid = response.json()["job"]
    tasks.document_delete.delay(job_uid)  # a second worker process runs the same job at once

    def finished():
        # Both runs ended: each that finishes audits its end (one run's "done" on the row can
        # precede the other's end), and a run that fails marks the job failed.
        job = Job.objects.get(uid=job_uid)
        ends = AuditEvent.objects.filter(action="document.deleted", target=f"job:{job_uid}")
        return (
            job if job.status == "failed" or (job.status == "done" and ends.count() >= 2) else None
        )

    job = wait_for(finished, timeout=300, message="the worker did not finish the deletion")
    assert job.status == "done", job.error
    assert job.result["left"] == 0
    assert client.get(f"/api/v1/documents/{gone}").status_code == 404
    assert tenant_residue(scope, needles=[gone, *gone_chunks, "Zanzibrook"]) == {}
    [founded] = relations(scope)
    assert founded["weight"] == 1


def test_a_document_not_ingested_yet_deletes_and_its_ingestion_then_finds_it_gone(tenant, scope):
    from apps.ingestion.services import check_document_submit, document_ingest_job_run

    stored = check_document_submit(scope, content="Quarrymen of Wendlestone met on Friday.",
                                   source="notes")  # fmt: skip
    ingest = Job.objects.get(uid=stored["job"])
    result = document_delete_job_run(check_document_delete(scope, uid=stored["document"]))
    assert result["documents"] == 1 and result["chunks"] == 0 and result["left"] == 0
    document_ingest_job_run(ingest)
    ingest.refresh_from_db()
    assert ingest.status == "failed" and ingest.error == "The document is gone."
    assert tenant_residue(scope, needles=[stored["document"], "Wendlestone"]) == {}
