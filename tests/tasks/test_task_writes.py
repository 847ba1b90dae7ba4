"""The one write path of tasks: creates, typed patches, short ids, immutability, cycles."""

from __future__ import annotations

import re

import pytest

from apps.tasks import selectors
from apps.tasks.services.claims import check_task_claim, check_task_finish
from apps.tasks.services.task_writes import (
    TaskCreate,
    TaskPatch,
    check_task_create,
    check_tasks_apply,
)
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError


def test_create_gives_short_id_resolved_like_the_uid(scope):
    root = check_task_create(scope, description="Survey pump failures")
    assert re.fullmatch(r"t-[0-9a-f]{4,}", root["id"])
    child = check_task_create(
        scope, description="Read the maintenance logs", embed_text="pump maintenance logs",
        parent=root["id"], kind="research",
    )  # fmt: skip
    by_short = selectors.task_detail(scope, task=child["id"])
    by_uid = selectors.task_detail(scope, task=child["uid"])
    assert by_short == by_uid
    assert by_short["parent"] == root["id"] and by_short["status"] == "PENDING"
    assert by_short["kind"] == "research" and by_short["embed_text"] == "pump maintenance logs"
    assert selectors.task_detail(scope, task=root["id"])["subtasks"] == [child["id"]]


def test_dependencies_only_on_existing_tasks_and_batch_is_all_or_nothing(scope):
    with pytest.raises(NotFoundError) as refused:
        check_tasks_apply(scope, ops=[
            TaskCreate(description="first", ref="a"),
            TaskCreate(description="second", depends_on=("a", "t-0000")),
        ])  # fmt: skip
    assert refused.value.field == "depends_on"
    assert selectors.task_dag(scope) == []  # the first create was rolled back too


def test_batch_cycle_is_refused_whole_and_named(scope):
    made = check_tasks_apply(scope, ops=[
        TaskCreate(description="A", ref="a"),
        TaskCreate(description="B", ref="b", depends_on=("a",)),
        TaskCreate(description="C", ref="c", depends_on=("b",)),
    ])  # fmt: skip
    a, b, c = (r["id"] for r in made)
    with pytest.raises(ConflictError) as refused:
        check_tasks_apply(scope, ops=[
            TaskCreate(description="D", ref="d"),
            TaskPatch(task=a, add_depends_on=(c,), description="A, changed"),
        ])  # fmt: skip
    assert refused.value.code == "cycle"
    cycle = refused.value.extra["cycle"]
    assert cycle[0] == cycle[-1] and set(cycle) == {a, b, c}
    assert len(selectors.task_dag(scope)) == 3  # D was not kept
    assert selectors.task_detail(scope, task=a)["description"] == "A"
    with pytest.raises(ConflictError):
        check_tasks_apply(scope, ops=[TaskPatch(task=a, parent=a)])
    # SUBTASK_OF cycles too.
    check_tasks_apply(scope, ops=[TaskPatch(task=b, parent=a)])
    with pytest.raises(ConflictError) as sub:
        check_tasks_apply(scope, ops=[TaskPatch(task=a, parent=b)])
    assert "SUBTASK_OF" in sub.value.message


def test_terminal_tasks_and_their_edges_do_not_change(scope):
    done = check_task_create(scope, description="Measure the flow")
    other = check_task_create(scope, description="Other")
    check_task_claim(scope, lease_seconds=60)
    check_task_finish(scope, task=done["id"], status="DONE", result_summary="12 l/s")
    for patch in (
        TaskPatch(task=done["id"], description="rewritten"),
        TaskPatch(task=done["id"], parent=other["id"]),
    ):
        with pytest.raises(ConflictError) as refused:
            check_tasks_apply(scope, ops=[patch])
        assert refused.value.code == "task_immutable" and "DONE" in refused.value.message
    with pytest.raises(ConflictError):
        check_task_finish(scope, task=done["id"], status="FAILED", result_summary="no")
    # Depending on done work, and a new subtask under it, are fine.
    follow = check_task_create(scope, description="Use the flow", depends_on=[done["id"]],
                               parent=done["id"])  # fmt: skip
    assert selectors.task_detail(scope, task=follow["id"])["ready"] is True
    detail = selectors.task_detail(scope, task=done["id"])
    assert detail["status"] == "DONE" and detail["result_summary"] == "12 l/s"


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"description": ""}, "description"),
        ({"description": "x" * 4001}, "description"),
        ({"description": "x", "embed_text": "y" * 301}, "embed_text"),
        ({"description": "x", "kind": "no spaces"}, "kind"),
        ({"description": "x", "depends_on": ["t-1"] * 51}, "depends_on"),
    ],
)
def test_bounds(scope, fields, field):
    with pytest.raises(ApplicationError) as refused:
        check_task_create(scope, **fields)
    assert refused.value.field == field


def test_tenants_do_not_see_each_others_tasks(scope, make_tenant):
    from tests.conftest import scope_for

    mine = check_task_create(scope, description="mine")
    other = scope_for(make_tenant())
    with pytest.raises(NotFoundError):
        selectors.task_detail(other, task=mine["id"])
    with pytest.raises(NotFoundError):
        check_task_create(other, description="x", depends_on=[mine["uid"]])
    assert selectors.ready_set(other) == []
    assert check_task_claim(other, lease_seconds=60) is None


def test_a_batch_may_name_a_ref_created_later_in_it(scope):
    """Issue 38: a task depending on (or under) one listed after it in the same batch."""
    made = check_tasks_apply(scope, ops=[
        TaskCreate(description="Read logs", ref="read", depends_on=("collect",), parent="plan"),
        TaskCreate(description="Collect logs", ref="collect", parent="plan"),
        TaskCreate(description="Plan the audit", ref="plan"),
    ])  # fmt: skip
    read, collect, plan = (r["id"] for r in made)
    assert [r["ref"] for r in made] == ["read", "collect", "plan"]
    detail = selectors.task_detail(scope, task=read)
    assert detail["depends_on"] == [{"id": collect, "status": "PENDING"}]
    assert detail["parent"] == plan and not detail["ready"]
    assert selectors.task_detail(scope, task=collect)["ready"]
    assert sorted(selectors.task_detail(scope, task=plan)["subtasks"]) == sorted([read, collect])
    # A ref that no operation creates is still a 404, and a cycle through forward refs a 409.
    with pytest.raises(NotFoundError):
        check_tasks_apply(scope, ops=[TaskCreate(description="x", depends_on=("later",))])
    with pytest.raises(ConflictError):
        check_tasks_apply(scope, ops=[
            TaskCreate(description="x", ref="x", depends_on=("y",)),
            TaskCreate(description="y", ref="y", depends_on=("x",)),
        ])  # fmt: skip
