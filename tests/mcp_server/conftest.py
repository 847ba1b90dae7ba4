"""Driving the MCP server with the SDK's own client: keys issued through the real service, a
live ASGI server (uvicorn in a thread, the same entry point `make run` serves) for HTTP."""

from __future__ import annotations

import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from apps.tenants import services as tenant_services
from apps.tenants.models import KeyScope

READ_ONLY = [KeyScope.MEMORY_READ]
READ_WRITE = [KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE]


def key_issue(tenant, scopes=READ_WRITE) -> str:
    return tenant_services.api_key_issue(tenant=tenant, name="mcp test", scopes=scopes)[1]


def answer(result) -> dict:
    """A tool result's JSON, with `is_error` beside it (a refusal is the REST error body). The
    text and the structured content are the same answer (the SDK's client has checked the
    structured content against the tool's output schema)."""
    data = json.loads(result.content[0].text)
    assert result.structured_content == data, "text and structured content differ"
    return {**data, "is_error": bool(result.is_error)}


async def call(client: Client, tool: str, **arguments) -> dict:
    return answer(await client.call_tool(tool, arguments))


def transport_refusal(response) -> dict:
    """The REST error of /mcp's refusal before the SDK: a JSON-RPC error (null id, as the
    request was not read) whose message an MCP client shows and whose `data` is the REST
    error with the HTTP status."""
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None, body
    error = body["error"]["data"]
    assert error["status"] == response.status_code and body["error"]["message"] == error["message"]
    return error


FACTS = {
    "entities": [
        {"name": "Ada Lovelace", "type": "Person", "values": {"born": 1815}},
        {"name": "Analytical Engine", "type": "Object"},
    ],
    "relations": [{"subject": "Ada Lovelace", "predicate": "WROTE_ABOUT",
                   "object": "Analytical Engine", "valid_from": "2024-09-01"}],
}  # fmt: skip


async def memory_tools_call(client: Client) -> dict:
    """The memory tools in the order an agent uses them, the same calls over both transports:
    {tool: its answer}."""
    got = {"whoami": await call(client, "whoami")}
    got["add_facts"] = await call(client, "add_facts", **FACTS)
    assert "receipts" in got["add_facts"], got["add_facts"]
    ada = got["add_facts"]["receipts"][0]["entity_uid"]
    got["search_entities"] = await call(client, "search_entities", q="Lovelace", limit=5)
    got["get_entity"] = await call(client, "get_entity", uid=ada)
    got["pending_reviews"] = await call(client, "pending_reviews")
    got["context"] = await call(client, "context", user="u1", session="s1",
                                message="What did Ada Lovelace write about?")  # fmt: skip
    got["append_message"] = await call(client, "append_message", user="u1", session="s1",
                                       role="assistant", text="The Analytical Engine.",
                                       by="agent")  # fmt: skip
    got["ingest_document"] = await call(client, "ingest_document", source="notes",
                                        date="2023-06-05",
                                        content="Ada Lovelace met Charles Babbage in 1833.")  # fmt: skip
    got["job_progress"] = await call(client, "job_progress", job=got["ingest_document"]["job"])
    episode = got["open_episode"] = await call(client, "open_episode",
                                               title="explain the engine", about=[ada])  # fmt: skip
    got["record_entry"] = await call(client, "record_entry", episode=episode["id"],
                                     type="observation", text="it computes Bernoulli numbers",
                                     cites=[{"kind": "entity", "id": ada}])  # fmt: skip
    got["close_episode"] = await call(client, "close_episode", episode=episode["id"],
                                      outcome={"success": True})  # fmt: skip
    got["lessons"] = await call(client, "lessons", about=ada)
    got["playbooks_for"] = await call(client, "playbooks_for", situation={"task": "explain"})
    return got


@pytest.fixture(scope="module")
def live_asgi():
    """The service's ASGI app on a free port, for the module's tests; its base URL."""
    from memoryproject.asgi import service_app

    # The server gets the bound socket itself: a port only probed free could be taken by another
    # process before uvicorn binds it.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            service_app(), host="127.0.0.1", port=port, lifespan="on", log_level="warning"
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 300
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=300)
    sock.close()


def run_apart(main):
    """`anyio.run(main)` in a thread of its own: a browser test earlier in the session leaves
    Playwright's event loop running in the test thread, where a second loop cannot start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, main).result()


def over_http(base_url: str, raw_key: str, steps, *, profile: str | None = "full") -> object:
    """Run `steps(client)` in one client connection over HTTP with a profile (None: the
    server's default); its return value."""

    async def main():
        headers = {"Authorization": f"Api-Key {raw_key}"}
        if profile is not None:
            headers["X-MCP-Profile"] = profile
        async with httpx2.AsyncClient(headers=headers, timeout=120) as http:
            transport = streamable_http_client(f"{base_url}/mcp", http_client=http)
            async with Client(transport) as client:
                return await steps(client)

    return run_apart(main)
