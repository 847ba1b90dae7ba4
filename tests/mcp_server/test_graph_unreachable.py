"""With its graph unreachable, the stdio server answers a 503 `graph_unavailable` within the
query timeout (GRAPH_SEARCH_SECONDS), where it took 67 s to answer a 400 `invalid`."""

from __future__ import annotations

import socket
import sys
import time

import pytest
from django.conf import settings
from mcp import Client, StdioServerParameters

from tests.conftest import ROOT
from tests.mcp_server.conftest import call, key_issue, run_apart
from tests.mcp_server.test_stdio import server_env

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as sock:  # bound, then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_graph_is_a_503_within_the_query_timeout(tenant):
    env = {**server_env(key_issue(tenant)), "NEO4J_BOLT_URL": f"bolt://127.0.0.1:{closed_port()}"}
    params = StdioServerParameters(
        command=sys.executable, cwd=str(ROOT), env=env,
        args=["manage.py", "mcp", "--key-env", "AGENT_KEY", "--profile", "memory"],
    )  # fmt: skip

    async def steps(client):
        got = {"first": await call(client, "search_nodes", query="Corvane")}  # loads the model
        for tool, args in (("search_nodes", {"query": "Corvane"}), ("open_nodes", {"names": ["A"]}),
                           ("create_entities", {"entities": [{"name": "A", "entityType": "x"}]})):  # fmt: skip
            started = time.monotonic()
            got[tool] = await call(client, tool, **args)
            got[tool]["seconds"] = time.monotonic() - started
        return got

    async def main():
        async with Client(params) as client:
            return await steps(client)

    got = run_apart(main)
    for tool, answer in got.items():
        assert answer["is_error"] and answer["status"] == 503, (tool, answer)
        assert answer["error"]["code"] == "graph_unavailable", (tool, answer)
        if tool != "first":
            assert answer["seconds"] < settings.GRAPH_SEARCH_SECONDS, (tool, answer)
