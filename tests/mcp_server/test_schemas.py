"""Every input schema of every tool of every profile, as the SDK's client lists it, holds the
rules of docs/reference/mcp.md: every string has a maxLength, every number both bounds, every
array a maxItems, every object is closed (additionalProperties false) or a bounded map, every
property says what it is; and every schema, input or output, gives one type per schema and
constrains what it accepts (the MCP Inspector's portability checks)."""

from __future__ import annotations

import pytest

from apps.mcp_server.profiles import PROFILES
from apps.tenants.models import KeyScope
from apps.tenants.tenant_settings import check_settings_update
from tests.conftest import scope_for
from tests.mcp_server.conftest import call, key_issue, over_http

pytestmark = pytest.mark.django_db(transaction=True)
# What the Inspector takes as constraining a value (its `untyped-schema` check).
CONSTRAINING = {"type", "enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref", "maxLength",
                "minLength", "pattern", "format", "maximum", "minimum", "items", "properties",
                "additionalProperties", "required", "maxItems", "maxProperties",
                "propertyNames"}  # fmt: skip
EVERY_SCOPE = [KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE, KeyScope.REVIEW, KeyScope.ADMIN]


def schema_problems(schema: dict, *, inputs: bool) -> list[str]:
    """Each rule a schema breaks, with the path of the node that breaks it."""
    problems: list[str] = []
    _check(schema, "", problems, inputs=inputs)
    for name, definition in (schema.get("$defs") or {}).items():
        _check(definition, f"$defs.{name}", problems, inputs=inputs)
    return problems


def _check(node, path: str, problems: list[str], *, inputs: bool) -> None:
    if not isinstance(node, dict):
        problems.append(f"{path}: not a schema object")
        return
    kind = node.get("type")
    if isinstance(kind, list):
        problems.append(f"{path}: a type list {kind}")
    if not CONSTRAINING & set(node):
        problems.append(f"{path}: constrains nothing")
    if inputs:
        _bounds(node, kind, path, problems)
    for name, child in (node.get("properties") or {}).items():
        if inputs and not (isinstance(child, dict) and child.get("description")):
            problems.append(f"{path}.{name}: no description")
        _check(child, f"{path}.{name}", problems, inputs=inputs)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            _check(node[key], f"{path}[{key}]", problems, inputs=inputs)
    for key in ("anyOf", "oneOf", "allOf"):
        for i, branch in enumerate(node.get(key) or ()):
            _check(branch, f"{path}|{key}{i}", problems, inputs=inputs)


def _bounds(node: dict, kind, path: str, problems: list[str]) -> None:
    if "enum" in node or "const" in node:
        return
    for one in kind if isinstance(kind, list) else [kind]:
        _bound(node, one, path, problems)


def _bound(node: dict, kind, path: str, problems: list[str]) -> None:
    if kind == "string" and "maxLength" not in node:
        problems.append(f"{path}: a string without maxLength")
    if kind in ("integer", "number") and not {"minimum", "maximum"} <= set(node):
        problems.append(f"{path}: a number without both bounds")
    if kind == "array" and "maxItems" not in node:
        problems.append(f"{path}: an array without maxItems")
    if kind == "object":
        extra = node.get("additionalProperties")
        bounded_map = (isinstance(extra, dict) and "maxProperties" in node
                       and "maxLength" in (node.get("propertyNames") or {}))  # fmt: skip
        if extra is not False and not bounded_map:
            problems.append(f"{path}: an object neither closed nor a bounded map")


def test_every_tool_schema_of_every_profile_holds_the_rules(live_asgi, tenant):
    raw = key_issue(tenant, scopes=EVERY_SCOPE)

    async def steps(client):
        return (await client.list_tools()).tools

    problems = []
    for profile in PROFILES:
        tools = over_http(live_asgi, raw, steps, profile=profile)
        assert tools, profile
        for tool in tools:
            found = schema_problems(tool.input_schema, inputs=True)
            found += schema_problems(tool.output_schema or {"type": "object"}, inputs=False)
            problems += [f"{profile} {tool.name}: {problem}" for problem in found]
    assert problems == [], "\n".join(problems)


def test_the_rules_catch_what_they_are_about():
    broken = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "description": "no bound"},
            "b": {"type": ["integer", "null"], "maximum": 3, "description": "x"},
            "c": {"type": "array", "items": {}, "description": "x"},
            "d": {"type": "object", "additionalProperties": True, "description": "x"},
            "e": {"type": "string", "maxLength": 3},
        },
    }
    found = schema_problems(broken, inputs=True)
    for expected in ("an object neither closed", ".a: a string without maxLength",
                     ".b: a type list", ".b: a number without both bounds",
                     ".c: an array without maxItems", ".c[items]: constrains nothing",
                     ".d: an object neither closed", ".e: no description"):  # fmt: skip
        assert any(expected in problem for problem in found), (expected, found)


def test_a_schema_carries_the_bounds_of_the_connections_tenant(live_asgi, tenant):
    check_settings_update(scope_for(tenant, actor="user:ada", kind="person"), tenant=tenant,
                          values={"max_document_bytes": "5000", "max_message_chars": "300",
                                  "max_facts_per_request": "7"})  # fmt: skip

    async def steps(client):
        tools = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
        too_long = await call(client, "add_memory", text="word " * 1001, source="bounds")
        return tools, too_long

    tools, too_long = over_http(live_asgi, key_issue(tenant), steps, profile="full")

    def bound(schema: dict, path: str, keyword: str):
        *defs, name = path.split(".")
        for step in defs:
            schema = schema[step]
        node = schema["properties"][name]
        return next((b for b in node.get("anyOf", [node]) if keyword in b), {}).get(keyword)

    assert bound(tools["add_memory"], "text", "maxLength") == 5000
    assert bound(tools["add_memory"], "episode_body", "maxLength") == 5000
    assert bound(tools["append_message"], "text", "maxLength") == 300
    assert bound(tools["append_messages"], "$defs.MessageIn.text", "maxLength") == 300
    assert bound(tools["add_facts"], "entities", "maxItems") == 7
    # The bound the schema states is the one the tool holds to.
    assert too_long["status"] == 400 and too_long["error"]["limit"] == 5000
