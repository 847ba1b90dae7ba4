"""Every refused write keeps what it was about (its key) and what was refused (its content, at
most 2,000 characters), whichever door refused it: a service or an API view."""

from __future__ import annotations

import pytest

from apps.graph.write_failures import write_failures_list
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from memoryproject.api_errors import ApplicationError
from tests.conftest import scope_for
from tests.timeline.conftest import DEVICE, ROOM, TEAM, row


def test_a_refused_entry_keeps_its_episode_and_its_content_bounded(scope):
    episode = check_episode_open(scope)["id"]
    with pytest.raises(ApplicationError):
        check_entry_record(scope, episode=episode, type="Not A Type", text="x" * 5000)
    [failure] = write_failures_list(scope)
    assert failure["key"] == episode
    assert failure["content"].startswith("{") and "xxxx" in failure["content"]
    assert len(failure["content"]) == 2000
    # The same refusal again is counted on the same node; another content is another node.
    for _ in range(2):
        with pytest.raises(ApplicationError):
            check_entry_record(scope, episode=episode, type="Not A Type", text="y")
    counts = sorted(f["count"] for f in write_failures_list(scope))
    assert counts == [1, 2]


def test_a_refusal_of_the_api_keeps_the_key_of_its_path_and_its_body(tenant, api_client):
    for kind in (ROOM, TEAM, DEVICE):
        api_client.post("/api/v1/kinds", kind, format="json")
    api_client.post("/api/v1/rows", {"rows": [row("d1", "2026-01-02T00:00:00Z")]}, format="json")
    stale = api_client.patch("/api/v1/rows/Device/d1",
                             {"t": "2026-01-01T00:00:00Z", "values": {"status": "old"}},
                             format="json")  # fmt: skip
    assert stale.status_code == 409
    bad = api_client.post("/api/v1/handoffs", {"points_to": "not a list"}, format="json")
    assert bad.status_code == 400
    failures = write_failures_list(scope_for(tenant))
    by_kind = {f["kind"]: f for f in failures}
    assert by_kind["row"]["key"] == "d1" and '"status": "old"' in by_kind["row"]["content"]
    assert any("not a list" in (f["content"] or "") for f in failures)
