"""Found pages as evidence: chunking, the three duplicate layers, strength from goal alignment,
a job with progress, and racing ingests of one URL."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from apps.graph import cypher
from apps.tasks import selectors
from apps.tasks.services.page_ingest import (
    alignment_strength,
    check_pages_ingest_start,
    page_ingest,
    pages_ingest_run,
    soft_gate,
)
from apps.tasks.services.task_writes import check_task_create
from apps.tenants.models import Job, JobStatus, Role
from memoryproject.api_errors import ApplicationError
from tests.conftest import scope_for

FROM_URL = "MATCH (e:Evidence {tenant: $tenant, url: $url}) RETURN e.content AS content"
STAGED = "MATCH (s:PageStage {tenant: $tenant}) RETURN count(s) AS n"

PUMPS = (
    "# Centrifugal pump overheating\n\n"
    "Centrifugal pumps overheat when they run dry or against a closed discharge valve. The "
    "liquid in the casing heats up within minutes and the seals fail soon after.\n\n"
    "Worn bearings are the second cause of pump overheating: friction raises the bearing "
    "housing temperature well above eighty degrees before the motor trips.\n\n"
    "Cavitation at low suction pressure also heats the impeller and pits its vanes."
)
CAKES = (
    "Sponge cake recipe: whisk four eggs with sugar until pale, fold in sifted flour and bake "
    "at one hundred and eighty degrees for twenty five minutes. Let it cool before cutting it "
    "into layers and filling it with cream and fresh strawberries from the market."
)


def test_linear_rule_with_soft_gate():
    assert alignment_strength(1.0, floor=0.2) == pytest.approx(0.95)
    assert alignment_strength(-0.3, floor=0.2) == pytest.approx(0.30)
    assert alignment_strength(0.5, floor=0.2) == pytest.approx(0.30 + 0.5 * 0.65)
    # Below the floor the alignment is scaled down, not dropped.
    assert alignment_strength(0.1, floor=0.2) == pytest.approx(0.30 + 0.1 * 0.5 * 0.65)
    assert soft_gate(0.1, 0.2) == pytest.approx(0.5) and soft_gate(0.3, 0.2) == 1.0


def check_pages_ingest(scope, *, task: str, pages: list[dict]) -> dict:
    """The job as the worker runs it (pages_ingest_run), in this process: its result."""
    job = check_pages_ingest_start(scope, task=task, pages=pages)
    assert job.status == JobStatus.QUEUED and cypher.read(scope, STAGED)[0]["n"] == len(pages)
    pages_ingest_run(job_uid=job.uid)
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.progress["done"] == len(pages)
    assert cypher.read(scope, STAGED)[0]["n"] == 0  # every page taken
    return job.result


def test_pages_become_scored_chunks_and_duplicates_are_skipped(scope):
    task = check_task_create(scope, description="Find why centrifugal pumps overheat")
    first = check_pages_ingest(scope, task=task["id"], pages=[
        {"url": "https://ex.org/pumps", "content": PUMPS},
        {"url": "https://ex.org/cakes", "content": CAKES},
    ])  # fmt: skip
    created = first["created"]
    assert len(created) >= 3 and first["skipped"] == []
    pumps = [c for c in created if c["url"].endswith("pumps")]
    cake = [c for c in created if c["url"].endswith("cakes")]
    assert len(cake) == 1  # a page under 400 characters is one chunk
    assert all(0.30 <= c["strength"] <= 0.95 for c in created)
    assert min(p["strength"] for p in pumps) > cake[0]["strength"]  # kept, near the floor
    for c in created:
        assert 100 <= len(selectors.evidence_detail(scope, evidence=c["id"])["content"]) <= 500

    again = check_pages_ingest(scope, task=task["id"], pages=[
        {"url": "https://ex.org/pumps", "content": PUMPS},  # same URL
        {"url": "https://mirror.org/cakes", "content": CAKES},  # same content elsewhere
        {"url": "https://ex.org/cakes-2", "content": CAKES.replace("market", "market stall")},
    ])  # fmt: skip
    assert again["created"] == []
    assert [s["layer"] for s in again["skipped"]] == ["url", "content_hash", "semantic"]
    assert again["skipped"][2]["duplicate_of"] == cake[0]["uid"]


def test_bounds(scope):
    task = check_task_create(scope, description="t")
    with pytest.raises(ApplicationError) as refused:
        check_pages_ingest(scope, task=task["id"], pages=[{"content": "x"}] * 21)
    assert refused.value.field == "pages" and refused.value.limit == 20
    with pytest.raises(ApplicationError) as refused:
        check_pages_ingest(scope, task=task["id"], pages=[{"content": "x" * 200_001}])
    assert refused.value.field == "content"


def test_a_task_finished_before_its_job_ran_fails_the_job_and_unstages(scope):
    from apps.tasks.services import claims

    task = check_task_create(scope, description="Find pump faults")
    job = check_pages_ingest_start(scope, task=task["id"], pages=[{"content": PUMPS}])
    claims.check_task_claim(scope, lease_seconds=60)
    claims.check_task_finish(scope, task=task["id"], status="DONE", result_summary="done early")
    pages_ingest_run(job_uid=job.uid)
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and "finished" in job.error
    assert cypher.read(scope, STAGED)[0]["n"] == 0


def test_racing_ingests_of_one_url_write_one_page(transactional_db, make_tenant):
    """Four ingests of one URL for one task at once, each with other content (so only the URL
    layer can catch them): one page's chunks are written, the others skip by URL."""
    scope = scope_for(make_tenant())
    task = check_task_create(scope, description="Find pump faults")
    url = "https://ex.org/race"
    contents = [PUMPS, CAKES, PUMPS.replace("pumps", "blowers"), CAKES.replace("cake", "pie")]
    start, results, errors = threading.Barrier(len(contents)), [], []

    def ingest(content: str) -> None:
        try:
            start.wait()
            results.append(page_ingest(scope, task_uid=task["uid"],
                                       page={"url": url, "content": content}))  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()  # this thread's own database connection

    threads = [threading.Thread(target=ingest, args=(c,)) for c in contents]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    winners = [r for r in results if r["created"]]
    assert len(winners) == 1
    losers = [r for r in results if not r["created"]]
    assert all([s["layer"] for s in r["skipped"]] == ["url"] for r in losers)
    stored = cypher.read(scope, FROM_URL, url=url)
    assert len(stored) == len(winners[0]["created"])


def test_pages_over_the_api_as_a_job_with_progress_on_the_page(
    make_tenant, make_api_client, celery_worker, client, make_person
):
    tenant = make_tenant()
    api = make_api_client(tenant)
    task = api.post("/api/v1/tasks", {"description": "Why do pumps overheat?"},
                    format="json").json()["id"]  # fmt: skip
    started = api.post(f"/api/v1/tasks/{task}/pages",
                       {"pages": [{"url": "https://ex.org/p", "content": PUMPS},
                                  {"url": "https://ex.org/p", "content": CAKES}]},
                       format="json")  # fmt: skip
    assert started.status_code == 202 and started.json()["url"].startswith("/api/v1/jobs/")
    # Bounded: a worker loads its models before its first task, minutes on a busy machine.
    deadline = time.monotonic() + 420
    job = Job.objects.get(uid=started.json()["job"])
    while job.status not in (JobStatus.DONE, JobStatus.FAILED) and time.monotonic() < deadline:
        time.sleep(0.5)
        job.refresh_from_db()
    assert job.status == JobStatus.DONE, job.error
    shown = api.get(started.json()["url"]).json()
    assert len(shown["result"]["created"]) >= 2  # the first page's chunks
    assert [s["layer"] for s in shown["result"]["skipped"]] == ["url"]  # the second page
    client.force_login(make_person(tenant, Role.VIEWER))
    page = client.get(f"/work/tasks/{task}/ingests").content.decode()
    assert f'data-job="{job.uid}"' in page and "2/2 pages" in page and "hx-get" not in page
    assert client.get("/work/tasks/t-nope/ingests").status_code == 404
