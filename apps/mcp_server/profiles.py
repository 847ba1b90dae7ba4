"""Which tools a connection sees: its profile (`default`, `work`, `memory` or `full`, from the
`X-MCP-Profile` header or `?profile=` over HTTP, `--profile` over stdio) and its key's scopes
(a tool the key may not call is not listed). A tool outside the profile is refused as unknown."""

from __future__ import annotations

import inspect

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ListToolsResult
from mcp.types import Tool as MCPTool
from pydantic import ValidationError

from apps.graph.scope import Scope
from apps.mcp_server.arguments import aliases_used, arguments_checked, arguments_refusal
from apps.mcp_server.key_scopes import PROFILE_STATE_KEY, SCOPE_STATE_KEY, scope_of_key
from apps.mcp_server.tool_calls import error_result
from apps.mcp_server.tool_schemas import portable, tenant_bounded
from memoryproject.api_errors import ApplicationError, error_body

# An agent's loop in at most ten tools, named as Graphiti's and Mem0's hosts name theirs.
DEFAULT = ("add_memory", "search_memory", "get_context", "append_message", "get_entity",
           "get_document", "forget", "get_status")  # fmt: skip
# Shared work: the task graph, its evidence, episodes, lessons and handoffs.
WORK = ("create_task", "ready_tasks", "claim_task", "release_task", "complete_task", "fail_task",
        "get_task", "task_context", "add_evidence", "get_evidence", "open_episode",
        "record_entry", "close_episode", "lessons", "playbooks_for", "handoffs", "hand_off",
        "accept_handoff", "whoami", "search_memory", "get_status")  # fmt: skip
# The MCP reference memory server's tools (modelcontextprotocol/servers, src/memory), unchanged.
MEMORY = ("create_entities", "create_relations", "add_observations", "delete_entities",
          "delete_observations", "delete_relations", "read_graph", "search_nodes",
          "open_nodes")  # fmt: skip
PROFILES = {
    "default": DEFAULT,
    "work": WORK,
    "memory": MEMORY,
    "full": None,
}  # None: all but MEMORY
DEFAULT_PROFILE = "default"
MAX_PROFILE_CHARS = 20


def profile_checked(name: str | None) -> str:
    """The profile named by a header, query or flag (absent: `default`); a 400 naming the field
    and the profiles there are otherwise."""
    name = (name or DEFAULT_PROFILE).strip().lower()[:MAX_PROFILE_CHARS]
    if name not in PROFILES:
        raise ApplicationError(f"Unknown profile {name!r}.", field="profile", limit=list(PROFILES))
    return name


def profile_tools(profile: str, every: list[str]) -> list[str]:
    """The tools of a profile, in registration order."""
    names = PROFILES[profile]
    if names is None:
        return [name for name in every if name not in MEMORY]
    return [name for name in every if name in names]


def one_paragraph(text: str | None) -> str:
    return " ".join(inspect.cleandoc(text or "").split())


class ProfiledServer(MCPServer):
    """The SDK's server, listing and calling only the tools of the connection's profile that the
    key's scopes allow; every tool declares the scopes that may call it and its output schema."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tool_needs: dict[str, tuple[str, ...]] = {}
        self.tool_outputs: dict[str, dict] = {}
        self.tool_schemas: dict[str, dict] = {}  # input schemas not read off a signature

    def tool_add(self, fn, *, needs: tuple[str, ...] | str, output: dict, annotations, name=None):
        name = name or fn.__name__
        self.add_tool(fn, name=name, description=one_paragraph(fn.__doc__),
                      annotations=annotations, structured_output=False)  # fmt: skip
        self.tool_needs[name] = (needs,) if isinstance(needs, str) else tuple(needs)
        self.tool_outputs[name] = portable(output, closed=False)

    def visible(self, profile: str, scope: Scope | None) -> list[str]:
        every = [tool.name for tool in self._tool_manager.list_tools()]
        names = profile_tools(profile, every)
        if scope is None:
            return names
        return [name for name in names if any(scope.allows(n) for n in self.tool_needs[name])]

    async def _handle_list_tools(self, ctx, params) -> ListToolsResult:
        profile, scope = await _connection(ctx)
        names = set(self.visible(profile, scope))
        return ListToolsResult(tools=[
            MCPTool(name=info.name, title=info.title, description=info.description,
                    input_schema=self._input_schema(info, scope),
                    output_schema=self.tool_outputs[info.name], annotations=info.annotations)
            for info in self._tool_manager.list_tools() if info.name in names
        ])  # fmt: skip

    @staticmethod
    def _input_schema(info, scope: Scope | None) -> dict:
        """The tool's input schema with the bounds of the connection's tenant (a document's
        size...); without a tenant, the highest a tenant may set."""
        return info.parameters if scope is None else tenant_bounded(
            info.name, info.parameters, scope.setting)  # fmt: skip

    async def _handle_call_tool(self, ctx, params):
        profile, _scope = await _connection(ctx, with_scope=False)
        if params.name not in self.visible(profile, None):
            return error_result({**error_body("not_found", f"No tool {params.name[:60]!r} in "
                                              f"the {profile} profile.", field="name"),
                                 "status": 404})  # fmt: skip
        tool = self._tool_manager.get_tool(params.name)
        try:
            arguments = arguments_checked(params.name, params.arguments or {})
            # The SDK's own check, run here first so that its refusal has the REST shape.
            tool.fn_metadata.validate_arguments(arguments)
        except ApplicationError as exc:
            return error_result({**error_body(exc.code, exc.message, field=exc.field,
                                              limit=exc.limit), "status": exc.status})  # fmt: skip
        except ValidationError as exc:
            named = aliases_used(params.name, params.arguments or {})
            return error_result(arguments_refusal(exc, tool.parameters, named=named))
        result = await super()._handle_call_tool(ctx, params.model_copy(
            update={"arguments": arguments}))  # fmt: skip
        if isinstance(result, CallToolResult) and result.is_error and not result.structured_content:
            # Every refusal of ours is structured: this is a tool that failed (the SDK logged
            # it), the server's fault, never the caller's.
            return error_result({**error_body("server_error", "The server failed; it is "
                                              "logged."), "status": 500})  # fmt: skip
        return result


async def _connection(ctx, *, with_scope: bool = True) -> tuple[str, Scope | None]:
    """(profile, key scope) of the request: HTTP has both in the ASGI state (the /mcp app put
    them there); stdio has the key and the profile the process was started with."""
    request = ctx.request
    if request is not None:
        state = (getattr(request, "scope", None) or {}).get("state", {})
        return state.get(PROFILE_STATE_KEY, DEFAULT_PROFILE), state.get(SCOPE_STATE_KEY)
    lifespan = ctx.lifespan_context if isinstance(ctx.lifespan_context, dict) else {}
    profile = lifespan.get("profile") or DEFAULT_PROFILE
    raw_key = lifespan.get("api_key")
    if not with_scope or not raw_key:
        return profile, None
    try:
        scope = await anyio.to_thread.run_sync(scope_of_key, raw_key)
    except Exception:  # a revoked key lists nothing; its calls are refused by tool_run
        return profile, Scope(tenant="-", actor="-", permissions=frozenset())
    return profile, scope
