"""How every MCP tool runs, defined once: the caller's key scope and the route's key scope, the
REST route's own input serializer and `check_*` service, the REST error body on a refusal (same
code, field and limit, recorded like the REST API records refused writes), and an answer of
compact JSON bounded in size."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent
from rest_framework import serializers
from rest_framework.exceptions import APIException, NotAuthenticated

from apps.conversations.services import message_refusal_record
from apps.graph.cypher import GraphUnavailable, read_your_writes, retried_within
from apps.graph.scope import Scope
from apps.mcp_server.key_scopes import SCOPE_STATE_KEY, scope_of_key
from memoryproject.api_errors import ApplicationError, PermissionDeniedError, exception_handler
from memoryproject.api_renderers import SafeJSONRenderer
from memoryproject.refusals import refusal_record
from memoryproject.request_inputs import validated

# An answer longer than this loses the tail of its longest lists (then strings), and says so in
# `truncated`; an LLM's context is the budget here, not the network.
MAX_ANSWER_CHARS = 20_000
# Where a serializer field keeps a bound, and the JSON Schema keyword that says it.
_BOUNDS = {"max_length": "maxLength", "min_length": "minLength",
           "max_value": "maximum", "min_value": "minimum"}  # fmt: skip
_LIST_BOUNDS = {"max_length": "maxItems", "min_length": "minItems"}


def limits_of(serializer_class: type[serializers.Serializer], name: str) -> dict:
    """The JSON Schema bounds of one field of a REST input serializer, for a tool's schema: the
    host sees the limits the serializer enforces, written down once (the serializer checks)."""
    field = serializer_class().fields[name]
    return _field_bounds(field)


def _field_bounds(field: serializers.Field) -> dict:
    listed = isinstance(field, serializers.ListField)
    keywords = _LIST_BOUNDS if listed else _BOUNDS
    bounds = {key: getattr(field, attr) for attr, key in keywords.items()
              if getattr(field, attr, None) is not None}  # fmt: skip
    items = _field_bounds(field.child) if listed else {}
    return {**bounds, "items": items} if items else bounds


def checked(
    serializer_class: type[serializers.Serializer], *, context: dict | None = None, **arguments: Any
) -> dict:
    """The tool's arguments through the REST route's serializer; an argument left out (None) is
    left to the serializer's default, as an absent JSON field is."""
    data = {name: value for name, value in arguments.items() if value is not None}
    return validated(None, serializer_class, data=data, context=context)


def caller_scope(ctx: Context) -> Scope:
    """HTTP: the Scope the /mcp app authenticated for this request. stdio: the process's key,
    checked again now (revoked means refused at once)."""
    request = ctx.request_context.request
    if request is not None:
        scope = (getattr(request, "scope", None) or {}).get("state", {}).get(SCOPE_STATE_KEY)
        if scope is None:
            raise NotAuthenticated()
        return scope
    lifespan = ctx.request_context.lifespan_context
    raw_key = lifespan.get("api_key") if isinstance(lifespan, dict) else None
    if not raw_key:
        raise NotAuthenticated()
    return scope_of_key(raw_key)


def tool_run(
    ctx: Context,
    *,
    needs: str,
    work: Callable[[Scope], Any],
    writes: str | None = None,
    conversation: dict | None = None,
) -> CallToolResult:
    """Run `work(scope)` for the caller if its key has the `needs` scope. `writes` names what a
    writing tool writes (the kind its refusals are recorded under); `conversation` ({user, sid,
    text}) records them under the conversation's user instead, as the REST routes do. A refusal
    is a tool error whose text is the REST error body with its HTTP status."""
    scope = None
    try:
        scope = caller_scope(ctx)
        if not scope.allows(needs):
            raise PermissionDeniedError(f"This API key lacks the '{needs}' scope.")
        with read_your_writes(), graph_retries():  # a tool call is one unit, as REST's
            answer = work(scope)
        data, text = answer_data(answer)
        structured, is_error = data if isinstance(data, dict) else {"results": data}, False
    except (ApplicationError, APIException) as exc:
        body, status = _refusal(exc)
        # A refusal is recorded in the graph, so a graph that cannot answer is not recorded.
        recorded = getattr(exc, "recorded", False) or isinstance(exc, GraphUnavailable)
        if scope is not None and (writes or conversation) and not recorded:
            _record(scope, body["error"], exc, writes=writes, conversation=conversation)
        structured = {**body, "status": status}
        text, is_error = json.dumps(structured, ensure_ascii=False), True
    finally:
        close_old_connections()
    # The same answer twice, as MCP asks of a tool with an output schema: JSON text for hosts
    # that read content, structured content for those that validate it.
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=structured, is_error=is_error)  # fmt: skip


def error_result(body: dict) -> CallToolResult:
    """A refusal as a tool error: the REST error body with its `status`, as text and as
    structured content."""
    text = json.dumps(body, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=body, is_error=True)  # fmt: skip


def graph_retries():
    """The graph's passing failures (unreachable, a deadlock) retried for half the query
    timeout: the driver's backoff doubles (1 s, 2 s, 4 s), so its last try starts, and the
    503 answers, within GRAPH_SEARCH_SECONDS."""
    return retried_within(settings.GRAPH_SEARCH_SECONDS / 2)


def _refusal(exc: Exception) -> tuple[dict, int]:
    response = exception_handler(exc, {})
    return response.data, response.status_code


def _record(scope: Scope, error: dict, exc: Exception, *, writes, conversation) -> None:
    where = f" field={error['field']}" if error.get("field") else ""
    limit = f" limit={error['limit']}" if error.get("limit") is not None else ""
    detail = error.get("fields") or error.get("message", "")
    if conversation is not None:
        message_refusal_record(
            scope, user=conversation.get("user"), sid=conversation.get("sid"),
            problem=f"mcp:{writes}: {str(detail)[:500]}", text=conversation.get("text"),
            kind=str(error.get("code", "refused")), exc=exc,
        )  # fmt: skip
        return
    refusal_record(scope, kind=writes, reason=f"mcp:{writes}{where}{limit}: {detail}", exc=exc)


def answer_text(answer: Any, *, limit: int = MAX_ANSWER_CHARS) -> str:
    """Compact JSON of at most `limit` characters (plain JSON types, as the REST API renders)."""
    return answer_data(answer, limit=limit)[1]


def answer_data(answer: Any, *, limit: int = MAX_ANSWER_CHARS) -> tuple[Any, str]:
    """The answer as plain JSON data cut to fit `limit` characters, and its compact text."""
    data = json.loads(SafeJSONRenderer().render(answer))
    text = _dumps(data)
    omitted: dict[str, int] = {}
    while len(text) > limit:
        path, longest = max(_parts(data), key=lambda part: len(_dumps(part[1])), default=((), None))
        if longest is None or len(longest) < 2 or not path:
            break
        key = ".".join(str(p) for p in path)
        if isinstance(longest, str) and key in omitted:
            longest = longest.removesuffix("…")  # the mark of an earlier cut is no content
        keep = len(longest) // 2
        omitted[key] = omitted.get(key, 0) + len(longest) - keep
        _cut(data, path, longest, keep)
        if isinstance(data, dict):
            data["truncated"] = omitted
        text = _dumps(data)
    return data, (text if len(text) <= limit else text[: limit - 1] + "…")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _parts(node: Any, path: tuple = ()):
    """Every list and string under `node`, with its path (the answer's own `truncated` aside)."""
    if isinstance(node, list | str):
        yield path, node
    children = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, child in children:
        if not (path == () and key == "truncated"):
            yield from _parts(child, (*path, key))


def _cut(data: Any, path: tuple, value: list | str, keep: int) -> None:
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(value, str):
        parent[path[-1]] = value[:keep] + "…"
    else:
        del value[keep:]
