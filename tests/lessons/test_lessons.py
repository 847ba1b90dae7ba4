"""Lessons: evidence from ended episodes, weight, threshold, since, and counts under concurrency."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from apps.graph.write_failures import write_failures_list
from apps.lessons.selectors import lesson_get, lessons_list
from apps.lessons.services.episodes import check_episode_open
from apps.lessons.services.lessons import check_lesson_learn, check_lesson_weigh
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for, wait_for
from tests.lessons.conftest import closed_episode


def test_weight_is_support_minus_against_plus_helped_minus_failed(scope, make_entity):
    d1 = make_entity("d1")
    eps = [closed_episode(scope, about=[d1]) for _ in range(6)]
    learned = check_lesson_learn(
        scope,
        key="hot-in-r2",
        statement="A hot device in r2 did not fail.",
        supported_by=eps[:2],
        about=[d1],
    )
    assert learned == {"id": "hot-in-r2", "status": "learned", "weight": 2}
    assert check_lesson_weigh(scope, key="hot-in-r2", episode=eps[2], agrees=False)["weight"] == 1
    assert check_lesson_weigh(scope, key="hot-in-r2", episode=eps[3], helped=True)["weight"] == 2
    assert check_lesson_weigh(scope, key="hot-in-r2", episode=eps[4], helped=False)["weight"] == 1
    assert check_lesson_weigh(scope, key="hot-in-r2", episode=eps[5], agrees=True)["weight"] == 2
    # The same evidence again changes nothing.
    again = check_lesson_weigh(scope, key="hot-in-r2", episode=eps[5], agrees=True)
    assert again == {"id": "hot-in-r2", "status": "unchanged", "weight": 2}
    got = lesson_get(scope, key="hot-in-r2")
    assert (got["support"], got["against"], got["helped"], got["failed"]) == (3, 1, 1, 1)
    assert sorted(e["side"] for e in got["evidence"]) == [
        "against",
        "failed",
        "for",
        "for",
        "for",
        "helped",
    ]
    assert [a["id"] for a in got["about"]] == [d1]
    assert lessons_list(scope, about=d1)[0]["id"] == "hot-in-r2"
    # An episode counts on one side only.
    with pytest.raises(ConflictError):
        check_lesson_weigh(scope, key="hot-in-r2", episode=eps[0], agrees=False)


def test_learning_needs_an_episode_that_ended(scope):
    open_ep = check_episode_open(scope)["id"]
    with pytest.raises(ApplicationError) as refused:
        check_lesson_learn(scope, key="x", statement="s", supported_by=[open_ep])
    assert refused.value.code == "episode_open"
    with pytest.raises(ApplicationError):
        check_lesson_learn(scope, key="x", statement="s", supported_by=[])
    with pytest.raises(ApplicationError):
        check_lesson_learn(scope, key="x", statement="s", supported_by=["missing"])
    assert lesson_get(scope, key="x") is None
    assert {f["kind"] for f in write_failures_list(scope)} == {"lesson"}
    ep = closed_episode(scope)
    check_lesson_learn(scope, key="x", statement="s", supported_by=[ep])
    with pytest.raises(ConflictError):
        check_lesson_learn(scope, key="x", statement="something else", supported_by=[ep])


def test_threshold_and_since(scope):
    eps = [closed_episode(scope) for _ in range(4)]
    check_lesson_learn(scope, key="weak", statement="weak", supported_by=eps[:1])
    check_lesson_weigh(scope, key="weak", episode=eps[1], agrees=False)
    check_lesson_learn(scope, key="strong", statement="strong", supported_by=eps[:3])
    assert [x["id"] for x in lessons_list(scope)] == ["strong"]
    assert [x["id"] for x in lessons_list(scope, at_least=0)] == ["strong", "weak"]
    later = datetime.now(UTC) + timedelta(seconds=1)
    assert lessons_list(scope, since=later) == []
    wait_for(lambda: datetime.now(UTC) > later, interval=0.1)  # the clock, not the machine
    check_lesson_weigh(scope, key="strong", episode=eps[3], helped=True)
    assert [x["id"] for x in lessons_list(scope, since=later)] == ["strong"]
    strict = scope_for(scope_tenant(scope, lesson_threshold=4))
    assert [x["id"] for x in lessons_list(strict)] == ["strong"]


def scope_tenant(scope, **settings):
    from apps.tenants.models import Tenant

    tenant = Tenant.objects.get(uid=scope.tenant)
    tenant.settings = {**tenant.settings, **settings}
    tenant.save()
    return tenant


def _together(n, fn):
    barrier = threading.Barrier(n)

    def run(i):
        barrier.wait()
        return fn(i)

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run, range(n)))


def test_eight_concurrent_agents_lose_no_count_and_one_episode_counts_once(tenant):
    scope = scope_for(tenant)
    first = closed_episode(scope)
    check_lesson_learn(scope, key="shared", statement="shared", supported_by=[first])
    eps = [closed_episode(scope) for _ in range(8)]
    agents = [scope_for(tenant, actor=f"agent:{i}") for i in range(8)]

    receipts = _together(
        8, lambda i: check_lesson_weigh(agents[i], key="shared", episode=eps[i], agrees=True)
    )
    assert {r["status"] for r in receipts} == {"weighed"}
    assert lesson_get(scope, key="shared")["support"] == 9

    same = closed_episode(scope)
    receipts = _together(
        8, lambda i: check_lesson_weigh(agents[i], key="shared", episode=same, agrees=True)
    )
    assert sorted(r["status"] for r in receipts) == ["unchanged"] * 7 + ["weighed"]
    got = lesson_get(scope, key="shared")
    assert (got["support"], got["weight"]) == (10, 10)

    # Eight agents learning the same new lesson from the same episode: one lesson, one count.
    receipts = _together(
        8,
        lambda i: check_lesson_learn(
            agents[i], key="fresh", statement="fresh", supported_by=[same]
        ),
    )
    assert sorted(r["status"] for r in receipts) == ["learned"] + ["unchanged"] * 7
    assert lesson_get(scope, key="fresh")["support"] == 1
