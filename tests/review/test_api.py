"""The review API for agents: scope, tenant isolation, decisions and their conflicts, undo, and a
rejection that re-ingestion honours."""

from apps.resolution.candidates import EntityCandidate
from apps.tenants.models import AuditEvent, KeyScope
from tests.conftest import scope_for
from tests.review.review_fixtures import ANTHROPIC, anthropic_pair, ingest, pending_pairs

REVIEW = [KeyScope.REVIEW.value]


def test_a_key_without_the_review_scope_is_refused(tenant, make_api_client):
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    reader = make_api_client(tenant, [KeyScope.MEMORY_READ.value, KeyScope.MEMORY_WRITE.value])
    assert reader.get("/api/v1/reviews").status_code == 403
    response = reader.post(f"/api/v1/reviews/{pair['uid']}/confirm", {}, format="json")
    assert response.status_code == 403
    assert pending_pairs(scope_for(tenant)) == [pair]


def test_another_tenants_pair_and_merge_answer_404(make_tenant, make_api_client):
    mine, theirs = make_tenant(), make_tenant()
    anthropic_pair(scope_for(theirs))
    [pair] = pending_pairs(scope_for(theirs))
    client = make_api_client(mine, REVIEW)
    assert client.get("/api/v1/reviews").json()["results"] == []
    for path in (f"/api/v1/reviews/{pair['uid']}",):
        assert client.get(path).status_code == 404
    for action in ("confirm", "reject"):
        assert client.post(f"/api/v1/reviews/{pair['uid']}/{action}").status_code == 404
    merged = make_api_client(theirs, REVIEW).post(f"/api/v1/reviews/{pair['uid']}/confirm")
    assert merged.status_code == 200
    undo = client.post(f"/api/v1/merges/{merged.json()['merge_uid']}/undo")
    assert undo.status_code == 404 and undo.json()["error"]["code"] == "not_found"


def test_confirm_conflict_undo_then_reject_and_reingest(tenant, make_api_client):
    scope = scope_for(tenant)
    first, second = anthropic_pair(scope)
    client = make_api_client(tenant, REVIEW)
    listing = client.get("/api/v1/reviews", {"status": "pending"}).json()
    assert listing["pending"] == 1 and listing["matching"] == 1
    [row] = listing["results"]
    assert row["left"]["name"] == "Anthropic AI" and row["right"]["name"] == "Anthropic"
    assert row["impact"] >= 4
    assert client.get("/api/v1/reviews", {"colour": "red"}).status_code == 400
    bad = client.get("/api/v1/reviews", {"min_score": 2})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "min_score"

    confirmed = client.post(f"/api/v1/reviews/{row['uid']}/confirm", {}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    body = confirmed.json()
    assert body["survivor_uid"] == first[0].entity_uid and body["moved"] > 0
    assert "Anthropic AI" in body["aliases_absorbed"]
    again = client.post(f"/api/v1/reviews/{row['uid']}/reject", {}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["decided_by"].startswith("key:")
    assert client.get("/api/v1/reviews").json()["pending"] == 0

    undone = client.post(f"/api/v1/merges/{body['merge_uid']}/undo")
    assert undone.status_code == 200 and undone.json()["review_uid"] == row["uid"]
    assert client.post(f"/api/v1/merges/{body['merge_uid']}/undo").status_code == 409
    assert client.get("/api/v1/reviews").json()["pending"] == 1

    rejected = client.post(
        f"/api/v1/reviews/{row['uid']}/reject", {"reason": "a different firm"}, format="json"
    )
    assert rejected.status_code == 200
    assert client.get("/api/v1/reviews").json()["pending"] == 0
    # A new document naming Anthropic AI goes through the gate again (the same text again would
    # be the same document, where one name is one entity): the pair a reviewer kept apart is never
    # proposed again, whatever the gate decides for the new mention (issue 12: a name alone no
    # longer merges).
    again = ingest(
        scope,
        "Anthropic AI opened an office in London. Google invested in Anthropic AI.",
        [EntityCandidate("Anthropic AI", "Organization", description=ANTHROPIC)],
        title="another document",
    )
    assert first[0].entity_uid not in {p["uid"] for p in again[0].proposed}
    assert again[0].entity_uid != first[0].entity_uid
    kept_apart = {"Anthropic", "Anthropic AI"}
    assert not [p for p in pending_pairs(scope) if {p["a"], p["b"]} == kept_apart]
    actions = list(
        AuditEvent.objects.filter(tenant=tenant).order_by("at").values_list("action", flat=True)
    )
    assert actions == ["review.confirm", "merge.undo", "review.reject"]


def test_refused_decisions_are_recorded_once_per_distinct_refusal(tenant, make_api_client):
    from apps.graph.write_failures import write_failures_list

    scope = scope_for(tenant)
    anthropic_pair(scope)
    [pair] = pending_pairs(scope)
    client = make_api_client(tenant, REVIEW)
    assert client.post(f"/api/v1/reviews/{pair['uid']}/confirm").status_code == 200
    for _ in range(3):  # a client retrying its refused write stays one record, counted
        assert client.post(f"/api/v1/reviews/{pair['uid']}/reject").status_code == 409
    assert client.post("/api/v1/merges/no-such-merge/undo").status_code == 404
    assert client.get("/api/v1/reviews/no-such-review").status_code == 404  # a read: not kept
    failures = {(f["kind"], f["count"]) for f in write_failures_list(scope)}
    assert failures == {("conflict", 3), ("not_found", 1)}, failures
