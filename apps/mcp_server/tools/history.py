"""Tools over versioned rows (the timeline app): an entity's States in order, and the State that
held at a time. The REST routes' serializers and selectors, through tool_calls."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from apps.mcp_server.output_schemas import ROWS, obj
from apps.mcp_server.tool_calls import checked, tool_run
from apps.mcp_server.tools.memory import READ, arg
from apps.tenants.models import KeyScope
from apps.timeline import selectors
from apps.timeline.history_api import AsOfIn, HistoryIn
from apps.timeline.rows import MAX_KEY_CHARS, parse_time

MAX_KIND_CHARS = 40  # as the REST routes cut the path's kind


def entity_history(
    ctx: Context,
    kind: Annotated[str, arg("the row kind, e.g. Device", max_length=MAX_KIND_CHARS)],
    key: Annotated[str, arg("the entity's key within its kind", max_length=MAX_KEY_CHARS)],
    last: Annotated[int | None, arg("only the last N States", HistoryIn, "last")] = None,
) -> CallToolResult:
    """The States of a versioned entity, oldest first: its values and relations over time."""

    def work(scope):
        data = checked(HistoryIn, last=last)
        rows = selectors.history(scope, kind=kind[:MAX_KIND_CHARS], key=key[:MAX_KEY_CHARS],
                                 last=data["last"])  # fmt: skip
        return {"results": rows}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def entity_as_of(
    ctx: Context,
    kind: Annotated[str, arg("the row kind, e.g. Device", max_length=MAX_KIND_CHARS)],
    key: Annotated[str, arg("the entity's key within its kind", max_length=MAX_KEY_CHARS)],
    at: Annotated[str, arg("ISO 8601 time with a zone", AsOfIn, "at")],
) -> CallToolResult:
    """The State of a versioned entity that held at a time (null before its first)."""

    def work(scope):
        data = checked(AsOfIn, at=at)
        state = selectors.as_of(scope, kind=kind[:MAX_KIND_CHARS], key=key[:MAX_KEY_CHARS],
                                at=parse_time(data["at"], field="at"))  # fmt: skip
        return {"state": state}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def register(server) -> None:
    server.tool_add(entity_history, needs=KeyScope.MEMORY_READ, output=ROWS, annotations=READ)
    server.tool_add(entity_as_of, needs=KeyScope.MEMORY_READ, annotations=READ,
                    output=obj(state={"type": ["object", "null"]}))  # fmt: skip
