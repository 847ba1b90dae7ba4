"""The MCP server of the memory: the same tools over stdio and over HTTP at /mcp. Its request
layer is these tools (apps.mcp_server.tools.*); every tool goes through tool_calls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import MCPServer
from pydantic import ConfigDict

from apps.mcp_server.arguments import schema_with_aliases
from apps.mcp_server.profiles import DEFAULT_PROFILE, ProfiledServer
from apps.mcp_server.tool_schemas import portable, tenant_bounded
from apps.mcp_server.tools import (
    agent_loop,
    history,
    lessons,
    memory,
    reference_memory,
    resources,
    rest_routes,
    tasks,
)
from apps.tenants.tenant_settings import RULES

INSTRUCTIONS = (
    "Anamnesis is this agent's long-term memory. Before answering a user, call `get_context` "
    "with their message; store your answer with `append_message`. Remember what you learn with "
    "`add_memory` (facts or text: its receipts say what was merged, held for review or "
    "created); look things up with `search_memory`, `get_entity` and `get_document`; correct "
    "with `forget`. The work profile shares tasks (`claim_task`, `complete_task`, "
    "`task_context`) and episodes (read `lessons` and `playbooks_for` first); the full profile "
    "has every capability. A refusal is JSON: {error: {code, message, field, limit}, status}."
)


def mcp_server(*, api_key: str | None = None, profile: str = DEFAULT_PROFILE) -> MCPServer:
    """The server with every tool; a connection sees its profile's. `api_key` and `profile`:
    those of a stdio process (HTTP calls bring their own, see apps.mcp_server.http_app)."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[dict]:
        yield {"api_key": api_key, "profile": profile}

    server = ProfiledServer("anamnesis", instructions=INSTRUCTIONS, version="1", lifespan=lifespan)
    agent_loop.register(server)
    memory.register(server)
    lessons.register(server)
    tasks.register(server)
    history.register(server)
    reference_memory.register(server)
    resources.register(server)
    rest_routes.register(server)
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
        schema = server.tool_schemas.get(tool.name) or closed.model_json_schema(by_alias=True)
        schema = portable(schema_with_aliases(tool.name, schema))
        tool.parameters = tenant_bounded(tool.name, schema, lambda name: RULES[name].high)
