"""The suspect-merge API for agents: the re-scoring job runs on a worker with progress, then a
key with the review scope lists, reads (weights then and now), undoes or keeps; other tenants
and keys without the scope are refused."""

import pytest

from apps.tenants.models import KeyScope
from tests.conftest import scope_for, wait_for
from tests.review.test_suspect_merges import auto_merged, born_counts_for_little

REVIEW = [KeyScope.REVIEW.value]


@pytest.mark.django_db(transaction=True)
def test_rescore_on_a_worker_then_list_read_undo_and_keep(make_tenant, make_api_client,
                                                          celery_worker):  # fmt: skip
    tenant = make_tenant()
    scope = scope_for(tenant)
    auto_merged(scope, "Grace", "Hopper", "1906-12-09")
    auto_merged(scope, "Alan", "Turing", "1912-06-23")
    born_counts_for_little(scope)
    reader = make_api_client(tenant, [KeyScope.MEMORY_READ.value])
    assert reader.get("/api/v1/suspect-merges").status_code == 403
    assert reader.post("/api/v1/suspect-merges/rescore").status_code == 403
    client = make_api_client(tenant, [*REVIEW, KeyScope.MEMORY_READ.value])  # jobs: read
    queued = client.post("/api/v1/suspect-merges/rescore")
    assert queued.status_code == 202, queued.content
    done = wait_for(lambda: (j := client.get(queued.json()["url"]).json())["status"] == "done" and j,
                    timeout=300, message="the re-scoring job did not finish")  # fmt: skip
    assert done["result"]["suspect"] == 2 and done["progress"] == {"done": 2, "total": 2}

    assert client.get("/api/v1/suspect-merges", {"limit": 0}).status_code == 400
    listing = client.get("/api/v1/suspect-merges").json()
    assert listing["suspect"] == 2
    hopper = next(r for r in listing["results"] if r["name"] == "Grace Hopper")
    assert hopper["entity_name"] == "Grace Hopper" and hopper["rescored_probability"] < 0.995
    detail = client.get(f"/api/v1/suspect-merges/{hopper['uid']}").json()
    assert detail["status"] == "suspect" and detail["mention"]["aliases"] == ["G. K. Hopper"]
    assert any("same birth date" in e["words"] for e in detail["rescored_evidence"])

    other = make_api_client(make_tenant(), REVIEW)
    assert other.get("/api/v1/suspect-merges").json()["suspect"] == 0
    assert other.get(f"/api/v1/suspect-merges/{hopper['uid']}").status_code == 404
    assert other.post(f"/api/v1/suspect-merges/{hopper['uid']}/undo").status_code == 404

    undone = client.post(f"/api/v1/suspect-merges/{hopper['uid']}/undo")
    assert undone.status_code == 200, undone.content
    assert undone.json()["status"] == "undone" and undone.json()["restored_uid"]
    again = client.post(f"/api/v1/suspect-merges/{hopper['uid']}/keep")
    assert again.status_code == 409 and again.json()["error"]["status"] == "undone"
    turing = next(r for r in listing["results"] if r["name"] == "Alan Turing")
    assert client.post(f"/api/v1/suspect-merges/{turing['uid']}/keep").status_code == 200
    assert client.get("/api/v1/suspect-merges").json()["suspect"] == 0
