"""Deletions queued at once (issue 48): documents whose entities the gate merged into each other's,
deleted by a real Celery worker with several processes, leave what sequential deletions leave:
nothing of a deleted document anywhere (the residue scan after each), nothing at all once every
document is gone, and a job reads done only when its own residue scan found nothing."""

import warnings

import pytest

from apps.graph import cypher
from apps.graph.residue import tenant_residue
from apps.ingestion import document_deletion, selectors
from apps.ingestion.document_deletion import check_document_delete, document_delete_job_run
from apps.ingestion.services import check_document_submit, check_facts_submit
from apps.resolution.selectors import entity_detail
from apps.search.services import check_search
from apps.tenants.models import Job
from tests.conftest import scope_for, wait_for

TEXT = (
    "Marguerite Oyelaran bought a Kestrel X9 drone in March. "
    "Marguerite Oyelaran can be reached at marguerite@quillfeather.example. "
    "The Kestrel X9 drone is made by Quillfeather Analytics in Zanzibrook."
)
PLACES = ["Vellmarsh", "Oskarby", "Tregarthen", "Saltmere", "Brackenholt", "Lindqvarn", "Ebbworth"]
BOOKKEEPING = {"GraphVersion", "GraphStamp", "DeletionLock", "ReviewLock", "MatchModel"}


def text_document(scope) -> dict:
    """The issue's first write: a short text, read at once (as the MCP client's add_memory)."""
    stored = check_document_submit(scope, content=TEXT, source="notes", wait=True)
    assert stored["status"] == "done", stored
    return stored


def facts_merging(scope, place: str | None = None) -> dict:
    """The issue's second write: facts with their text, whose Person and Object the gate merges
    into the text's (the same email; named beside each other)."""
    entities = [
        {"name": "Marguerite Oyelaran", "type": "Person",
         "values": {"email": "marguerite@quillfeather.example"}},
        {"name": "Kestrel X9", "type": "Object"},
    ]  # fmt: skip
    relations = [{"subject": "Marguerite Oyelaran", "predicate": "owns", "object": "Kestrel X9"}]
    text = "Marguerite Oyelaran owns the Kestrel X9 drone."
    if place:
        entities.append({"name": place, "type": "Location"})
        relations.append({"subject": "Kestrel X9", "predicate": "located_in", "object": place})
        text = f"Marguerite Oyelaran owns the Kestrel X9 drone, kept in {place}."
    return check_facts_submit(scope, entities=entities, relations=relations, source_text=text)


def merged_into(receipts: list[dict]) -> dict[str, str]:
    return {r["name"]: r["entity_uid"] for r in receipts
            if r["kind"] == "entity" and r["action"] in ("merged", "unchanged")}  # fmt: skip


def needles_of(scope, document: str) -> list[str]:
    """The document's uid, its chunks' uids, and the uids of the entities only it names."""
    rows = cypher.read(
        scope,
        "MATCH (c:Chunk {tenant: $tenant, document_uid: $d}) "
        "OPTIONAL MATCH (c)-[:MENTIONS]->(e:Entity) "
        "WITH c, e, COUNT { (:Chunk)-[:MENTIONS]->(e) } AS named "
        "RETURN collect(DISTINCT c.uid) AS chunks, "
        "       collect(DISTINCT CASE WHEN named = 1 THEN e.uid END) AS own",
        d=document,
    )[0]
    return [document, *rows["chunks"], *rows["own"]]


def deletions_queued_at_once(scope, documents: list[str]) -> tuple[list[Job], int]:
    """Queue every deletion, then wait for all; the jobs, and how many were seen running at
    the same time (the worker's processes took them together)."""
    uids = [check_document_delete(scope, uid=d).uid for d in documents]
    most = 0

    def finished():
        nonlocal most
        statuses = list(Job.objects.filter(uid__in=uids).values_list("status", flat=True))
        most = max(most, statuses.count("running"))
        return all(s in ("done", "failed") for s in statuses)

    wait_for(finished, timeout=600, interval=0.05, message="the deletions did not finish")
    return [Job.objects.get(uid=u) for u in uids], most


def graph_left(scope) -> dict[str, int]:
    rows = cypher.read(
        scope,
        "MATCH (n) WHERE n.tenant = $tenant UNWIND labels(n) AS label RETURN label, count(*) AS n",
    )
    return {r["label"]: r["n"] for r in rows if r["label"] not in BOOKKEEPING}


@pytest.fixture
def four_worker_processes(monkeypatch, request):
    monkeypatch.setenv("TEST_WORKER_CONCURRENCY", "4")
    return request.getfixturevalue("celery_worker")


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_issue_a_text_and_facts_merged_into_it_deleted_at_once_leave_nothing(
    celery_worker, make_tenant
):
    """The issue as found: a text document, facts whose Person and Object merged into the text's,
    then both deleted without waiting. Before the fix the text's job ended `done` with residue
    (the values its text taught, on the entities the facts still held; or the other deletion's
    list of what it works on), and the entities could stay."""
    for _ in range(3):  # the interleaving differs from round to round
        scope = scope_for(make_tenant())
        text = text_document(scope)["document"]
        facts = facts_merging(scope)
        shared = merged_into(facts["receipts"])
        assert set(shared) == {"Marguerite Oyelaran", "Kestrel X9"}, facts["receipts"]
        needles = {d: needles_of(scope, d) for d in (text, facts["document"])}

        jobs, _ = deletions_queued_at_once(scope, [text, facts["document"]])

        for job in jobs:
            assert job.status == "done", (job.error, job.result)
            assert job.result["left"] == 0 and job.result["residue"] == {}, job.result
            assert tenant_residue(scope, needles=needles[job.subject]) == {}
        assert sum(job.result["merges_undone"] for job in jobs) == 2
        assert all(entity_detail(scope, uid=uid) is None for uid in shared.values())
        found = check_search(scope, q="Marguerite Oyelaran Kestrel X9", kinds="entities")
        assert found["results"] == []
        assert graph_left(scope) == {}


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_deletions_queued_at_once_over_shared_merged_entities(four_worker_processes, tenant):
    """Eight documents name the same Person and Object (seven facts merged into the text's), each
    facts document with a place of its own. Five deleted at once: the three left keep exactly
    what they taught; then those three at once: nothing is left."""
    scope = scope_for(tenant)
    text = text_document(scope)["document"]
    facts = [facts_merging(scope, place) for place in PLACES]
    person, thing = (merged_into(facts[0]["receipts"])[n]
                     for n in ("Marguerite Oyelaran", "Kestrel X9"))  # fmt: skip
    for stored in facts:
        assert merged_into(stored["receipts"]) == {"Marguerite Oyelaran": person,
                                                   "Kestrel X9": thing}, stored["receipts"]  # fmt: skip
    documents = [text, *(f["document"] for f in facts)]
    needles = {d: needles_of(scope, d) for d in documents}

    first, running = deletions_queued_at_once(scope, documents[:5])
    if running < 2:  # sampled every 50 ms: a loaded host can run them together unseen
        warnings.warn("no two deletions were seen running at once", stacklevel=1)
    for job in first:
        assert job.status == "done", (job.error, job.result)
        assert job.result["left"] == 0, job.result
        assert tenant_residue(scope, needles=needles[job.subject]) == {}
    assert sum(job.result["merges_undone"] for job in first) == 8  # 4 documents x 2 merges
    kept = documents[5:]
    kept_chunks = sorted(c for d in kept for c in needles[d][1:2])
    [owns] = cypher.read(
        scope,
        "MATCH (:Entity {tenant: $tenant, uid: $p})-[r:RELATED_TO {predicate: 'OWNS'}]->() "
        "RETURN r.weight AS weight, r.observations AS observations",
        p=person,
    )
    assert owns["weight"] == 3 and sorted(owns["observations"]) == kept_chunks
    for uid in (person, thing):
        assert len(entity_detail(scope, uid=uid)["mentions"]) == 3
    assert {d["uid"] for d in selectors.documents_list(scope)["results"]} == set(kept)

    last, _ = deletions_queued_at_once(scope, kept)
    for job in last:
        assert job.status == "done", (job.error, job.result)
        assert job.result["left"] == 0, job.result
        assert tenant_residue(scope, needles=needles[job.subject]) == {}
    assert tenant_residue(scope, needles=[*PLACES, "Zanzibrook", "Oyelaran", person, thing]) == {}
    assert graph_left(scope) == {}


def test_a_deletion_whose_residue_stays_ends_failed_and_deleting_again_finishes_it(
    tenant, monkeypatch
):
    """A residue the steps cannot take away (here: the values the text taught, with that step
    switched off) is swept SWEEPS times, then the job ends failed saying where, never done; the
    document is kept, marked deleting, and deleting it again finishes the work."""
    scope = scope_for(tenant)
    text = text_document(scope)["document"]
    facts_merging(scope)
    monkeypatch.setattr(document_deletion, "do_learned_values_forget", lambda stx, **_: 0)

    result = document_delete_job_run(check_document_delete(scope, uid=text))

    job = Job.objects.filter(subject=text).latest("created_at")
    assert job.status == "failed" and job.result == result
    assert result["residue"] == {"Entity.value_sources_json": 2, "Document.uid": 1}
    assert job.error == (
        "3 traces of the document left in the graph "
        "(Document.uid: 1, Entity.value_sources_json: 2); the document is kept, marked deleting"
    )
    assert result["documents"] == 0 and result["chunks"] == 1
    assert selectors.document_detail(scope, uid=text)["deleting"] is True

    monkeypatch.undo()
    result = document_delete_job_run(check_document_delete(scope, uid=text))
    assert Job.objects.filter(subject=text).latest("created_at").status == "done"
    assert result["documents"] == 1 and result["left"] == 0 and result["values_forgotten"] >= 2
    assert selectors.document_detail(scope, uid=text) is None


def test_values_the_text_taught_go_with_it_from_entities_that_stay(tenant):
    """The text's Person and Object stay (the facts name them too), without what only the text
    taught: the email and the role learned from its sentences, with their sources."""
    scope = scope_for(tenant)
    text = text_document(scope)["document"]
    shared = merged_into(facts_merging(scope)["receipts"])
    person = entity_detail(scope, uid=shared["Marguerite Oyelaran"])
    assert "text:email" in person["values"]

    result = document_delete_job_run(check_document_delete(scope, uid=text))
    assert result["left"] == 0 and result["values_forgotten"] >= 2, result  # email, role, ties
    person = entity_detail(scope, uid=shared["Marguerite Oyelaran"])
    assert "text:email" not in person["values"]
    assert person["values"]["email"] == "marguerite@quillfeather.example"  # the facts stated it
    assert text not in {m["document_uid"] for m in person["mentions"]}
