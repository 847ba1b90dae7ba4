"""`manage.py mcp --key-env ANAMNESIS_API_KEY` over stdio, driven by the SDK's client: the
process serves the tools as its key allows, for its key's tenant, and checks the key at every
call."""

from __future__ import annotations

import os
import subprocess
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

from apps.tenants.models import TenantAPIKey
from tests.celery_worker import child_database_env
from tests.conftest import ROOT, scope_for
from tests.lessons.conftest import entity_make
from tests.mcp_server.conftest import (
    FACTS,
    READ_ONLY,
    call,
    key_issue,
    memory_tools_call,
    run_apart,
)
from tests.mcp_server.test_http_app import TOOLS

pytestmark = pytest.mark.django_db(transaction=True)


def server_env(raw_key: str) -> dict:
    # The process reads the test database file and the test Neo4j (inherited from run-tests).
    return {**os.environ, **child_database_env(), "AGENT_KEY": raw_key}


def over_stdio(raw_key: str, steps, *, profile: str = "full"):
    params = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp", "--key-env", "AGENT_KEY", "--profile", profile],
        env=server_env(raw_key), cwd=str(ROOT),
    )  # fmt: skip

    async def main():
        async with Client(params) as client:
            return await steps(client)

    return run_apart(main)


def test_stdio_read_only_key_reads_cannot_write_and_revocation_stops_it(tenant):
    raw = key_issue(tenant, scopes=READ_ONLY)

    async def steps(client):
        results = [await call(client, "pending_reviews"), await call(client, "add_facts", **FACTS)]
        prefix = raw.split(".")[0]
        await anyio.to_thread.run_sync(
            lambda: TenantAPIKey.objects.filter(prefix=prefix).update(revoked=True)
        )
        return [*results, await call(client, "pending_reviews")]

    read, write, revoked = over_stdio(raw, steps)
    assert read == {"pending_reviews": 0, "is_error": False}
    assert write["status"] == 403 and write["error"]["code"] == "permission_denied"
    assert revoked["status"] == 401 and revoked["error"]["code"] == "authentication_failed"


def test_stdio_will_not_start_without_a_valid_key(db):
    command = [sys.executable, "manage.py", "mcp", "--key-env", "AGENT_KEY"]
    for key in ("", "not.akey"):
        done = subprocess.run(command, cwd=ROOT, env=server_env(key), capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)  # fmt: skip
        assert done.returncode != 0
        assert "AGENT_KEY" in done.stderr and done.stdout == ""


def test_stdio_answers_every_tool_for_its_keys_tenant_only(tenant, make_tenant):
    # One process for every call of a read-write key: each start loads Django and the model.
    from tests.timeline.test_history_api import write

    theirs = entity_make(scope_for(make_tenant()), "Their Secret Engine")
    write(tenant)
    raw = key_issue(tenant)

    async def steps(client):
        tools = {tool.name for tool in (await client.list_tools()).tools}
        got = await memory_tools_call(client)
        me = got["whoami"]["agent"]
        episode = got["open_episode"]
        got["hand_off"] = await call(client, "hand_off", key="h1", to=me,
                                     points_to=[{"kind": "episode", "id": episode["id"]}])  # fmt: skip
        got["handoffs"] = await call(client, "handoffs")
        got["accept_handoff"] = await call(client, "accept_handoff", key="h1")
        first = got["create_task"] = await call(client, "create_task", description="measure it",
                                                kind="lab")  # fmt: skip
        got["ready_tasks"] = await call(client, "ready_tasks", kind="lab")
        got["claim_task"] = await call(client, "claim_task", kind="lab", lease_seconds=600)
        got["complete_task"] = await call(client, "complete_task", task=first["id"],
                                          result_summary="done")  # fmt: skip
        second = await call(client, "create_task", description="redo it", kind="lab")
        await call(client, "claim_task", kind="lab", lease_seconds=600)
        got["fail_task"] = await call(client, "fail_task", task=second["id"],
                                      result_summary="no time")  # fmt: skip
        got["task_context"] = await call(client, "task_context", task=first["id"])
        got["entity_history"] = await call(client, "entity_history", kind="Device", key="d1")
        got["entity_as_of"] = await call(client, "entity_as_of", kind="Device", key="d1",
                                         at="2026-01-01T12:00:00Z")  # fmt: skip
        refused = [
            await call(client, "get_entity", uid=theirs),
            await call(client, "open_episode", title="t" * 301),
        ]
        return tools, got, refused

    tools, got, (other, bad) = over_stdio(raw, steps)
    assert tools >= TOOLS and set(got) == TOOLS
    assert [tool for tool, result in got.items() if result["is_error"]] == [], got
    assert got["get_entity"]["name"] == "Ada Lovelace"
    assert got["get_entity"]["values"] == {"born": 1815}
    assert got["job_progress"]["uid"] == got["ingest_document"]["job"]
    assert got["accept_handoff"]["status"] == "accepted"
    assert got["complete_task"]["status"] == "DONE" and got["fail_task"]["status"] == "FAILED"
    assert [s["values"]["status"] for s in got["entity_history"]["results"]] == ["ok", "hot"]
    assert got["entity_as_of"]["state"]["values"]["status"] == "ok"
    assert other["is_error"] and other["status"] == 404 and other["error"]["code"] == "not_found"
    assert bad["status"] == 400
    assert (bad["error"]["field"], bad["error"]["limit"]) == ("title", 300)


def test_the_readme_shows_a_host_both_transports_as_they_are_served():
    import json
    import re

    from apps.mcp_server.http_app import PATH

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = next(
        block
        for block in re.findall(r"```json\n(.*?)```", readme, flags=re.S)
        if "mcpServers" in block
    )
    servers = json.loads(snippet)["mcpServers"]
    stdio, http = servers["anamnesis"], servers["anamnesis-http"]
    assert stdio["args"][1:] == ["mcp", "--key-env", "ANAMNESIS_API_KEY"]
    assert stdio["args"][0].endswith("/manage.py") and "ANAMNESIS_API_KEY" in stdio["env"]
    assert http["url"].endswith(PATH) and http["headers"]["Authorization"].startswith("Api-Key ")


def test_stdio_serves_the_profile_it_was_started_with(tenant):
    from tests.mcp_server.test_profiles import DEFAULT, MEMORY

    raw = key_issue(tenant)

    async def default(client):
        tools = {tool.name for tool in (await client.list_tools()).tools}
        added = await call(client, "add_memory", text="Grace Hopper wrote the first compiler.")
        found = await call(client, "search_memory", q="Grace Hopper compiler")
        return tools, added, found, await call(client, "whoami")

    tools, added, found, outside = over_stdio(raw, default, profile="default")
    assert tools == DEFAULT and added["stored"] == "document" and not added["is_error"]
    assert any("Hopper" in r["snippet"] for r in found["results"])
    assert outside["status"] == 404 and outside["error"]["field"] == "name"

    async def memory(client):
        tools = {tool.name for tool in (await client.list_tools()).tools}
        return tools, await call(client, "open_nodes", names=["Grace Hopper"])

    tools, opened = over_stdio(raw, memory, profile="memory")
    assert "entities" in opened, opened
    assert tools == MEMORY and [e["name"] for e in opened["entities"]] == ["Grace Hopper"], opened
