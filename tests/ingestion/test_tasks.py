"""Ingestion in a real Celery worker pool (concurrency 2) on the real broker: documents posted
through the API are ingested in the background with progress on their jobs, and two workers
naming the same new entity at the same time lose no mention and leave no silent duplicate."""

import pytest

from apps.graph import cypher
from apps.tenants.models import Job
from tests.conftest import scope_for, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]

# Three pairs of different texts (no duplicate layer may catch them) naming the same two new
# entities; each pair races in the two worker processes.
PAIRS = [
    ("Ingrid Halvorsen opened a bakery in Oslo last spring, and the queue reached the harbour. "
     "Zorbatech Industries hired forty welders in Ohio to build her ovens.",
     "Critics say Ingrid Halvorsen bakes the best rye bread in Norway and sells it in Bergen. "
     "Analysts expect Zorbatech Industries to grow in Texas after the oven contract."),
    ("The tax office audited Zorbatech Industries twice in one winter and found nothing wrong. "
     "Ingrid Halvorsen testified about invoices, receipts and a missing delivery truck.",
     "A football club in Leeds signed a sponsorship deal with Zorbatech Industries on Friday. "
     "Ingrid Halvorsen supplied sandwiches for the players on the bus home."),
    ("Ingrid Halvorsen wrote a cookbook about sourdough, cardamom buns and winter soups. "
     "Its printer, Zorbatech Industries, shipped ten thousand copies by rail to Hamburg.",
     "Zorbatech Industries lost a lawsuit over noise from its night shifts near the river. "
     "Neighbours, Ingrid Halvorsen among them, had complained about the humming for years."),
]  # fmt: skip


def test_two_workers_naming_the_same_new_entity_lose_nothing_and_hide_no_duplicate(
    celery_worker, make_tenant, make_api_client
):
    tenant = make_tenant()
    client = make_api_client(tenant)
    jobs = []
    for round_, pair in enumerate(PAIRS):
        for text in pair:
            body = {"content": text, "source": f"round-{round_}"}
            response = client.post("/api/v1/documents", body, format="json")
            assert response.status_code == 202, response.json()
            jobs.append(response.json()["job"])

    def all_done():
        statuses = list(Job.objects.filter(uid__in=jobs).values_list("status", flat=True))
        return all(s in ("done", "failed") for s in statuses) and len(statuses) == len(jobs)

    wait_for(all_done, timeout=300, message="the worker did not finish the jobs")
    for job in Job.objects.filter(uid__in=jobs):
        assert job.status == "done", job.error
        assert job.progress["done"] == job.progress["total"] == 1
        assert job.result["receipts"]
    served = client.get(f"/api/v1/jobs/{jobs[0]}").json()
    assert served["status"] == "done" and served["progress"]["chunks_written"] == 1

    # A name alone never merges (issue 12): each document's mention of a name is an entity, and
    # every entity of a name must be tied to the others by pending reviews (connected), so no
    # duplicate made by the race stays hidden from the reviewer; no mention may be lost.
    rows = cypher.read(
        scope_for(tenant),
        "MATCH (e:Entity {tenant: $tenant}) WHERE e.name IN ['Ingrid Halvorsen', "
        "'Zorbatech Industries'] AND e.status = 'active' "
        "RETURN e.name AS name, e.uid AS uid, COUNT { (:Chunk)-[:MENTIONS]->(e) } AS mentions, "
        "[(e)-[:SAME_AS {status: 'pending'}]-(o:Entity {tenant: $tenant, name: e.name}) "
        "| o.uid] AS paired",
    )
    for name in ("Ingrid Halvorsen", "Zorbatech Industries"):
        named = [r for r in rows if r["name"] == name]
        assert sum(r["mentions"] for r in named) == 6, named
        reached, todo = set(), [named[0]["uid"]]
        links = {r["uid"]: r["paired"] for r in named}
        while todo:
            uid = todo.pop()
            if uid not in reached:
                reached.add(uid)
                todo.extend(links.get(uid, []))
        assert reached == set(links), f"{name}: entities without a review tying them: {named}"
