"""`POST /api/v1/kinds/{kind}/embed` queues a job (202) instead of embedding in the request: asked
twice it is one job, its progress and result are read at its URL, a real worker runs it, and two
workers running it at once give each entity one vector. The real model throughout."""

from __future__ import annotations

import pytest

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.tenants.models import Job
from apps.timeline import tasks
from apps.timeline.kinds import check_kind_declare
from apps.timeline.meaning import nearest
from apps.timeline.services import check_rows_write
from tests.conftest import scope_for, wait_for
from tests.timeline.test_meaning import MANUAL, TEXTS, keys, manual

VECTORS = """
MATCH (e:Entity {tenant: $tenant, kind: 'Manual'})
RETURN count(e.text_vector) AS embedded, count(CASE WHEN e:KindTextToEmbed THEN 1 END) AS waiting
"""


def _manuals(scope) -> None:
    check_kind_declare(scope, kind=MANUAL)
    check_rows_write(scope, rows=[manual(k) for k in TEXTS])


def test_embed_is_a_job_queued_once_with_its_result_at_its_url(tenant, make_api_client):
    scope = scope_for(tenant)
    _manuals(scope)
    client = make_api_client(tenant)
    response = client.post("/api/v1/kinds/Manual/embed", {"limit": 2}, format="json")
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "queued" and body["url"] == f"/api/v1/jobs/{body['job']}"
    assert body["progress"] == {"done": 0, "total": 3}
    again = client.post("/api/v1/kinds/Manual/embed", {"limit": 2}, format="json").json()
    assert again["job"] == body["job"]  # the one queued: not a second job
    assert cypher.read(scope, VECTORS)[0] == {"embedded": 0, "waiting": 3}  # nothing in the request

    job = Job.objects.get(uid=body["job"])
    assert (job.kind, job.subject) == ("kind_embed", "Manual")
    tasks.kind_embed(job.uid, 2)  # what the worker runs: two rounds of 2
    done = client.get(body["url"]).json()
    assert done["status"] == "done", done
    assert done["result"] == {"kind": "Manual", "model": get_embedder().name, "embedded": 3,
                              "waiting": 0}  # fmt: skip
    assert done["progress"] == {"done": 3, "total": 3}
    assert keys(nearest(scope, kind="Manual", q="the pump is leaking"))[0] == "m1"
    # Done: asking again is a new job, with nothing to do.
    third = client.post("/api/v1/kinds/Manual/embed", format="json").json()
    assert third["job"] != body["job"] and third["progress"]["total"] == 0


def test_bad_embed_requests_are_refused_naming_the_field(tenant, make_api_client):
    scope = scope_for(tenant)
    check_kind_declare(scope, kind={"name": "Room", "key": "code"})
    client = make_api_client(tenant)
    assert client.post("/api/v1/kinds/Nope/embed", format="json").status_code == 404
    refused = client.post("/api/v1/kinds/Room/embed", format="json")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "embed"
    too_many = client.post("/api/v1/kinds/Room/embed", {"limit": 501}, format="json")
    assert too_many.status_code == 400 and "limit" in too_many.json()["error"]["fields"]
    reader = make_api_client(tenant, scopes=["memory:read"])
    assert reader.post("/api/v1/kinds/Room/embed", format="json").status_code == 403
    assert not Job.objects.filter(tenant=tenant, kind="kind_embed").exists()


@pytest.mark.django_db(transaction=True)
def test_real_workers_run_the_job_and_two_at_once_give_one_vector_each(request, make_tenant,
                                                                        make_api_client):  # fmt: skip
    request.getfixturevalue("celery_worker")  # two processes (TEST_WORKER_CONCURRENCY 2)
    tenant = make_tenant()
    scope = scope_for(tenant)
    _manuals(scope)
    client = make_api_client(tenant)
    body = client.post("/api/v1/kinds/Manual/embed", {"limit": 1}, format="json").json()
    tasks.kind_embed.delay(body["job"], 1)  # the same job delivered twice: both workers run it

    def finished():
        job = client.get(body["url"]).json()
        return job if job["status"] in ("done", "failed") else None

    job = wait_for(finished, timeout=300, message="the workers did not finish the embed job")
    assert job["status"] == "done", job
    assert job["result"]["embedded"] == 3 and job["result"]["waiting"] == 0
    assert job["progress"] == {"done": 3, "total": 3}  # the job's, whichever delivery ended last
    assert cypher.read(scope, VECTORS)[0] == {"embedded": 3, "waiting": 0}
    models = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, kind: 'Manual'}) "
                                "RETURN collect(DISTINCT e.text_vector_model) AS m")  # fmt: skip
    assert models[0]["m"] == [get_embedder().name]
    assert keys(nearest(scope, kind="Manual", q="how to bake bread"))[0] == "m3"
