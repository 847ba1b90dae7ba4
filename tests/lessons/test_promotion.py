"""promote(rule): lessons learned and playbooks written from what repeats, each episode once."""

from __future__ import annotations

import pytest

from apps.graph.write_failures import write_failures_list
from apps.lessons.selectors import lesson_get, playbook_get, playbooks_for
from apps.lessons.services.episodes import (
    check_entry_record,
    check_episode_close,
    check_episode_open,
)
from apps.lessons.services.promotion import check_promote
from memoryproject.api_errors import ApplicationError


def fan_rule(episode):
    outcome = episode["entries"][-1]["values"]
    return [
        {
            "lesson": "d1-fan",
            "statement": "d1 gets hot because of its fan",
            "agrees": outcome["cause"] == "fan",
        },
        {
            "playbook": "cool-d1",
            "trigger": {"status": "hot", "device": "d1"},
            "steps": [{"do": outcome["step"]}],
        },
        {"ran": "cool-d1", "succeeded": outcome["fixed"]},
    ]


def bad_rule(episode):
    return [{"lesson": "x", "statement": "s", "agrees": True}, "not a claim"]


@pytest.fixture(autouse=True)
def rules(settings):
    settings.LESSON_PROMOTION_RULES = {
        "fan": "tests.lessons.test_promotion.fan_rule",
        "bad": "tests.lessons.test_promotion.bad_rule",
    }


def ended(scope, *, cause="fan", step="clean the fan", fixed=True):
    ep = check_episode_open(scope)["id"]
    check_entry_record(scope, episode=ep, type="observation", values={"status": "hot"})
    check_episode_close(scope, episode=ep, outcome={"cause": cause, "step": step, "fixed": fixed})
    return ep


def test_promotion_waits_learns_writes_and_counts_each_episode_once(scope):
    ended(scope)
    ended(scope, cause="dust")
    first = check_promote(scope, rule="fan", at_least=2)
    assert first["episodes"] == 2
    assert first["lessons"] == [{"id": "d1-fan", "status": "waiting", "count": 1}]
    assert first["playbooks"] == [{"id": "cool-d1#1", "version": 1, "status": "written"}]
    # The first episode's run came before the playbook existed; the second one's after.
    assert [r["status"] for r in first["runs"]] == ["refused", "judged"]
    # Nothing new: nothing counted again.
    assert check_promote(scope, rule="fan", at_least=2) == {
        "episodes": 0,
        "at_least": 2,
        "lessons": [],
        "playbooks": [],
        "runs": [],
    }
    ended(scope)
    third = check_promote(scope, rule="fan", at_least=2)
    assert third["lessons"] == [{"id": "d1-fan", "status": "learned", "weight": 1}]
    lesson = lesson_get(scope, key="d1-fan")
    assert (lesson["support"], lesson["against"]) == (2, 1)
    assert third["playbooks"] == [{"id": "cool-d1#1", "version": 1, "status": "unchanged"}]
    assert playbooks_for(scope, situation={"status": "hot", "device": "d1"})[0]["steps"] == [
        {"do": "clean the fan"}
    ]
    ended(scope)
    fourth = check_promote(scope, rule="fan", at_least=2)
    assert fourth["lessons"] == [{"id": "d1-fan", "status": "weighed", "weight": 2}]
    assert fourth["playbooks"] == [{"id": "cool-d1#1", "version": 1, "status": "unchanged"}]
    assert fourth["runs"][0]["status"] == "judged"
    assert lesson_get(scope, key="d1-fan")["support"] == 3


def test_new_steps_shown_often_enough_write_the_next_version(scope):
    for _ in range(2):
        ended(scope)
    check_promote(scope, rule="fan", at_least=2)
    assert playbook_get(scope, key="cool-d1")["version"] == 1
    ended(scope, step="replace the fan")
    assert check_promote(scope, rule="fan", at_least=2)["playbooks"][0]["status"] == "waiting"
    ended(scope, step="replace the fan")
    receipt = check_promote(scope, rule="fan", at_least=2)
    assert receipt["playbooks"] == [{"id": "cool-d1#2", "version": 2, "status": "written"}]
    got = playbook_get(scope, key="cool-d1")
    assert [v["steps"] for v in got["versions"]] == [
        [{"do": "replace the fan"}],
        [{"do": "clean the fan"}],
    ]


def test_a_rule_giving_a_non_claim_stops_before_anything_is_written(scope):
    ended(scope)
    with pytest.raises(ApplicationError) as refused:
        check_promote(scope, rule="bad", at_least=1)
    assert "not a claim" in refused.value.message
    assert lesson_get(scope, key="x") is None
    assert write_failures_list(scope)[0]["kind"] == "promotion"
    # The episode was not marked: a fixed rule still reads it.
    assert check_promote(scope, rule="fan", at_least=1)["episodes"] == 1
    with pytest.raises(ApplicationError):
        check_promote(scope, rule="unregistered")
