"""`manage.py mcp --key-env ANAMNESIS_API_KEY` over stdio, driven by the SDK's client: the
process serves the tools as its key allows, for its key's tenant, and checks the key at every
call."""

from __future__ import annotations

import os
import subprocess
import sys

import anyio
import pytest
from django.conf import settings
from mcp import Client, StdioServerParameters

from apps.tenants.models import TenantAPIKey
from tests.conftest import ROOT, scope_for
from tests.lessons.conftest import entity_make
from tests.mcp_server.conftest import READ_ONLY, call, key_issue, run_apart
from tests.mcp_server.test_http_app import FACTS, TOOLS

pytestmark = pytest.mark.django_db(transaction=True)


def server_env(raw_key: str) -> dict:
    # The process reads the test database file and the test Neo4j (inherited from run-tests).
    return {**os.environ, "SQLITE_PATH": str(settings.DATABASES["default"]["NAME"]),
            "AGENT_KEY": raw_key}  # fmt: skip


def over_stdio(raw_key: str, steps):
    params = StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp", "--key-env", "AGENT_KEY"],
        env=server_env(raw_key), cwd=str(ROOT),
    )  # fmt: skip

    async def main():
        async with Client(params) as client:
            return await steps(client)

    return run_apart(main)


def test_stdio_serves_the_tools_for_its_keys_tenant(tenant, make_tenant):
    theirs = entity_make(scope_for(make_tenant()), "Their Secret Engine")
    raw = key_issue(tenant)

    async def steps(client):
        tools = {tool.name for tool in (await client.list_tools()).tools}
        facts = await call(client, "add_facts", **FACTS)
        ada = facts["receipts"][0]["entity_uid"]
        return tools, [
            await call(client, "get_entity", uid=ada),
            await call(client, "get_entity", uid=theirs),
            await call(client, "open_episode", title="t" * 301),
        ]

    tools, (entity, other, bad) = over_stdio(raw, steps)
    assert tools == TOOLS
    assert entity["name"] == "Ada Lovelace" and entity["values"] == {"born": 1815}
    assert other["is_error"] and other["status"] == 404 and other["error"]["code"] == "not_found"
    assert bad["status"] == 400
    assert (bad["error"]["field"], bad["error"]["limit"]) == ("title", 300)


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
