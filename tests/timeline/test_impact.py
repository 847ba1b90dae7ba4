"""An entry marked wrong, what relied on it, and trust in the agents."""

from __future__ import annotations

import pytest

from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.lessons.services.lessons import check_lesson_learn
from apps.lessons.services.playbooks import check_playbook_write
from apps.timeline.impact import check_entry_invalidate, impact_of_entry, impact_of_state
from apps.timeline.services import check_rows_write
from apps.timeline.trust import agent_trust
from memoryproject.api_errors import ApplicationError
from tests.conftest import scope_for
from tests.lessons.conftest import closed_episode
from tests.timeline.conftest import row


def test_invalidate_lists_states_lessons_and_playbooks_at_risk(kinds):
    episodes = [closed_episode(kinds) for _ in range(3)]
    entry = check_entry_record(kinds, episode=check_episode_open(kinds)["id"], type="look")["id"]
    check_rows_write(kinds, rows=[row("d1", "2026-01-01T00:00:00Z", entry=entry, status="hot")])
    first = _entry_of(kinds, episodes[0])
    check_lesson_learn(kinds, key="fan", statement="The fan fails.", supported_by=episodes[:1])
    check_lesson_learn(kinds, key="sure", statement="Many saw it.", supported_by=episodes)
    check_playbook_write(kinds, key="cool", trigger={"status": "hot"},
                         steps=[{"do": "check the fan"}], supported_by=episodes)  # fmt: skip
    viewer = scope_for(kinds_tenant(kinds), permissions=["memory:read"])
    with pytest.raises(ApplicationError) as refused:
        check_entry_invalidate(viewer, entry=first)
    assert refused.value.status == 403

    got = check_entry_invalidate(kinds, entry=first, reason="the sensor lied")
    assert got["status"] == "invalidated"
    lessons = {lesson["key"]: lesson["at_risk"] for lesson in got["impact"]["lessons"]}
    assert lessons == {"fan": True, "sure": False}
    assert [(p["key"], p["left"], p["at_risk"]) for p in got["impact"]["playbooks"]] == [
        ("cool", 2, True)]  # fmt: skip
    assert check_entry_invalidate(kinds, entry=first)["status"] == "exists"
    # The States that came from an entry, by the write rule's FROM.
    states = impact_of_entry(kinds, entry=entry)["states"]
    assert [(s["key"], s["valid_from"]) for s in states] == [("d1", "2026-01-01T00:00:00Z")]
    with pytest.raises(ApplicationError) as unknown:
        check_entry_invalidate(kinds, entry="nope")
    assert unknown.value.status == 404


def test_a_state_is_examined_like_an_entry(kinds, make_tenant, make_api_client):
    entry = check_entry_record(kinds, episode=check_episode_open(kinds)["id"], type="look")["id"]
    check_rows_write(kinds, rows=[
        row("d1", "2026-01-01T00:00:00Z", relations={"LOCATED_IN": "r1"}),
        row("d1", "2026-01-02T00:00:00Z", entry=entry, status="hot",
            relations={"LOCATED_IN": "r2", "USED_BY": ["ta"]}),
    ])  # fmt: skip
    states = impact_of_entry(kinds, entry=entry)["states"]
    got = impact_of_state(kinds, state=states[0]["state"])
    assert got["state"]["entry"] == entry and got["state"]["valid_to"] is None
    assert got["relations"] == [{"rel": "LOCATED_IN", "target": "r2", "valid_to": None},
                                {"rel": "USED_BY", "target": "ta", "valid_to": None}]  # fmt: skip
    assert got["entry"]["entry"]["id"] == entry
    other = make_api_client(make_tenant())
    url = f"/api/v1/states/{states[0]['state']}/impact"
    assert other.get(url).status_code == 404
    assert make_api_client(kinds_tenant(kinds)).get(url).json()["relations"] == got["relations"]


def test_trust_is_the_mean_of_smoothed_rates_over_kinds_of_evidence(kinds, make_tenant):
    assert agent_trust(kinds, agent="nobody")["score"] is None
    ep = check_episode_open(kinds)["id"]
    check_entry_record(kinds, episode=ep, type="look")
    bad = check_entry_record(kinds, episode=ep, type="look")["id"]
    check_entry_invalidate(kinds, entry=bad)
    # Versions: one replaced after 10 s (against), one after an hour (for), one current (for).
    check_rows_write(kinds, rows=[row("d1", "2026-01-01T00:00:00Z", status="a"),
                                  row("d1", "2026-01-01T00:00:10Z", status="b"),
                                  row("d1", "2026-01-01T01:00:10Z", status="c")])  # fmt: skip
    got = agent_trust(kinds, agent=kinds.actor)
    assert got["rates"]["entries"] == {"for": 1, "against": 1, "rate": 0.5}
    assert got["rates"]["versions"] == {"for": 2, "against": 1, "rate": 0.6}
    assert set(got["rates"]) == {"entries", "versions"}
    assert got["score"] == pytest.approx((0.5 + 0.6) / 2)
    other = scope_for(make_tenant(), actor=kinds.actor)
    assert agent_trust(other, agent=kinds.actor)["score"] is None


def kinds_tenant(scope):
    from apps.tenants.models import Tenant

    return Tenant.objects.get(uid=scope.tenant)


def _entry_of(scope, episode: str) -> str:
    from apps.graph import cypher

    return cypher.read(scope, "MATCH (n:Entry {tenant: $tenant, episode: $ep, seq: 1}) "
                       "RETURN n.uid AS uid", ep=episode)[0]["uid"]  # fmt: skip
