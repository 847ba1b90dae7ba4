"""Test data for episodes, lessons and playbooks, built through the real services."""

from __future__ import annotations

import pytest

from apps.lessons.services.episodes import (
    check_entry_record,
    check_episode_close,
    check_episode_open,
)


def entity_make(scope, name: str, type: str = "Object") -> str:
    """An active entity of the tenant, made by the identity resolution service."""
    from apps.resolution.candidates import EntityCandidate, Provenance
    from apps.resolution.services import entities_resolve

    receipts = entities_resolve(
        scope, entities=[EntityCandidate(name, type)], provenance=Provenance(agent=scope.actor)
    )
    return receipts[0].entity_uid


def say(scope, user: str, text: str, *, sid: str = "main", role: str = "user") -> dict:
    """A message through the conversations service."""
    from apps.conversations.services import check_message_append

    return check_message_append(scope, user=user, sid=sid, role=role, text=text, by=role)


def closed_episode(scope, *, about=(), outcome=None, title="") -> str:
    episode = check_episode_open(scope, title=title, about=list(about))["id"]
    check_entry_record(scope, episode=episode, type="observation", values={"seen": True})
    check_episode_close(scope, episode=episode, outcome=outcome or {"ok": True})
    return episode


@pytest.fixture
def make_entity(scope):
    return lambda name, type="Object": entity_make(scope, name, type)
