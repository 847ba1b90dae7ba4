"""Suspect merges: the gate's automatic merge leaves a record; after the model changes, the
re-scoring job turns the merges it no longer stands behind into suspect merges (once), and a
reviewer keeps one or undoes it, getting the mention's entity back with what it brought."""

import copy

import pytest

from apps.graph import cypher
from apps.resolution.auto_merges import auto_merges_rescore
from apps.resolution.candidates import EntityCandidate, RelationCandidate
from apps.resolution.match_model import model_params
from apps.resolution.tenant_model import match_model_store
from apps.review.services import check_suspect_keep, check_suspect_undo
from apps.review.suspect_merges import suspect_detail, suspect_queue
from apps.tenants.models import Role
from memoryproject.api_errors import ConflictError, NotFoundError
from tests.conftest import scope_for
from tests.review.review_fixtures import ingest

ENTITY = """
MATCH (e:Entity {tenant: $tenant, name: $name, status: 'active'})
WHERE $uid IS NULL OR e.uid = $uid
RETURN e.uid AS uid, e.aliases AS aliases, e.values_json AS values_json,
       COUNT { (:Chunk)-[:MENTIONS]->(e) } AS mentions,
       EXISTS { (e)-[:NOT_SAME]-(:Entity {tenant: $tenant}) } AS not_same
"""


def entity(scope, name, uid=None):
    rows = cypher.read(scope, ENTITY, name=name, uid=uid)
    return rows[0] if rows else None


def relations(scope, uid):
    """(predicate, other end's name, weight) of the entity's RELATED_TO edges."""
    rows = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid})-[r:RELATED_TO]-(o) "
                       "RETURN r.predicate AS p, o.name AS o, r.weight AS w, "
                       "size(r.observations) AS n ORDER BY p, o", uid=uid)  # fmt: skip
    assert all(r["w"] == r["n"] for r in rows), rows  # weight counts the observations left
    return [(r["p"], r["o"], r["w"]) for r in rows]


def auto_merged(scope, first: str, surname: str, born: str):
    """A person, then the same name with the same birth date and an alias and an email from
    another document: merged by the gate on its own."""
    ingest(scope, f"{first} {surname} was born.",
           [EntityCandidate(f"{first} {surname}", "Person", values={"born": born})],
           title=f"{surname} 1")  # fmt: skip
    receipts = ingest(scope, f"{first} {surname} wrote.", [EntityCandidate(
        f"{first} {surname}", "Person", aliases=(f"{first[0]}. K. {surname}",),
        values={"born": born, "email": f"{surname.lower()}@example.org"})], title=f"{surname} 2")  # fmt: skip
    assert receipts[0].action == "merged", receipts[0].reason
    return receipts[0]


def born_counts_for_little(scope):
    """A tenant model under which a shared birth date is weak evidence (as if its reviewers had
    rejected many pairs born the same day)."""
    params = copy.deepcopy(model_params())
    born = params["comparisons"]["born"]["levels"]["exact"]
    born["u"] = born["m"] / 1.5
    match_model_store(scope, params, confirmed=0, rejected=100)


def test_rescoring_turns_merges_suspect_once_and_reviewers_keep_or_undo(make_tenant):
    tenant = make_tenant()
    scope = scope_for(tenant, actor="user:ada", kind="person")
    auto_merged(scope, "Grace", "Hopper", "1906-12-09")
    auto_merged(scope, "Alan", "Turing", "1912-06-23")
    merged = entity(scope, "Grace Hopper")
    assert "G. K. Hopper" in merged["aliases"] and merged["mentions"] == 2

    # The same model and threshold: nothing is suspect, and a second run checks nothing.
    first = auto_merges_rescore(scope)
    assert (first["checked"], first["suspect"], first["model_version"]) == (2, 0, "default")
    assert auto_merges_rescore(scope)["checked"] == 0
    assert suspect_queue(scope)["suspect"] == 0

    born_counts_for_little(scope)
    changed = auto_merges_rescore(scope)
    assert (changed["checked"], changed["suspect"]) == (2, 2)
    assert changed["model_version"] != "default"
    again = auto_merges_rescore(scope)
    assert (again["checked"], again["suspect"]) == (0, 0)
    queue = suspect_queue(scope)
    assert queue["suspect"] == 2 and {r["name"] for r in queue["results"]} == {
        "Grace Hopper", "Alan Turing"}  # fmt: skip
    hopper = next(r for r in queue["results"] if r["name"] == "Grace Hopper")
    detail = suspect_detail(scope, uid=hopper["uid"])
    assert detail["probability"] >= 0.995 > detail["rescored_probability"]
    born_then = next(e for e in detail["evidence"] if e["comparison"] == "born")
    born_now = next(e for e in detail["rescored_evidence"] if e["comparison"] == "born")
    assert born_now["weight"] < born_then["weight"] and "same birth date" in born_now["words"]
    assert detail["entity"]["uid"] == merged["uid"]

    # Another tenant reaches none of it.
    other = scope_for(make_tenant())
    assert suspect_queue(other)["suspect"] == 0 and suspect_detail(other, uid=hopper["uid"]) is None
    with pytest.raises(NotFoundError):
        check_suspect_undo(other, uid=hopper["uid"])

    # Undo: the mention's entity is back with its alias, email and mention; the two are NOT_SAME.
    undone = check_suspect_undo(scope, uid=hopper["uid"])
    assert undone["moved_back"] == 1
    survivor = entity(scope, "Grace Hopper", merged["uid"])
    restored = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) "
                           "RETURN e.status AS status, e.aliases AS aliases, e.values_json AS v, "
                           "e.embedding IS NOT NULL AS embedded, "
                           "COUNT { (:Chunk)-[:MENTIONS]->(e) } AS mentions",
                           uid=undone["restored_uid"])[0]  # fmt: skip
    assert restored["status"] == "active" and restored["aliases"] == ["G. K. Hopper"]
    assert "hopper@example.org" in restored["v"] and restored["mentions"] == 1
    assert restored["embedded"]
    assert survivor["uid"] == merged["uid"] and survivor["mentions"] == 1
    assert (
        "G. K. Hopper" not in (survivor["aliases"] or []) and "email" not in survivor["values_json"]
    )
    assert survivor["not_same"]
    with pytest.raises(ConflictError):
        check_suspect_undo(scope, uid=hopper["uid"])

    # Keep: it stays merged, leaves the queue, and the job never proposes it again.
    turing = next(r for r in queue["results"] if r["name"] == "Alan Turing")
    kept = check_suspect_keep(scope, uid=turing["uid"])
    assert kept["status"] == "kept"
    with pytest.raises(ConflictError):
        check_suspect_keep(scope, uid=turing["uid"])
    assert suspect_queue(scope)["suspect"] == 0
    assert auto_merges_rescore(scope)["suspect"] == 0
    assert entity(scope, "Alan Turing")["mentions"] == 2


def test_a_replayed_source_and_a_reviewed_pair_leave_no_automatic_merge(make_tenant):
    scope = scope_for(make_tenant())
    text = "Ada Lovelace wrote notes."
    candidate = EntityCandidate("Ada Lovelace", "Person", values={"born": "1815-12-10"})
    ingest(scope, text, [candidate])
    ingest(scope, text, [candidate])  # the same document again: named so there already
    count = cypher.read(scope, "MATCH (am:AutoMerge {tenant: $tenant}) RETURN count(am) AS n")
    assert count[0]["n"] == 0


def test_a_viewer_sees_suspect_merges_but_cannot_decide(make_tenant, make_person):
    from tests.review.test_pages import client_for

    tenant = make_tenant()
    scope = scope_for(tenant)
    auto_merged(scope, "Grace", "<b>Hopper</b>", "1906-12-09")
    born_counts_for_little(scope)
    assert auto_merges_rescore(scope)["suspect"] == 1
    [row] = suspect_queue(scope)["results"]
    viewer = client_for(make_person(tenant, Role.VIEWER))
    page = viewer.get("/review/suspects/")
    assert page.status_code == 200 and b'id="suspect-count">1<' in page.content
    assert b"&lt;b&gt;Hopper&lt;/b&gt;" in page.content and b"<b>Hopper" not in page.content
    assert b'data-decide="reject"' not in page.content
    assert viewer.post(f"/review/suspects/{row['uid']}/undo").status_code == 403
    assert viewer.get("/review/suspects/nope/").status_code == 404
    reviewer = client_for(make_person(tenant, Role.REVIEWER))
    assert b'data-decide="reject"' in reviewer.get("/review/suspects/").content
    assert suspect_queue(scope)["suspect"] == 1


def test_a_merge_made_by_document_ingestion_is_suspect_and_undone(make_tenant):
    """The windowed document path leaves the same AutoMerge record, and marks its mentions."""
    from apps.ingestion.chunk_writes import WindowChunk, window_write
    from apps.resolution.candidates import MentionSpan
    from apps.resolution.gate import candidates_embed
    from tests.chunks import chunk_record, document_for

    scope = scope_for(make_tenant(), actor="user:ada", kind="person")
    born = {"born": "1906-12-09"}
    ingest(scope, "Grace Hopper was born.", [EntityCandidate("Grace Hopper", "Person", values=born)],
           title="Hopper 1")  # fmt: skip
    texts = ["Grace Hopper wrote FLOW-MATIC.", "Then Grace Hopper sailed."]
    document = document_for(scope, " ".join(texts), title="Hopper 2")
    chunks = [
        WindowChunk(chunk_record(document, text), candidates_embed([EntityCandidate(
            "Grace Hopper", "Person", aliases=("G. K. Hopper",),
            values={**born, "email": "hopper@example.org"},
            mentions=(MentionSpan("Grace Hopper", text.find("Grace"), text.find("Grace") + 12),)),
            EntityCandidate("FLOW-MATIC", "Object")]),
            [RelationCandidate(0, "WROTE", 1)] if "FLOW" in text else [])
        for text in texts
    ]  # fmt: skip
    written = window_write(scope, chunks=chunks)
    assert written[0][0].action == "merged", written[0][0].reason
    merged = entity(scope, "Grace Hopper")
    assert merged["mentions"] == 3 and "G. K. Hopper" in merged["aliases"]

    born_counts_for_little(scope)
    assert auto_merges_rescore(scope)["suspect"] == 1
    [row] = suspect_queue(scope)["results"]
    assert row["name"] == "Grace Hopper" and row["entity_uid"] == merged["uid"]
    undone = check_suspect_undo(scope, uid=row["uid"])
    assert undone["moved_back"] == 2  # both chunks' mentions
    assert undone["relations_back"] == 1
    assert relations(scope, undone["restored_uid"]) == [("WROTE", "FLOW-MATIC", 1)]
    assert relations(scope, merged["uid"]) == []
    restored = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) "
                           "RETURN e.status AS status, e.values_json AS v, "
                           "COUNT { (:Chunk)-[:MENTIONS]->(e) } AS mentions",
                           uid=undone["restored_uid"])[0]  # fmt: skip
    assert restored["status"] == "active" and restored["mentions"] == 2
    assert "hopper@example.org" in restored["v"]
    survivor = entity(scope, "Grace Hopper", merged["uid"])
    assert survivor["mentions"] == 1 and "email" not in survivor["values_json"]
    assert "G. K. Hopper" not in (survivor["aliases"] or [])
