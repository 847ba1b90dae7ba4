"""Test data for episodes, lessons and playbooks, built through the real services."""

from __future__ import annotations

import pytest

from apps.lessons.episodes import check_entry_record, check_episode_close, check_episode_open


def entity_make(scope, name: str, type: str = "Object") -> str:
    """An active entity of the tenant (see the note in the report about the resolution service)."""
    from apps.graph.nodes import Entity

    entity = Entity(tenant=scope.tenant, name=name, norm_name=name.lower(), type=type).save()
    return entity.uid


def closed_episode(scope, *, about=(), outcome=None, title="") -> str:
    episode = check_episode_open(scope, title=title, about=list(about))["id"]
    check_entry_record(scope, episode=episode, type="observation", values={"seen": True})
    check_episode_close(scope, episode=episode, outcome=outcome or {"ok": True})
    return episode


@pytest.fixture
def make_entity(scope):
    return lambda name, type="Object": entity_make(scope, name, type)
