"""The MCP server of the memory: the same tools over stdio and over HTTP at /mcp. Its request
layer is these tools (apps.mcp_server.tools.*); every tool goes through tool_calls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import MCPServer
from pydantic import ConfigDict

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
    arguments_closed(server)
    return server


def arguments_closed(server: MCPServer) -> None:
    """Every tool refuses an argument it does not take (the SDK drops it silently otherwise, so
    a misspelt `limt` looked accepted), and its input schema says so: additionalProperties
    false. Nested objects that pass their keys on to a REST serializer keep them for it."""
    for tool in server._tool_manager.list_tools():  # the SDK has no public hook for this
        model = tool.fn_metadata.arg_model
        closed = type(model.__name__, (model,),
                      {"model_config": ConfigDict(**model.model_config, extra="forbid")})  # fmt: skip
        tool.fn_metadata.arg_model = closed
        tool.parameters = closed.model_json_schema(by_alias=True)
