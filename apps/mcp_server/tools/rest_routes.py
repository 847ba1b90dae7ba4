"""The full profile's tools for the REST capabilities without a hand-made tool: each calls its
REST view in the process, as the caller's key (the same serializer, service, scope check,
refusal record and error body), with its input schema taken from the API's OpenAPI schema
(drf-spectacular), so a tool and its route cannot drift apart. The MCP request was already
authenticated and rated; the view is not rated again."""

from __future__ import annotations

import inspect
import io
import json
import re
from types import SimpleNamespace
from typing import Annotated, Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import close_old_connections
from django.http import HttpRequest, QueryDict
from django.urls import URLPattern, get_resolver, reverse
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field
from rest_framework.exceptions import APIException

from apps.graph.cypher import read_your_writes
from apps.mcp_server.output_schemas import OBJECT
from apps.mcp_server.tool_calls import answer_data, caller_scope, graph_retries
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError, exception_handler
from memoryproject.request_inputs import MAX_NAME_CHARS

# (route name, method): tool name; the scope is the view's own `required_scope`. Hand-made
# tools cover the other routes (FULL_COVERED in tests/mcp_server/test_full_profile_routes.py).
ROUTES = {
    ("api-review-confirm", "post"): "confirm_review",
    ("api-review-reject", "post"): "reject_review",
    ("api-cluster-decision", "post"): "decide_cluster",
    ("api-cluster-undo", "post"): "undo_cluster_decision",
    ("api-suspect-rescore", "post"): "rescore_suspect_merges",
    ("api-reresolve", "post"): "reresolve_entities",
    ("api-suspect-keep", "post"): "keep_suspect_merge",
    ("api-suspect-undo", "post"): "undo_suspect_merge",
    ("api-match-model-learn", "post"): "learn_match_model",
    ("api-communities-refresh", "post"): "refresh_communities",
    ("api-messages-batch", "post"): "append_messages",
    ("api-messages-import", "post"): "import_messages",
    ("api-summary", "put"): "set_summary",
    ("api-erasure-preview", "post"): "preview_erasure",
    ("api-lessons", "post"): "write_lesson",
    ("api-lesson-evidence", "post"): "add_lesson_evidence",
    ("api-playbooks", "post"): "write_playbook",
    ("api-playbook-run", "post"): "record_playbook_run",
    ("api-playbook-switch", "post"): "switch_playbook",
    ("api-promotions", "post"): "promote_lessons",
    ("api-promotion-try", "post"): "try_promotion_rule",
    ("api-promotion-rules", "post"): "save_promotion_rule",
    ("api-promotion-rule-activate", "post"): "activate_promotion_rule",
    ("api-knowledge-promotions", "post"): "promote_knowledge",
    ("api-kinds", "post"): "declare_kind",
    ("api-rows", "post"): "write_rows",
    ("api-rows-from-entries", "post"): "rows_from_entries",
    ("api-kind-embed", "post"): "embed_kind_texts",
    ("api-row-update", "patch"): "update_row",
    ("api-what-if", "post"): "what_if",
    ("api-entry-invalidate", "post"): "invalidate_entry",
    ("api-tasks-batch", "post"): "apply_tasks",
    ("api-similarity", "post"): "sync_similarity",
    ("api-task", "patch"): "update_task",
    ("api-task-pages", "post"): "add_task_pages",
    ("api-evidence-synthesis", "post"): "synthesize_evidence",
}
_REF = re.compile(r"#/components/schemas/([\w.-]+)")
PathValue = Annotated[str, Field(max_length=MAX_NAME_CHARS)]  # a uid, key, kind or name


class _Principal:
    """The `request.user` of the in-process call (views read the key's Scope, not the user)."""

    is_authenticated, is_anonymous, is_staff = True, False, False

    def __init__(self, name: str) -> None:
        self.username = name

    def __str__(self) -> str:
        return self.username


def _host() -> str:
    allowed = [h.lstrip(".") for h in settings.ALLOWED_HOSTS if h and h != "*"]
    return allowed[0] if allowed else "localhost"


def route_call(scope, route: URLPattern, method: str, kwargs: dict, body, query) -> tuple:
    """(status, JSON body) of the route's view called as `scope`'s key."""
    view = route.callback.view_class.as_view(throttle_classes=[])
    data = json.dumps(body if body is not None else {}).encode()
    request = HttpRequest()
    request.method, request.path = method.upper(), reverse(route.name, kwargs=kwargs)
    query_string = urlencode(query or {}, doseq=True)
    request.META = {"CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(data)),
                    "HTTP_HOST": _host(), "SERVER_PORT": "80", "REMOTE_ADDR": "127.0.0.1",
                    "QUERY_STRING": query_string}  # fmt: skip
    request.GET = QueryDict(query_string)
    request._stream, request._read_started = io.BytesIO(data), False  # what read() reads
    request._force_auth_user, request._force_auth_token = _Principal(scope.actor), scope
    response = view(request, **kwargs)
    if hasattr(response, "render"):
        response.render()
    return response.status_code, json.loads(response.content or b"null")


def _result(status: int, data) -> CallToolResult:
    if status >= 400:
        body = {**(data if isinstance(data, dict) else {"error": data}), "status": status}
        text, is_error = json.dumps(body, ensure_ascii=False), True
    else:
        answer, text = answer_data(data if data is not None else {"status": status})
        body, is_error = answer if isinstance(answer, dict) else {"results": answer}, False
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=body, is_error=is_error)  # fmt: skip


def route_tool(route: URLPattern, method: str, name: str, params: list[str]):
    """A tool function calling `route` with its path parameters, `body` and `query` (its
    signature says so, for the SDK's argument check; the schema the host sees is the route's)."""

    def tool(ctx: Context, **arguments) -> CallToolResult:
        try:
            scope = caller_scope(ctx)
            kwargs = {p: str(arguments.get(p) or "") for p in params}
            with read_your_writes(), graph_retries():  # as the route's middleware does
                status, data = route_call(scope, route, method, kwargs, arguments.get("body"),
                                          arguments.get("query"))  # fmt: skip
        except (ApplicationError, APIException) as exc:  # the key, refused before the view
            response = exception_handler(exc, {})
            status, data = response.status_code, response.data
        finally:
            close_old_connections()
        return _result(status, data)

    tool.__name__ = name
    P = inspect.Parameter
    tool.__signature__ = inspect.Signature([
        P("ctx", P.KEYWORD_ONLY, annotation=Context),
        *(P(p, P.KEYWORD_ONLY, annotation=PathValue) for p in params),
        P("body", P.KEYWORD_ONLY, annotation=Any, default=None),
        P("query", P.KEYWORD_ONLY, annotation=dict[str, Any] | None, default=None),
    ])  # fmt: skip
    return tool


def _defs(schema: dict, components: dict) -> dict:
    """`schema` with its $refs pointing at $defs, and the components it needs beside it."""
    needed, todo = {}, [schema]
    while todo:
        for ref in _REF.findall(json.dumps(todo.pop())):
            if ref not in needed:
                needed[ref] = components[ref]
                todo.append(components[ref])
    fix = lambda s: json.loads(_REF.sub(r"#/$defs/\1", json.dumps(s)))  # noqa: E731
    # A component's description is its serializer's docstring: the API's, not the tool's.
    defs = {k: {key: v for key, v in fix(c).items() if key != "description"}
            for k, c in needed.items()}  # fmt: skip
    return {**fix(schema), **({"$defs": defs} if defs else {})}


def input_schema(operation: dict, components: dict) -> tuple[dict, list[str]]:
    """The tool's arguments: the path parameters, `query` (its parameters) and `body` (the
    request body's schema), from the OpenAPI operation; and the path parameters' names."""
    properties, required, path = {}, [], []
    query = {}
    for p in operation.get("parameters", ()):
        target = properties if p["in"] == "path" else query
        bound = {"maxLength": MAX_NAME_CHARS} if p["in"] == "path" else {}
        target[p["name"]] = {**p.get("schema", {}), **bound,
                             "description": p.get("description", p["name"])}  # fmt: skip
        if p["in"] == "path":
            path.append(p["name"])
            required.append(p["name"])
    if query:
        properties["query"] = {"type": "object", "properties": query, "additionalProperties": False,
                               "description": "the route's query parameters"}  # fmt: skip
    body = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
    if body:
        properties["body"] = {**body["schema"], "description": "the JSON body of the route"}
        if operation["requestBody"].get("required"):
            required.append("body")
    schema = {"type": "object", "properties": properties, "required": required,
              "additionalProperties": False}  # fmt: skip
    return _defs(schema, components), path


def named_routes(patterns):
    """(name, pattern) of every named route of the URL conf (read through Django's resolver:
    the project's URL conf stands above this app)."""
    for pattern in patterns:
        if isinstance(pattern, URLPattern):
            if pattern.name:
                yield pattern.name, pattern
        else:
            yield from named_routes(pattern.url_patterns)


def required_scope(view_class, method: str) -> str:
    """The key scope the view needs for `method` (some views decide by method)."""
    view = view_class()
    view.request = SimpleNamespace(method=method.upper())
    return view.required_scope


def register(server) -> None:
    from drf_spectacular.generators import SchemaGenerator

    openapi = SchemaGenerator().get_schema(request=None, public=True)
    components = openapi.get("components", {}).get("schemas", {})
    by_name = dict(named_routes(get_resolver().url_patterns))
    for (route_name, method), name in ROUTES.items():
        route = by_name[route_name]
        needs = required_scope(route.callback.view_class, method)
        path = "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(route.pattern))
        operation = openapi["paths"][path][method]
        schema, params = input_schema(operation, components)
        fn = route_tool(route, method, name, params)
        summary = operation.get("summary") or name.replace("_", " ")
        fn.__doc__ = f"{summary} (REST: {method.upper()} {path.removeprefix('/api/v1')})"
        read_only = needs == KeyScope.MEMORY_READ
        hints = ToolAnnotations(read_only_hint=read_only, open_world_hint=False,
                                destructive_hint=False)  # fmt: skip
        server.tool_add(fn, needs=needs, output=OBJECT, annotations=hints)
        server.tool_schemas[name] = schema
