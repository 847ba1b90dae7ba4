"""SIMILAR_TO sync: only across parents, exact pre-filter, updates and prunes, runs as a job."""

from __future__ import annotations

import time

import numpy as np
import pytest

from apps.graph import cypher
from apps.tasks import selectors
from apps.tasks.services.evidence import check_evidence_add, check_evidence_synthesize
from apps.tasks.services.task_writes import check_task_create
from apps.tasks.similarity import cross_group_pairs, similarity_sync
from apps.tenants.models import Job, JobStatus
from tests.conftest import scope_for

EDGES = """
MATCH (a {tenant: $tenant})-[r:SIMILAR_TO]->(b)
RETURN a.short_id AS a, b.short_id AS b, r.score AS score
"""


def test_prefilter_never_drops_a_pair_above_the_threshold():
    rng = np.random.default_rng(7)
    centers = rng.normal(size=(12, 64))
    groups = {}
    for g in range(40):
        v = centers[g % 12] + rng.normal(scale=0.6, size=(rng.integers(1, 8), 64))
        groups[f"g{g}"] = v / np.linalg.norm(v, axis=1, keepdims=True)
    for threshold in (0.3, 0.6, 0.9):
        found, compared = cross_group_pairs(groups, threshold, margin=None)
        names = sorted(groups)
        brute, every = set(), 0
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                every += len(groups[a]) * len(groups[b])
                s = groups[a] @ groups[b].T
                brute |= {
                    (a, int(x), b, int(y)) for x, y in zip(*np.nonzero(s >= threshold), strict=True)
                }
        assert {f[:4] for f in found} == brute
        assert compared <= every
    assert cross_group_pairs(groups, 0.9, margin=None)[1] < every  # the bound did skip groups
    # With the centroid margin it compares fewer pairs and still finds the close ones.
    exact, compared_exact = cross_group_pairs(groups, 0.6, margin=None)
    quick, compared_quick = cross_group_pairs(groups, 0.6)
    assert compared_quick < compared_exact
    assert {f[:4] for f in quick} <= {f[:4] for f in exact}
    assert len(quick) >= 0.9 * len(exact)


def test_sync_links_across_parents_only_updates_and_prunes(scope):
    one = check_task_create(scope, description="Study pump bearing failures")
    two = check_task_create(scope, description="Study pump bearing wear")
    add = lambda t, text: check_evidence_add(  # noqa: E731
        scope, task=t["id"], content=text, source="s", strength=0.5
    )
    a1 = add(one, "Pump bearings overheat when lubrication fails")
    a2 = add(one, "Pump bearings overheat when the grease runs out")  # same parent as a1
    b1 = add(two, "Lubrication failure makes pump bearings overheat")
    add(two, "The quarterly budget was approved by the board")
    result = similarity_sync(scope)
    edges = {frozenset((r["a"], r["b"])): r["score"] for r in cypher.read(scope, EDGES)}
    assert frozenset((a1["id"], b1["id"])) in edges
    assert frozenset((a2["id"], b1["id"])) in edges
    assert frozenset((a1["id"], a2["id"])) not in edges  # same parent: never
    assert frozenset((one["id"], two["id"])) in edges  # two root tasks on one subject
    assert all(score >= 0.5 for score in edges.values())
    assert result["created"] == len(edges) and result["pairs_compared"] <= result["all_pairs"]
    again = similarity_sync(scope)
    assert again["created"] == 0 and again["pruned"] == 0 and again["edges"] == len(edges)
    # A synthesis supersedes a1: its edges are pruned; a raised threshold prunes the rest.
    check_evidence_synthesize(scope, task=one["id"], content="Bearings need grease",
                              sources=[a1["id"]])  # fmt: skip
    similarity_sync(scope)
    left = {frozenset((r["a"], r["b"])) for r in cypher.read(scope, EDGES)}
    assert not any(a1["id"] in pair for pair in left)
    assert similarity_sync(scope, threshold=0.99)["edges"] == 0
    assert cypher.read(scope, EDGES) == []
    assert selectors.evidence_detail(scope, evidence=b1["id"])["similar"] == []


def test_sync_runs_by_itself_after_writes_settle(make_tenant, celery_worker):
    # The settle time must outlast the two writes below (a second write after the job freed its
    # slot rightly queues a second sync); one write takes seconds on a machine at load 30.
    tenant = make_tenant(similarity_settle_seconds=15)
    scope = scope_for(tenant)
    one = check_task_create(scope, description="Map the cooling water circuit")
    two = check_task_create(scope, description="Map the cooling water pipes")
    check_evidence_add(scope, task=one["id"], content="Cooling water enters at pump P-1",
                       source="s", strength=0.5)  # fmt: skip
    check_evidence_add(scope, task=two["id"], content="Cooling water enters through pump P-1",
                       source="s", strength=0.5)  # fmt: skip
    # Bounded: a worker loads its models (embedding, spaCy) before its first task, minutes on a
    # busy machine.
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        jobs = Job.objects.filter(tenant=tenant, kind="similarity_sync")
        if jobs.filter(status=JobStatus.DONE, result__edges__gte=1).exists():
            break
        time.sleep(0.5)
    runs = Job.objects.filter(tenant=tenant, kind="similarity_sync")
    done = [j for j in runs if j.status == JobStatus.DONE and not j.result.get("merged")]
    assert len(done) == 1, [(j.status, j.result) for j in runs]  # two writes, one sync
    assert len(cypher.read(scope, EDGES)) >= 2


SLOT = "MATCH (s:SimilaritySync {tenant: $tenant}) RETURN s.job AS job"


def test_a_broker_that_is_down_refuses_the_sync_but_never_the_write(make_tenant, monkeypatch):
    """The broker is outside the project, so its outage is simulated: the publish raises. Asked
    for, the sync is a 503 with the job recorded failed; asked for by a write, the write is kept
    and the slot freed, so the next write, once the broker is back, queues the sync."""
    from kombu.exceptions import OperationalError

    from apps.tasks import tasks
    from apps.tasks.similarity import similarity_sync_start
    from memoryproject.api_errors import ApplicationError

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.similarity_sync, "apply_async", broker_down)
    tenant = make_tenant(similarity_settle_seconds=30)
    scope = scope_for(tenant)
    with pytest.raises(ApplicationError) as refused:
        similarity_sync_start(scope, delay=5)
    assert refused.value.status == 503 and refused.value.code == "queue_unavailable"
    failed = Job.objects.get(uid=refused.value.extra["job"])
    assert failed.status == JobStatus.FAILED and "could not be reached" in failed.error

    task = check_task_create(scope, description="Map the cooling water circuit")
    kept = check_evidence_add(scope, task=task["id"], content="Cooling water enters at pump P-1",
                              source="s", strength=0.5)  # fmt: skip
    assert selectors.evidence_detail(scope, evidence=kept["id"])["content"].startswith("Cooling")
    assert cypher.read(scope, SLOT)[0]["job"] is None  # the slot is free again

    published = []
    monkeypatch.setattr(tasks.similarity_sync, "apply_async",
                        lambda args, **options: published.append((args, options)))  # fmt: skip
    check_evidence_add(scope, task=task["id"], content="Cooling water enters through pump P-1",
                       source="s", strength=0.5)  # fmt: skip
    assert [options["countdown"] for _, options in published] == [30.0]
    assert cypher.read(scope, SLOT)[0]["job"] == published[0][0][0]


def test_a_finished_tasks_similarity_edges_are_frozen(scope):
    from apps.tasks.services.claims import check_task_claim, check_task_finish

    one = check_task_create(scope, description="Map the cooling water circuit of plant A")
    two = check_task_create(scope, description="Map the cooling water circuit of plant B")
    similarity_sync(scope)
    edges = {frozenset((r["a"], r["b"])): r["score"] for r in cypher.read(scope, EDGES)}
    assert list(edges) == [frozenset((one["id"], two["id"]))]
    assert check_task_claim(scope, lease_seconds=60)["id"] == one["id"]
    check_task_finish(scope, task=one["id"], status="DONE", result_summary="Mapped")
    three = check_task_create(scope, description="Map the cooling water circuit of plant C")
    result = similarity_sync(scope)
    now = {frozenset((r["a"], r["b"])): r["score"] for r in cypher.read(scope, EDGES)}
    assert frozenset((two["id"], three["id"])) in now  # open tasks still link
    assert frozenset((one["id"], three["id"])) not in now  # the finished one gets no new edge
    assert result["frozen"] == 1
    # A threshold above every score prunes the open tasks' edges; the finished one's stays.
    similarity_sync(scope, threshold=0.999)
    left = {frozenset((r["a"], r["b"])): r["score"] for r in cypher.read(scope, EDGES)}
    assert left == edges
