"""Handoffs: point at what exists, idempotent under one id, accepted once by the receiver only."""

from __future__ import annotations

import pytest

from apps.graph.write_failures import write_failures_list
from apps.lessons.selectors import handoffs_for
from apps.lessons.services.handoffs import check_handoff_accept, check_handoff_give
from apps.lessons.services.lessons import check_lesson_learn
from apps.lessons.services.playbooks import check_playbook_write
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for
from tests.lessons.conftest import closed_episode


def test_give_points_at_records_and_only_the_receiver_accepts_once(tenant, make_entity):
    giver = scope_for(tenant, actor="agent:reviewer")
    planner = scope_for(tenant, actor="agent:planner")
    other = scope_for(tenant, actor="agent:other")
    d1 = make_entity("d1")
    eps = [closed_episode(giver, about=[d1]) for _ in range(3)]
    check_lesson_learn(giver, key="l1", statement="s", supported_by=eps[:1])
    check_playbook_write(giver, key="p", trigger={"a": "b"}, steps=["x"], supported_by=eps)
    points = [
        {"kind": "episode", "id": eps[0]},
        {"kind": "entity", "id": d1},
        {"kind": "lesson", "id": "l1"},
        {"kind": "playbook", "id": "p#1"},
    ]
    given = check_handoff_give(giver, key="h1", to="agent:planner", points_to=points, note="go")
    assert given == {"id": "h1", "status": "given"}
    assert check_handoff_give(giver, key="h1", to="agent:planner", points_to=points[::-1]) == {
        "id": "h1",
        "status": "unchanged",
    }
    with pytest.raises(ConflictError):
        check_handoff_give(giver, key="h1", to="agent:other", points_to=points)
    with pytest.raises(ConflictError):
        check_handoff_give(giver, key="h1", to="agent:planner", points_to=points[:1])

    listed = handoffs_for(giver, agent="agent:planner")
    assert len(listed) == 1
    assert listed[0]["points_to"] == sorted(
        (
            {"kind": p["kind"], "id": p["id"], "label": listed[0]["points_to"][i]["label"]}
            for i, p in enumerate(sorted(points, key=lambda p: (p["kind"], p["id"])))
        ),
        key=lambda p: (p["kind"], p["id"]),
    )
    with pytest.raises(ApplicationError) as refused:
        check_handoff_accept(other, key="h1")
    assert refused.value.status == 403
    assert check_handoff_accept(planner, key="h1") == {"id": "h1", "status": "accepted"}
    with pytest.raises(ConflictError):
        check_handoff_accept(planner, key="h1")
    assert handoffs_for(giver, agent="agent:planner")[0]["status"] == "accepted"
    assert {f["kind"] for f in write_failures_list(giver)} >= {"handoff", "handoff_accept"}


def test_a_handoff_must_point_at_something_that_exists(scope):
    with pytest.raises(ApplicationError):
        check_handoff_give(scope, key="h", to="agent:b", points_to=[], note="only text")
    with pytest.raises(ApplicationError) as refused:
        check_handoff_give(scope, key="h", to="agent:b", points_to=[{"kind": "episode", "id": "x"}])
    assert refused.value.code == "missing_reference"
    assert handoffs_for(scope) == []
