"""Arguments the SDK's check refuses before our serializers (a missing one, an unknown name, a
wrong type, a broken bound) answer in the REST error shape, naming the field as the caller
wrote it, with its limit; a tool that fails is the server's 500, never the caller's 400."""

from __future__ import annotations

import pytest

from apps.search import services as search_services
from tests.mcp_server.conftest import call, key_issue, over_http

pytestmark = pytest.mark.django_db(transaction=True)
PYDANTIC = ("validation error", "errors.pydantic.dev", "Arguments", "[type=")


def refused(got: dict) -> dict:
    assert got["is_error"] and got["status"] == 400, got
    assert not any(word in str(got) for word in PYDANTIC), got
    return got["error"]


def test_argument_refusals_have_the_rest_shape(live_asgi, tenant):
    raw = key_issue(tenant)
    calls = {
        "missing": ("search_memory", {}),
        "unknown": ("search_memory", {"query": "Corvane", "center_node_uuid": "n1"}),
        "too_long": ("search_memory", {"query": "x" * 501}),
        "too_many": ("search_memory", {"q": "Corvane", "max_nodes": 99}),
        "choice": ("search_memory", {"q": "Corvane", "kinds": ["planets"]}),
        "twice": ("search_memory", {"q": "Corvane", "query": "Oslo"}),
        "nested": ("add_memory", {"entities": [{"name": 3, "type": "Person"}]}),
        "several": ("add_memory", {"text": 3, "colour": "red"}),
        "huge": ("search_memory", {"query": "Corvane", "limit": 2**70}),
    }

    async def steps(client):
        return {case: await call(client, tool, **args) for case, (tool, args) in calls.items()}

    got = {case: refused(answer) for case, answer in over_http(live_asgi, raw, steps).items()}
    assert got["missing"] == {"code": "invalid", "message": "q: This field is required.",
                              "fields": {"q": ["This field is required."]}, "field": "q"}  # fmt: skip
    unknown = got["unknown"]
    assert unknown["field"] == "center_node_uuid" and "center_node_uuid" in unknown["message"]
    assert {"q", "query", "limit", "max_nodes", "kinds"} <= set(unknown["limit"])
    # The field is named as the caller named it, its alias included.
    assert (got["too_long"]["field"], got["too_long"]["limit"]) == ("query", 500)
    assert (got["too_many"]["field"], got["too_many"]["limit"]) == ("max_nodes", 50)
    assert got["choice"]["field"] == "kinds[0]" and "passages" in got["choice"]["limit"]
    assert got["twice"]["field"] == "query" and got["twice"]["limit"] == ["q"]
    assert got["nested"]["field"] == "entities[0].name"
    assert set(got["several"]["fields"]) == {"text", "colour"} and "field" not in got["several"]
    # As a REST body is checked: an integer the graph cannot store is refused by name.
    assert got["huge"]["field"] == "limit" and got["huge"]["code"] == "out_of_range"

    async def nested(client):
        return await call(client, "create_entities", entities=[
            {"name": "A", "entityType": "person", "colour": "red"}])  # fmt: skip

    unknown = refused(over_http(live_asgi, raw, nested, profile="memory"))
    assert unknown["field"] == "entities[0].colour" and "entityType" in unknown["limit"]


def test_a_time_is_bounded_as_its_schema_says(live_asgi, tenant):
    late = "2026-01-01T00:00:00." + "1" * 30 + "Z"  # DRF's parser read any number of digits

    async def steps(client):
        one = await call(client, "append_message", user="u", session="s", role="user",
                         text="hi", by="u", at=late)  # fmt: skip
        batch = await call(client, "append_messages", user="u", sid="s", body={
            "messages": [{"role": "user", "text": "hi", "by": "u", "at": late}]})  # fmt: skip
        return one, batch

    one, batch = over_http(live_asgi, key_issue(tenant), steps)
    assert (one["status"], one["error"]["field"], one["error"]["limit"]) == (400, "at", 40)
    assert (batch["status"], batch["error"]["field"], batch["error"]["limit"]) == (
        400, "messages[0].at", 40)  # fmt: skip


def test_a_tool_that_fails_is_a_server_error_not_a_refusal(live_asgi, tenant, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug, with a secret inside")

    monkeypatch.setattr(search_services, "check_search", broken)  # the live server's process

    async def steps(client):
        return await call(client, "search_memory", query="Corvane")

    got = over_http(live_asgi, key_issue(tenant), steps, profile=None)
    assert got["is_error"] and got["status"] == 500
    assert got["error"]["code"] == "server_error" and "secret" not in str(got)
