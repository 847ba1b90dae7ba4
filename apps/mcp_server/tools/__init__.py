"""The MCP server of the memory: the same tools over stdio and over HTTP at /mcp. Its request
layer is these tools (apps.mcp_server.tools.*); every tool goes through tool_calls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import MCPServer

from apps.mcp_server.tools import history, lessons, memory, tasks

INSTRUCTIONS = (
    "Anamnesis is this agent's long-term memory. Before answering a user, call `context` with "
    "their message; store your answer with `append_message`. Write what you learn as facts "
    "(`add_facts`) or documents (`ingest_document`); look things up with `search_entities` and "
    "`get_entity`. Record work as episodes and read `lessons` and `playbooks_for` first; "
    "share work as tasks (`create_task`, `claim_task`, `complete_task`, `task_context`). "
    "A refusal is JSON: {error: {code, message, field, limit}, status}."
)


def mcp_server(*, api_key: str | None = None) -> MCPServer:
    """The server with every tool. `api_key`: the key of a stdio process (HTTP calls bring
    their own, see apps.mcp_server.http_app)."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[dict]:
        yield {"api_key": api_key}

    server = MCPServer("anamnesis", instructions=INSTRUCTIONS, version="1", lifespan=lifespan)
    memory.register(server)
    lessons.register(server)
    tasks.register(server)
    history.register(server)
    return server
