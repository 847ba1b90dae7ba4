"""The full profile's tools generated from REST routes, called through the SDK's client over
HTTP: the route's answer, its refusal (the same body and status as REST), its scope, and the
caller's tenant only."""

from __future__ import annotations

import pytest

from apps.tenants.models import KeyScope
from tests.conftest import scope_for
from tests.mcp_server.conftest import call, key_issue, over_http
from tests.mcp_server.test_profiles import listed
from tests.review.review_fixtures import anthropic_pair, pending_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def test_route_tools_answer_refuse_and_check_scopes_as_rest(
    live_asgi, tenant, make_tenant, api_client
):
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    reviewer = key_issue(tenant, scopes=[KeyScope.MEMORY_READ, KeyScope.REVIEW])
    writer, theirs = key_issue(tenant), key_issue(make_tenant())
    assert "confirm_review" in listed(live_asgi, reviewer, "full")
    assert "confirm_review" not in listed(live_asgi, writer, "full")

    async def steps(client):
        task = await call(client, "create_task", description="measure the fan")
        return task, [
            await call(client, "update_task", task=task["id"], body={"description": "measure it"}),
            await call(client, "update_task", task=task["id"], body={"colour": "red"}),
            await call(client, "confirm_review", uid=pair["uid"]),
        ]

    task, (patched, bad, not_mine) = over_http(live_asgi, writer, steps)
    assert not patched["is_error"] and patched["id"] == task["id"]
    rest = api_client.patch(f"/api/v1/tasks/{task['id']}", {"colour": "red"}, format="json")
    assert bad["status"] == rest.status_code == 400 and bad["error"] == rest.json()["error"]
    assert not_mine["status"] == 403

    async def review(client):
        return await call(client, "confirm_review", uid=pair["uid"], body={})

    async def their_review(client):
        return await call(client, "update_task", task=task["id"], body={"description": "x"})

    assert over_http(live_asgi, theirs, their_review)["status"] == 404
    merged = over_http(live_asgi, reviewer, review)
    assert not merged["is_error"] and merged["merge_uid"]
    assert pending_pairs(scope_for(tenant)) == []


def test_the_work_profile_claims_adds_evidence_and_releases(live_asgi, tenant, make_tenant):
    raw, theirs = key_issue(tenant), key_issue(make_tenant())

    async def steps(client):
        task = await call(client, "create_task", description="survey the bridge", kind="field")
        got = {"claim": await call(client, "claim_task", kind="field", lease_seconds=600)}
        got["evidence"] = await call(client, "add_evidence", task=task["id"], source="site visit",
                                     content="Two cracked bearings on the north pier.",
                                     strength=0.8)  # fmt: skip
        got["read"] = await call(client, "get_evidence", evidence_id=got["evidence"]["id"])
        got["task"] = await call(client, "get_task", task=task["id"])
        got["release"] = await call(client, "release_task", task=task["id"])
        got["again"] = await call(client, "claim_task", kind="field", lease_seconds=600)
        return task, got

    task, got = over_http(live_asgi, raw, steps, profile="work")
    assert got["claim"]["task"]["id"] == task["id"]
    assert got["read"]["content"] == "Two cracked bearings on the north pier."
    assert got["read"]["task"] in (task["id"], task["uid"])
    assert got["evidence"]["id"] in str(got["task"])
    assert got["release"]["status"] == "PENDING" and got["again"]["task"]["id"] == task["id"]

    async def other(client):
        return await call(client, "get_evidence", evidence_id=got["evidence"]["id"])

    assert over_http(live_asgi, theirs, other, profile="work")["status"] == 404
