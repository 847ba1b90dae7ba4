"""Evidence: produced by open tasks, immutable, whole; synthesis supersedes its sources."""

from __future__ import annotations

import pytest

from apps.tasks import selectors
from apps.tasks.services.claims import check_task_claim, check_task_finish
from apps.tasks.services.evidence import check_evidence_add, check_evidence_synthesize
from apps.tasks.services.task_writes import check_task_create
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from tests.conftest import scope_for
from tests.lessons.conftest import entity_make


def test_evidence_is_whole_linked_and_mentions_entities(scope):
    task = check_task_create(scope, description="Why does pump P-7 overheat?")
    pump = entity_make(scope, "Pump P-7")
    long = "Bearing temperature rose. " * 3000  # 78,000 characters, kept whole
    made = check_evidence_add(scope, task=task["id"], content=long, source="maintenance log",
                              strength=0.8, mentions=[pump])  # fmt: skip
    assert made["id"].startswith("e-")
    got = selectors.evidence_detail(scope, evidence=made["id"])
    assert got["content"] == long and got["task"] == task["id"]
    assert got["mentions"] == [{"uid": pump, "name": "Pump P-7"}]
    assert selectors.evidence_detail(scope, evidence=made["uid"])["id"] == made["id"]
    detail = selectors.task_detail(scope, task=task["id"])
    assert [e["id"] for e in detail["evidence"]] == [made["id"]]


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"content": "x" * 100_001}, "content"),
        ({"strength": 1.5}, "strength"),
        ({"strength": -0.1}, "strength"),
        ({"source": ""}, "source"),
        ({"mentions": ["nobody"]}, "mentions"),
    ],
)
def test_bounds_and_unknown_entities(scope, fields, field):
    task = check_task_create(scope, description="t")
    args = {"content": "c", "source": "s", "strength": 0.5, **fields}
    with pytest.raises(ApplicationError) as refused:
        check_evidence_add(scope, task=task["id"], **args)
    assert refused.value.field == field


def test_finished_task_produces_no_more_evidence(scope):
    task = check_task_create(scope, description="t")
    check_task_claim(scope, lease_seconds=60)
    check_task_finish(scope, task=task["id"], status="FAILED", result_summary="dead end")
    with pytest.raises(ConflictError) as refused:
        check_evidence_add(scope, task=task["id"], content="late", source="s", strength=0.5)
    assert refused.value.code == "task_immutable"


def test_synthesis_supersedes_sources_which_stay(scope):
    task = check_task_create(scope, description="t")
    a = check_evidence_add(scope, task=task["id"], content="fan A failed", source="s",
                           strength=0.4)  # fmt: skip
    b = check_evidence_add(scope, task=task["id"], content="fan B failed", source="s",
                           strength=0.7)  # fmt: skip
    summary = check_evidence_synthesize(scope, task=task["id"], content="Both fans failed",
                                        sources=[a["id"], b["uid"]])  # fmt: skip
    got = selectors.evidence_detail(scope, evidence=summary["id"])
    assert sorted(got["supersedes"]) == sorted([a["id"], b["id"]])
    assert got["strength"] == 0.7 and got["superseded"] is False
    old = selectors.evidence_detail(scope, evidence=a["id"])
    assert old["superseded"] is True and old["superseded_by"] == [summary["id"]]
    assert old["content"] == "fan A failed"  # stays for provenance
    with pytest.raises(NotFoundError):
        check_evidence_synthesize(scope, task=task["id"], content="x", sources=["e-none"])


def test_other_tenant_cannot_reach_evidence(scope, make_tenant):
    task = check_task_create(scope, description="t")
    made = check_evidence_add(scope, task=task["id"], content="c", source="s", strength=0.5)
    other = scope_for(make_tenant())
    with pytest.raises(NotFoundError):
        selectors.evidence_detail(other, evidence=made["id"])
    with pytest.raises(NotFoundError):
        check_evidence_add(other, task=task["uid"], content="c", source="s", strength=0.5)
    mine = check_task_create(other, description="mine")
    with pytest.raises(NotFoundError):
        check_evidence_synthesize(other, task=mine["id"], content="x", sources=[made["uid"]])
