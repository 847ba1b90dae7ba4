"""The MCP server over streamable HTTP at /mcp of the service's ASGI app, driven by the SDK's
client: the same keys, scopes and tenants as REST, every tool, and REST's refusals."""

from __future__ import annotations

import anyio.to_thread
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_REQUEST

from apps.graph import cypher
from apps.graph.write_failures import write_failures_list
from apps.tenants.models import TenantAPIKey
from tests.conftest import scope_for
from tests.lessons.conftest import entity_make
from tests.mcp_server.conftest import (
    FACTS,
    READ_ONLY,
    call,
    key_issue,
    memory_tools_call,
    over_http,
    run_apart,
    transport_refusal,
)

pytestmark = pytest.mark.django_db(transaction=True)
DEVICE_UID = "MATCH (e:Entity {tenant: $tenant, kind: 'Device', key: 'd1'}) RETURN e.uid AS uid"

# Today's tools before profiles, each called by the tests below (the full profile has more).
TOOLS = {
    "context", "append_message", "add_facts", "ingest_document", "job_progress",
    "search_entities", "get_entity", "pending_reviews", "open_episode", "record_entry",
    "close_episode", "lessons", "playbooks_for", "handoffs", "hand_off", "accept_handoff",
    "whoami", "create_task", "ready_tasks", "claim_task", "complete_task", "fail_task",
    "task_context", "entity_history", "entity_as_of",
}  # fmt: skip


def test_tools_are_listed_with_typed_schemas(live_asgi, tenant):
    raw = key_issue(tenant)

    async def steps(client):
        return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in over_http(live_asgi, raw, steps)}
    assert set(tools) >= TOOLS
    facts = tools["add_facts"].input_schema
    assert facts["required"] == ["entities"]
    # The bounds the REST serializer enforces are in the schema the host reads.
    assert facts["$defs"]["EntityFact"]["properties"]["name"]["maxLength"] == 200
    # A nullable argument: its bound is on its type's branch.
    k = tools["context"].input_schema["properties"]["k"]["anyOf"]
    assert [b["type"] for b in k] == ["integer", "null"] and k[0]["maximum"] >= 1
    assert tools["get_entity"].annotations.read_only_hint is True
    for tool in tools.values():  # concise, and every argument says what it is
        assert 20 <= len(tool.description) <= 300, tool.name
        props = tool.input_schema.get("properties", {})
        assert all(p.get("description") for p in props.values()), tool.name
    assert tools["add_facts"].annotations.read_only_hint is False


def test_without_a_valid_key_or_host_the_endpoint_refuses_like_rest(live_asgi):
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    missing = httpx.post(f"{live_asgi}/mcp", json=body, timeout=300)
    # An API key is asked for, not OAuth: no Bearer challenge pointing at resource metadata.
    challenge = missing.headers["WWW-Authenticate"]
    assert missing.status_code == 401 and challenge.startswith("Api-Key")
    assert "bearer" not in challenge.lower() and "resource_metadata" not in challenge
    assert transport_refusal(missing)["code"] == "not_authenticated"
    wrong = httpx.post(f"{live_asgi}/mcp", json=body, headers={"X-Api-Key": "x.y"}, timeout=300)
    assert wrong.status_code == 401
    assert transport_refusal(wrong)["code"] == "authentication_failed"
    host = httpx.post(f"{live_asgi}/mcp", json=body, headers={"Host": "evil.example"}, timeout=300)
    assert host.status_code == 400 and transport_refusal(host)["code"] == "bad_request"


def test_an_sdk_client_with_a_wrong_or_no_key_is_told_so(live_asgi):
    """The SDK's client reported "-32603 Server returned an error response"; it shows the
    JSON-RPC error of the 401 instead."""

    async def connect():
        errors = []
        for headers in ({"X-Api-Key": "x.y"}, {}):
            async with httpx2.AsyncClient(headers=headers, timeout=120) as http:
                transport = streamable_http_client(f"{live_asgi}/mcp", http_client=http)
                try:
                    async with Client(transport) as client:
                        await client.list_tools()
                except BaseException as exc:  # noqa: BLE001 - the client's task group wraps it
                    while isinstance(exc, BaseExceptionGroup):
                        exc = exc.exceptions[0]
                    errors.append(exc)
        return errors

    errors = run_apart(connect)
    assert [type(exc) for exc in errors] == [MCPError, MCPError], errors
    wrong, missing = (exc.error for exc in errors)
    assert wrong.code == missing.code == INVALID_REQUEST
    assert wrong.message.startswith("Invalid API key.") and "X-Api-Key" in wrong.message
    assert wrong.data == {"code": "authentication_failed", "message": wrong.message,
                          "status": 401}  # fmt: skip
    assert missing.data["code"] == "not_authenticated" and "Api-Key <key>" in missing.message


def ada_uid(got: dict) -> str:
    return got["add_facts"]["receipts"][0]["entity_uid"]


def test_every_tool_answers_for_its_tenant(live_asgi, tenant):
    giver, receiver = key_issue(tenant), key_issue(tenant)

    async def whoami(client):
        return await call(client, "whoami")

    receiver_name = over_http(live_asgi, receiver, whoami)["agent"]
    got = over_http(live_asgi, giver, memory_tools_call)
    assert not any(result["is_error"] for result in got.values()), got
    assert got["whoami"]["scopes"] == ["memory:read", "memory:write"]
    assert [r["action"] for r in got["add_facts"]["receipts"][:2]] == ["created", "created"]
    assert got["search_entities"]["results"][0]["name"] == "Ada Lovelace"
    assert got["get_entity"]["values"] == {"born": 1815}
    assert got["get_entity"]["relations"][0]["other"]["name"] == "Analytical Engine"
    assert got["pending_reviews"] == {"pending_reviews": 0, "is_error": False}
    assert "Ada Lovelace" in str(got["context"])
    assert got["append_message"]["no"] == 2
    assert got["job_progress"]["uid"] == got["ingest_document"]["job"]
    assert got["job_progress"]["kind"]
    assert got["record_entry"]["seq"] == 1 and got["close_episode"]["status"] == "closed"
    assert got["lessons"]["results"] == [] and got["playbooks_for"]["results"] == []
    since = cypher.read(scope_for(tenant), "MATCH (:Entity {tenant: $tenant, uid: $uid})"
                        "-[r:RELATED_TO]->(:Entity {name: 'Analytical Engine'}) "
                        "RETURN r.valid_from.year AS year", uid=ada_uid(got))  # fmt: skip
    assert [row["year"] for row in since] == [2024]
    dated = cypher.read(scope_for(tenant), "MATCH (d:Document {tenant: $tenant}) "
                        "WHERE d.source = 'notes' RETURN d.date.year AS year")  # fmt: skip
    assert [row["year"] for row in dated] == [2023]

    async def hand_off(client):
        ref = [{"kind": "episode", "id": got["open_episode"]["id"]}]
        return await call(client, "hand_off", key="h1", to=receiver_name, points_to=ref)

    async def accept(client):
        return [await call(client, "handoffs"), await call(client, "accept_handoff", key="h1")]

    assert over_http(live_asgi, giver, hand_off)["status"] == "given"
    mine, accepted = over_http(live_asgi, receiver, accept)
    assert [h["id"] for h in mine["results"]] == ["h1"] and accepted["status"] == "accepted"


def test_a_read_only_key_cannot_write_and_the_refusal_is_recorded(live_asgi, tenant):
    raw = key_issue(tenant, scopes=READ_ONLY)

    async def steps(client):
        return [await call(client, "add_facts", **FACTS), await call(client, "pending_reviews")]

    refused, read = over_http(live_asgi, raw, steps)
    assert refused["is_error"] and refused["status"] == 403
    assert refused["error"] == {
        "code": "permission_denied", "message": "This API key lacks the 'memory:write' scope."
    }  # fmt: skip
    assert read == {"pending_reviews": 0, "is_error": False}
    assert [f["kind"] for f in write_failures_list(scope_for(tenant))] == ["facts"]


def test_another_tenants_objects_are_not_found(live_asgi, tenant, make_tenant):
    other = make_tenant()
    theirs = entity_make(scope_for(other), "Their Secret Engine")
    raw = key_issue(tenant)

    async def steps(client):
        return [
            await call(client, "get_entity", uid=theirs),
            await call(client, "search_entities", q="Their Secret Engine"),
            await call(client, "record_entry", episode="nope", type="note"),
        ]

    entity, search, entry = over_http(live_asgi, raw, steps)
    assert entity["is_error"] and entity["status"] == 404
    assert entity["error"]["code"] == "not_found"
    assert theirs not in str(search)
    assert entry["status"] == 404


def test_bad_input_gets_the_same_error_as_rest(live_asgi, tenant, api_client):
    raw = key_issue(tenant)
    cases = [
        ("context", {"user": "u", "session": "s", "message": "hi", "k": 10_000},
         "/api/v1/context", {"user": "u", "session": "s", "message": "hi", "k": 10_000}),
        ("open_episode", {"title": "t" * 301}, "/api/v1/episodes", {"title": "t" * 301}),
        ("add_facts", {"entities": [{"name": "A", "type": "Planet"}]},
         "/api/v1/facts", {"entities": [{"name": "A", "type": "Planet"}]}),
        ("append_message", {"user": "u", "session": "s", "role": "r" * 33, "text": "x",
                            "by": "u"},
         "/api/v1/users/u/sessions/s/messages", {"role": "r" * 33, "text": "x", "by": "u"}),
    ]  # fmt: skip

    async def steps(client):
        return [await call(client, tool, **args) for tool, args, _, _ in cases]

    for got, (tool, _, path, body) in zip(over_http(live_asgi, raw, steps), cases, strict=True):
        rest = api_client.post(path, body, format="json")
        assert got["is_error"] and got["status"] == rest.status_code == 400, tool
        assert got["error"] == rest.json()["error"], tool
    assert got["error"]["field"] == "role" and got["error"]["limit"] == 32


def test_a_revoked_key_stops_at_its_next_request(live_asgi, tenant):
    raw = key_issue(tenant)

    async def steps(client):
        first = await call(client, "whoami")
        await anyio.to_thread.run_sync(_revoke, raw)
        with pytest.raises(MCPError):  # the SDK's client reports the 401 as an error
            await call(client, "whoami")
        return first

    assert not over_http(live_asgi, raw, steps)["is_error"]
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    refused = httpx.post(f"{live_asgi}/mcp", json=body, headers={"X-Api-Key": raw}, timeout=300)
    assert refused.status_code == 401
    assert transport_refusal(refused)["code"] == "authentication_failed"


def _revoke(raw: str) -> None:
    TenantAPIKey.objects.filter(prefix=raw.split(".")[0]).update(revoked=True)


def test_tasks_are_created_claimed_completed_and_read_for_their_tenant(
    live_asgi, tenant, make_tenant, api_client
):
    raw, reader = key_issue(tenant), key_issue(tenant, scopes=READ_ONLY)
    theirs_key = key_issue(make_tenant())

    async def theirs(client):
        return await call(client, "create_task", description="their secret task")

    their_task = over_http(live_asgi, theirs_key, theirs)["id"]

    async def steps(client):
        first = await call(client, "create_task", description="measure the fan", kind="lab")
        second = await call(client, "create_task", description="write the report", kind="lab",
                            depends_on=[first["id"]], prepared_prompt="Write it for the board.",
                            antifocus="marketing copy")  # fmt: skip
        got = {"first": first, "second": second}
        got["too_long"] = await call(client, "create_task", description="x", antifocus="y" * 301)
        got["ready"] = await call(client, "ready_tasks", kind="lab")
        got["claim"] = await call(client, "claim_task", kind="lab", lease_seconds=600)
        got["done"] = await call(client, "complete_task", task=first["id"],
                                 result_summary="the fan runs at 1200 rpm")  # fmt: skip
        got["ready_after"] = await call(client, "ready_tasks", kind="lab")
        got["context"] = await call(client, "task_context", task=second["id"])
        got["theirs"] = await call(client, "task_context", task=their_task)
        got["bad"] = await call(client, "claim_task", kind="lab", lease_seconds=0)
        return got

    got = over_http(live_asgi, raw, steps)
    first, second = got["first"]["id"], got["second"]["id"]
    assert [t["id"] for t in got["ready"]["results"]] == [first]
    stored = api_client.get(f"/api/v1/tasks/{second}").json()
    assert (stored["prepared_prompt"], stored["antifocus"]) == ("Write it for the board.",
                                                                "marketing copy")  # fmt: skip
    assert got["too_long"]["status"] == 400 and got["too_long"]["error"]["field"] == "antifocus"
    assert got["claim"]["task"]["id"] == first
    assert got["done"]["status"] == "DONE"
    assert [t["id"] for t in got["ready_after"]["results"]] == [second]
    assert first in {item["id"] for item in got["context"]["items"]}
    assert got["theirs"]["status"] == 404 and got["theirs"]["error"]["code"] == "not_found"
    rest = api_client.post("/api/v1/tasks/claim", {"kind": "lab", "lease_seconds": 0},
                           format="json")  # fmt: skip
    assert got["bad"]["status"] == rest.status_code == 400
    assert got["bad"]["error"] == rest.json()["error"]

    async def read_only(client):
        return await call(client, "claim_task", kind="lab", lease_seconds=60)

    assert over_http(live_asgi, reader, read_only)["status"] == 403


def test_versioned_rows_read_over_time_for_their_tenant(live_asgi, tenant, make_tenant, api_client):
    from tests.timeline.test_history_api import write

    device = cypher.read(write(tenant), DEVICE_UID)[0]["uid"]
    mine, theirs = key_issue(tenant), key_issue(make_tenant())

    async def steps(client):
        return [
            await call(client, "entity_history", kind="Device", key="d1", last=1),
            await call(client, "entity_as_of", kind="Device", key="d1", at="2026-01-01T12:00:00Z"),
            await call(client, "entity_history", kind="Device", key="d1", last=1001),
            await call(client, "get_entity", uid=device, history=True),
            await call(client, "get_entity", uid=device),
        ]

    async def other(client):
        return [
            await call(client, "entity_history", kind="Device", key="d1"),
            await call(client, "get_entity", uid=device, history=True),
        ]

    history, as_of, bad, entity, plain = over_http(live_asgi, mine, steps)
    assert (entity["history"]["kind"], entity["history"]["key"]) == ("Device", "d1")
    assert [s["values"]["status"] for s in entity["history"]["states"]] == ["ok", "hot"]
    windows = {w["other"]: (w["valid_to"] is None) for w in entity["history"]["windows"]}
    assert windows == {"r1": False, "r2": True}  # r1 held until the move to r2
    assert "history" not in plain
    assert [h["values"]["status"] for h in history["results"]] == ["hot"]
    assert as_of["state"]["values"]["status"] == "ok"
    rest = api_client.get("/api/v1/kinds/Device/entities/d1/history?last=1001")
    assert bad["status"] == rest.status_code == 400 and bad["error"] == rest.json()["error"]
    their_history, their_entity = over_http(live_asgi, theirs, other)
    assert their_history["results"] == [] and their_entity["status"] == 404
