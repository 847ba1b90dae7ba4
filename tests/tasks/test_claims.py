"""The ready set, claims with leases, release, finish, and racing claimers on the real Neo4j."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.tasks import selectors
from apps.tasks.services import claims
from apps.tasks.services.task_writes import TaskCreate, check_task_create, check_tasks_apply
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for


def test_ready_set_follows_dependencies(scope):
    made = check_tasks_apply(scope, ops=[
        TaskCreate(description="fetch", ref="a"),
        TaskCreate(description="parse", ref="b", depends_on=("a",)),
        TaskCreate(description="report", ref="c", depends_on=("a", "b")),
    ])  # fmt: skip
    a, b, c = (r["id"] for r in made)
    assert [t["id"] for t in selectors.ready_set(scope)] == [a]
    assert claims.check_task_claim(scope, lease_seconds=60)["id"] == a
    assert selectors.ready_set(scope) == []
    claims.check_task_finish(scope, task=a, status="DONE", result_summary="fetched")
    assert [t["id"] for t in selectors.ready_set(scope)] == [b]
    claims.check_task_claim(scope, lease_seconds=60)
    claims.check_task_finish(scope, task=b, status="FAILED", result_summary="bad format")
    assert selectors.ready_set(scope) == []  # c waits on a failed task: it is replaced, not run
    assert selectors.task_detail(scope, task=c)["waiting_on"] == 1


def test_claim_oldest_of_kind_release_and_claim_edges(tenant):
    first = scope_for(tenant, actor="agent:one")
    second = scope_for(tenant, actor="agent:two")
    old = check_task_create(first, description="old", kind="crawl")
    check_task_create(first, description="other kind", kind="write")
    check_task_create(first, description="new", kind="crawl")
    got = claims.check_task_claim(first, kind="crawl", lease_seconds=300)
    assert got["id"] == old["id"]
    with pytest.raises(ConflictError) as refused:
        claims.check_task_finish(second, task=old["id"], status="DONE", result_summary="x")
    assert refused.value.code == "not_owner"
    claims.check_task_release(first, task=old["id"])
    again = claims.check_task_claim(second, kind="crawl", lease_seconds=300)
    assert again["id"] == old["id"]
    detail = selectors.task_detail(first, task=old["id"])
    assert [c["agent"] for c in detail["claims"]] == ["agent:one", "agent:two"]
    assert detail["claims"][0]["released_at"] and detail["owner"] == "agent:two"


def test_expired_lease_can_be_claimed_then_first_cannot_finish(tenant, monkeypatch):
    first = scope_for(tenant, actor="agent:one")
    second = scope_for(tenant, actor="agent:two")
    task = check_task_create(first, description="slow")["id"]
    claims.check_task_claim(first, lease_seconds=60)
    assert claims.check_task_claim(second, lease_seconds=60) is None  # held
    later = timezone.now() + timedelta(seconds=120)
    monkeypatch.setattr(claims, "clock", lambda: later)
    got = claims.check_task_claim(second, lease_seconds=60)
    assert got["id"] == task and got["taken_from"] == "agent:one"
    with pytest.raises(ConflictError):
        claims.check_task_finish(first, task=task, status="DONE", result_summary="late")
    assert claims.check_task_finish(second, task=task, status="DONE", result_summary="ok")


def test_expired_lease_nobody_took_can_still_be_finished(tenant, monkeypatch):
    first = scope_for(tenant, actor="agent:one")
    task = check_task_create(first, description="slow")["id"]
    claims.check_task_claim(first, lease_seconds=1)
    monkeypatch.setattr(claims, "clock", lambda: timezone.now() + timedelta(seconds=30))
    done = claims.check_task_finish(first, task=task, status="DONE", result_summary="made it")
    assert done["status"] == "DONE"


@pytest.mark.parametrize("lease", [0, -1, 7 * 24 * 3600 + 1, 1.5, True])
def test_lease_bounds(scope, lease):
    with pytest.raises(ApplicationError) as refused:
        claims.check_task_claim(scope, lease_seconds=lease)
    assert refused.value.field == "lease_seconds"


def test_eight_claimers_never_hold_one_task(tenant):
    """Eight threads claim against the real Neo4j until nothing is free: each task is held by
    exactly one of them, and every task was handed out."""
    owner = scope_for(tenant, actor="agent:planner")
    check_tasks_apply(owner, ops=[TaskCreate(description=f"task {i}") for i in range(40)])
    got: dict[str, list[str]] = {}
    lock = threading.Lock()
    errors = []
    # All claim at once: on a busy machine one thread could take every task before the next
    # one started, and the race below would not be one.
    start = threading.Barrier(8)

    def claimer(n: int) -> None:
        scope = scope_for(tenant, actor=f"agent:{n}")
        try:
            start.wait(timeout=300)
            while (task := claims.check_task_claim(scope, lease_seconds=600)) is not None:
                with lock:
                    got.setdefault(task["uid"], []).append(scope.actor)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=claimer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors
    assert len(got) == 40
    assert all(len(holders) == 1 for holders in got.values())
    assert len({h[0] for h in got.values()}) > 1  # they really raced
