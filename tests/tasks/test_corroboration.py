"""Evidence strength refined by corroboration: independent sources that say the same finding
raise its strength towards the ceiling; the same source saying it twice does not."""

from __future__ import annotations

import pytest

from apps.tasks import selectors
from apps.tasks.corroboration import CEILING, refined_strength
from apps.tasks.services.evidence import check_evidence_add
from apps.tasks.services.task_writes import check_task_create
from apps.tasks.similarity import similarity_sync
from tests.conftest import scope_for


def test_refinement_stays_within_the_strength_and_the_ceiling():
    assert refined_strength(0.5, 0) == 0.5
    assert refined_strength(0.5, 1) == pytest.approx(0.725)
    assert refined_strength(0.5, 2) == pytest.approx(0.8375)
    assert 0.5 < refined_strength(0.5, 10) < CEILING
    assert refined_strength(0.99, 3) == 0.99  # above the ceiling: never lowered


def test_independent_sources_corroborate_and_one_source_twice_does_not(make_tenant):
    scope, other = scope_for(make_tenant()), scope_for(make_tenant())
    tasks = [check_task_create(scope, description=f"Why do pump bearings fail, part {i}")
             for i in range(4)]  # fmt: skip

    def add(task, text, url):
        return check_evidence_add(scope, task=task["id"], content=text, source="web search",
                                  strength=0.5, url=url)  # fmt: skip

    a = add(tasks[0], "Pump bearings overheat when their lubrication fails.", "https://a.example/1")
    b = add(tasks[1], "When lubrication fails, pump bearings overheat.", "https://b.example/x")
    c = add(tasks[2], "Pump bearings overheat if the lubrication fails.", "https://www.a.example/2")
    lone = add(tasks[3], "The quarterly budget was approved by the board.", "https://c.example/")
    # Another tenant saying the same never counts.
    theirs = check_task_create(other, description="Why do pump bearings fail")
    check_evidence_add(other, task=theirs["id"], content="Pump bearings overheat when lubrication "
                       "fails.", source="web", strength=0.5, url="https://d.example/")  # fmt: skip

    result = similarity_sync(scope)
    got = {e["id"]: selectors.evidence_detail(scope, evidence=e["id"]) for e in (a, b, c, lone)}
    # a and c come from one host (www. aside): each has b as its one independent source.
    assert got[a["id"]]["corroborated_by"] == 1 and got[c["id"]]["corroborated_by"] == 1
    # b is said again by a.example, twice: still one independent source.
    assert got[b["id"]]["corroborated_by"] == 1
    assert got[b["id"]]["corroborated_strength"] == pytest.approx(refined_strength(0.5, 1))
    assert got[lone["id"]]["corroborated_by"] == 0
    assert got[lone["id"]]["corroborated_strength"] == 0.5
    assert all(g["strength"] == 0.5 for g in got.values())  # what was written stays
    assert result["corroboration_changed"] == 3
    assert similarity_sync(scope)["corroboration_changed"] == 0  # idempotent
    detail = selectors.task_detail(scope, task=tasks[1]["id"])
    assert detail["evidence"][0]["corroborated_by"] == 1


def _two_sources_say_it(scope):
    one = check_task_create(scope, description="Why do pump bearings fail")
    two = check_task_create(scope, description="Why do pump bearings fail, again")
    a = check_evidence_add(scope, task=one["id"], content="Pump bearings overheat when their "
                           "lubrication fails.", source="s", strength=0.5,
                           url="https://a.example/")  # fmt: skip
    b = check_evidence_add(scope, task=two["id"], content="When lubrication fails, pump bearings "
                           "overheat.", source="s", strength=0.5, url="https://b.example/")  # fmt: skip
    return a, b


def test_a_judge_that_reads_a_contradiction_stops_it_counting_and_reads_each_pair_once(
    scope, chat_server, settings
):
    settings.CORROBORATION_LLM_URL = chat_server.url
    chat_server.answers.append({"verdict": "contradicts"})
    a, b = _two_sources_say_it(scope)
    result = similarity_sync(scope)
    assert result["judged"] == 1 and result["judge_failed"] == 0
    assert len(chat_server.requests) == 1
    asked = chat_server.requests[0]["body"]
    assert asked["response_format"]["json_schema"]["strict"] is True
    assert "lubrication fails" in asked["messages"][1]["content"]
    assert selectors.evidence_detail(scope, evidence=a["id"])["corroborated_by"] == 0
    again = similarity_sync(scope)  # the verdict is kept on the edge: not asked again
    assert again["judged"] == 0 and len(chat_server.requests) == 1
    assert selectors.evidence_detail(scope, evidence=b["id"])["corroborated_strength"] == 0.5


def test_a_judge_that_cannot_answer_leaves_agreement_by_meaning(scope, chat_server, settings):
    settings.CORROBORATION_LLM_URL = chat_server.url
    chat_server.status = 500
    a, _ = _two_sources_say_it(scope)
    result = similarity_sync(scope)
    assert result["judged"] == 0 and result["judge_failed"] == 1
    assert selectors.evidence_detail(scope, evidence=a["id"])["corroborated_by"] == 1
    chat_server.status = 200
    chat_server.answer = {"verdict": "supports"}
    assert similarity_sync(scope)["judged"] == 1  # asked again on the next sync
    assert selectors.evidence_detail(scope, evidence=a["id"])["corroborated_by"] == 1
