"""Playbooks: needs, versions, runs judged once, three failures switch off, reviewer switch, match."""

from __future__ import annotations

import pytest

from apps.lessons.selectors import playbook_get, playbooks_for, playbooks_list
from apps.lessons.services.episodes import check_episode_open
from apps.lessons.services.playbooks import (
    check_playbook_run,
    check_playbook_switch,
    check_playbook_write,
)
from apps.tenants.auth import ROLE_PERMISSIONS
from apps.tenants.models import AuditEvent, Role
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for
from tests.lessons.conftest import closed_episode

STEPS = [{"do": "check the fan"}, {"do": "look again in an hour"}]


def test_written_only_with_enough_episodes_and_new_versions_replace(scope):
    eps = [closed_episode(scope) for _ in range(4)]
    with pytest.raises(ApplicationError) as refused:
        check_playbook_write(
            scope, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=eps[:2]
        )
    assert refused.value.field == "supported_by" and refused.value.limit == 3
    with pytest.raises(ApplicationError) as no_steps:
        check_playbook_write(
            scope, key="hot", trigger={"status": "hot"}, steps=[], supported_by=eps[:3]
        )
    assert no_steps.value.field == "steps"
    with pytest.raises(ApplicationError):
        open_ep = check_episode_open(scope)["id"]
        check_playbook_write(
            scope,
            key="hot",
            trigger={"status": "hot"},
            steps=STEPS,
            supported_by=[*eps[:2], open_ep],
        )
    assert playbooks_list(scope) == []

    first = check_playbook_write(
        scope, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=eps[:3]
    )
    assert first == {"id": "hot#1", "version": 1, "status": "written"}
    same = check_playbook_write(
        scope, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=eps[1:4]
    )
    assert same["status"] == "unchanged"
    second = check_playbook_write(
        scope, key="hot", trigger={"status": "hot"}, steps=STEPS[:1], supported_by=eps[1:4]
    )
    assert second == {"id": "hot#2", "version": 2, "status": "written"}
    got = playbook_get(scope, key="hot")
    assert [v["version"] for v in got["versions"]] == [2, 1]
    assert got["versions"][1]["steps"] == STEPS  # the old version is kept as it was
    assert sorted(got["versions"][1]["episodes"]) == sorted(eps[:3])
    assert playbooks_for(scope, situation={"status": "hot"})[0]["steps"] == STEPS[:1]


def test_situation_matches_triggers_by_value_and_type(scope):
    eps = [closed_episode(scope) for _ in range(3)]
    write = lambda key, trigger: check_playbook_write(  # noqa: E731
        scope, key=key, trigger=trigger, steps=STEPS, supported_by=eps
    )
    write("hot", {"status": "hot"})
    write("hot-r2", {"status": "hot", "room": "r2"})
    write("flag", {"alarm": True})
    write("one", {"alarm": 1})
    write("num", {"level": 2})
    keys = lambda situation: [p["key"] for p in playbooks_for(scope, situation=situation)]  # noqa: E731
    assert keys({"status": "hot", "room": "r2", "x": 1}) == ["hot-r2", "hot"]
    assert keys({"status": "hot"}) == ["hot"]
    assert keys({"status": "cold"}) == []
    assert keys({"alarm": True}) == ["flag"]
    assert keys({"alarm": 1}) == ["one"]
    assert keys({"alarm": "1"}) == []
    assert keys({"level": 2.0}) == ["num"]


def test_runs_are_judged_once_and_three_failures_in_a_row_switch_off(scope):
    eps = [closed_episode(scope) for _ in range(8)]
    check_playbook_write(
        scope, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=eps[:3]
    )
    run = lambda ep, ok: check_playbook_run(scope, key="hot", episode=ep, succeeded=ok)  # noqa: E731
    assert run(eps[0], False)["failures_in_row"] == 1
    assert run(eps[0], False)["status"] == "unchanged"
    with pytest.raises(ConflictError):
        run(eps[0], True)
    run(eps[1], False)
    assert run(eps[2], True)["failures_in_row"] == 0
    run(eps[3], False)
    run(eps[4], False)
    assert run(eps[5], False) | {} == {
        "id": "hot",
        "episode": eps[5],
        "status": "judged",
        "enabled": False,
        "failures_in_row": 3,
    }
    assert playbooks_for(scope, situation={"status": "hot"}) == []
    got = playbook_get(scope, key="hot")
    assert got["switched_by"] == "system:three-failures-in-a-row" and len(got["runs"]) == 6
    # Switched off: the same steps are not written again.
    again = check_playbook_write(
        scope, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=eps[5:8]
    )
    assert again["status"] == "unchanged"


def test_reviewer_switches_on_and_off_with_who_and_when(tenant):
    writer = scope_for(tenant)
    eps = [closed_episode(writer) for _ in range(3)]
    check_playbook_write(
        writer, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=eps
    )
    viewer = scope_for(
        tenant, actor="user:v", kind="person", permissions=ROLE_PERMISSIONS[Role.VIEWER]
    )
    with pytest.raises(ApplicationError) as refused:
        check_playbook_switch(viewer, key="hot", enabled=False)
    assert refused.value.status == 403
    reviewer = scope_for(
        tenant, actor="user:rev", kind="person", permissions=ROLE_PERMISSIONS[Role.REVIEWER]
    )
    off = check_playbook_switch(reviewer, key="hot", enabled=False, reason="wrong fan")
    assert off["enabled"] is False and off["switched_by"] == "user:rev" and off["switched_at"]
    assert playbooks_for(writer, situation={"status": "hot"}) == []
    check_playbook_switch(reviewer, key="hot", enabled=True)
    assert playbooks_for(writer, situation={"status": "hot"})[0]["key"] == "hot"
    actions = list(
        AuditEvent.objects.filter(tenant=tenant, target="hot").values_list("action", flat=True)
    )
    assert sorted(actions) == ["playbook.switch_off", "playbook.switch_on"]


def test_a_callers_needs_is_honoured_down_to_the_tenants_floor(tenant, scope):
    """Seed 001: `needs=1  # 3 by default`; a tenant may set a floor no caller goes below."""
    one = [closed_episode(scope)]
    written = check_playbook_write(
        scope, key="hot", trigger={"status": "hot"}, steps=STEPS, supported_by=one, needs=1
    )
    assert written == {"id": "hot#1", "version": 1, "status": "written"}
    tenant.settings = {**tenant.settings, "playbook_needs_floor": 2}
    tenant.save()
    with pytest.raises(ApplicationError) as refused:
        check_playbook_write(scope_for(tenant), key="cold", trigger={"status": "cold"},
                             steps=STEPS, supported_by=one, needs=1)  # fmt: skip
    assert refused.value.field == "supported_by" and refused.value.limit == 2
