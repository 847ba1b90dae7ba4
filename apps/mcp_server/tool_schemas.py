"""Tool schemas in the form every host can read: one `type` per schema (a nullable value is
`anyOf` its type and null: a type list like `["string", "null"]` is lost on hosts that map
schemas onto one type, Gemini's among them), a bound kept beside the type it bounds, every
object closed (`additionalProperties: false`) or a bounded map, integers within the 64 bits the
graph stores, and a free-form value as `JsonValue`: any JSON within the limits every call's
arguments are checked against (BODY, and the request's size). docs/reference/mcp.md states
the rules; tests/mcp_server/test_schemas.py walks every tool of every profile."""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from typing import Any

from django.conf import settings

from memoryproject.api_errors import INT64_MAX, INT64_MIN
from memoryproject.json_values import BODY

# Keywords that bound a value of one type: kept with that type's branch of a nullable anyOf.
_TYPED = {"maxLength", "minLength", "pattern", "format", "maximum", "minimum",
          "exclusiveMaximum", "exclusiveMinimum", "maxItems", "minItems", "items",
          "uniqueItems", "enum", "examples", "properties", "required", "additionalProperties",
          "maxProperties", "propertyNames"}  # fmt: skip
DOUBLE = sys.float_info.max  # a JSON number the API takes is a finite double
ANY_JSON = "JsonValue"
ANY_REF = {"$ref": f"#/$defs/{ANY_JSON}"}
# Bounds a tenant sets (apps.tenants.tenant_settings): {setting: (keyword, {tool: arguments})}.
# A connection lists its tenant's value; registered, a schema holds the highest one allowed.
TENANT_BOUNDS = {
    "max_document_bytes": ("maxLength", {"add_memory": ("text", "episode_body"),
                                         "ingest_document": ("content",),
                                         "add_facts": ("source_text",)}),
    "max_message_chars": ("maxLength", {"append_message": ("text",), "context": ("message",),
                                        "get_context": ("message",),
                                        "append_messages": ("$defs.MessageIn.text",),
                                        "import_messages": ("$defs.MessageIn.text",)}),
    "max_facts_per_request": ("maxItems", {"add_memory": ("entities", "relations"),
                                           "add_facts": ("entities", "relations")}),
}  # fmt: skip
BOUNDED_TOOLS = {tool for _, tools in TENANT_BOUNDS.values() for tool in tools}


def json_value() -> dict:
    """Any JSON value within BODY's limits in a request of at most DATA_UPLOAD_MAX_MEMORY_SIZE
    bytes (a route's own stricter check, FREE_FORM's, names itself in its refusal)."""
    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return {"description": "any JSON value", "anyOf": [
        {"type": "string", "maxLength": size},
        {"type": "number", "minimum": -DOUBLE, "maximum": DOUBLE},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "array", "items": ANY_REF, "maxItems": size // 2},  # "[0,0,...]": 2 bytes each
        {"type": "object", "additionalProperties": ANY_REF, "maxProperties": BODY.keys,
         "propertyNames": {"maxLength": BODY.key_chars}},
    ]}  # fmt: skip


def portable(schema: dict, *, closed: bool = True) -> dict:
    """`schema` in the form above; an output's (`closed=False`) keeps its objects open: an
    answer that was cut says so in `truncated`, and a later release may add a field."""
    schema = copy.deepcopy(schema)
    if _walk(schema, closed):
        schema.setdefault("$defs", {})[ANY_JSON] = json_value()
    return schema


def _walk(node: Any, closed: bool) -> bool:
    """Rewrites `node` in place; whether it now refers to JsonValue."""
    if isinstance(node, list):
        return any([_walk(child, closed) for child in node])
    if not isinstance(node, dict):
        return False
    if isinstance(node.get("type"), list):
        node["anyOf"] = [{"type": kind} for kind in node.pop("type")]
    typed = [b for b in node.get("anyOf", ()) if b.get("type") != "null"]
    if len(typed) == 1 and len(node["anyOf"]) == 2:  # a nullable value
        for key in [k for k in node if k in _TYPED]:
            typed[0][key] = _merged(typed[0].get(key), node.pop(key))
    if node.get("type") == "integer":
        node.setdefault("minimum", INT64_MIN)
        node.setdefault("maximum", INT64_MAX)
    used = False
    free = node.get("additionalProperties") in (None, True, {})
    if closed and node.get("type") == "object" and free:
        if node.get("properties"):
            node["additionalProperties"] = False
        else:  # an object of any values: a bounded map of them
            node.update(additionalProperties=ANY_REF, maxProperties=BODY.keys,
                        propertyNames={"maxLength": BODY.key_chars})  # fmt: skip
            used = True
    for key, value in list(node.items()):
        if key in ("properties", "$defs", "patternProperties"):
            for name, child in value.items():
                used = _any(value, name) or _walk(child, closed) or used
        elif key in ("items", "additionalProperties") and value in ({}, True) and closed:
            node[key], used = dict(ANY_REF), True
        elif key not in ("enum", "examples", "required", "const", "default"):
            used = _walk(value, closed) or used
    return used


def _any(parent: dict, name: str) -> bool:
    """An untyped schema (`{}`, which accepts anything and tells nothing) named JsonValue, its
    description kept."""
    child = parent[name]
    if child is True:
        parent[name] = dict(ANY_REF)
        return True
    if not isinstance(child, dict) or set(child) - {"description", "title", "default"}:
        return False
    parent[name] = {**ANY_REF, **{k: v for k, v in child.items() if k == "description"}}
    return True


def _merged(current: Any, value: Any) -> Any:
    if isinstance(current, dict) and isinstance(value, dict):
        return {**current, **value}
    return value


def tenant_bounded(tool: str, schema: dict, setting: Callable[[str], Any]) -> dict:
    """`schema` with the tenant's bounds (`setting(name)` gives each) where `tool` has any; a
    bound counts characters, a document's limit bytes: a text of that many characters is the
    longest one that can fit."""
    if tool not in BOUNDED_TOOLS:
        return schema
    schema = copy.deepcopy(schema)
    for name, (keyword, tools) in TENANT_BOUNDS.items():
        for path in tools.get(tool, ()):
            *defs, argument = path.split(".")
            parent = schema
            for step in defs:
                parent = parent[step]
            node = parent["properties"][argument]
            typed = [b for b in node.get("anyOf", ()) if b.get("type") != "null"]
            (typed[0] if typed else node)[keyword] = int(setting(name))
    return schema
