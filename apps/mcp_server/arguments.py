"""A tool call's arguments before the tool's body runs: the names other memories' hosts give
ours (Graphiti's `query`, `episode_body`, `max_nodes`...) taken as aliases, then the SDK's check
of names, types and bounds, whose refusal is given the REST error shape (`code`, `message`,
`fields`, `field`, `limit`) instead of pydantic's text."""

from __future__ import annotations

import copy
from typing import Any

from django.conf import settings
from pydantic import ValidationError

from memoryproject.api_errors import ApplicationError, error_body
from memoryproject.json_values import BODY, json_text, validate_json

# tool -> {the name a peer's host sends: our argument}. Said once: the schemas list each alias
# beside its argument, and docs/reference/mcp.md's table is checked against this.
ALIASES: dict[str, dict[str, str]] = {
    # Graphiti's add_memory(name, episode_body, reference_time); Mem0's add_memory(text).
    "add_memory": {"episode_body": "text", "name": "title", "reference_time": "date"},
    # OpenMemory's search_memory(query); Graphiti's searches (query, max_nodes, max_facts);
    # Mem0's user_id.
    "search_memory": {
        "query": "q",
        "max_nodes": "limit",
        "max_facts": "limit",
        "user_id": "user",
    },
}
# pydantic's error types, in the words DRF uses for the same problem (REST's `fields`), and the
# context key that holds the bound (REST's `limit`).
_WORDS = {
    "missing": ("This field is required.", None),
    "string_too_long": ("Ensure this field has no more than {} characters.", "max_length"),
    "string_too_short": ("Ensure this field has at least {} characters.", "min_length"),
    "too_long": ("Ensure this field has no more than {} elements.", "max_length"),
    "too_short": ("Ensure this field has at least {} elements.", "min_length"),
    "less_than_equal": ("Ensure this value is less than or equal to {}.", "le"),
    "greater_than_equal": ("Ensure this value is greater than or equal to {}.", "ge"),
    "less_than": ("Ensure this value is less than {}.", "lt"),
    "greater_than": ("Ensure this value is greater than {}.", "gt"),
}


def arguments_checked(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments under our names, checked as the REST API checks any body (BODY: nesting,
    keys, 64-bit integers, valid Unicode; the size of a request, over stdio as over HTTP)."""
    validate_json(arguments, field="arguments", limits=BODY, top_keys_are_fields=True)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if len(json_text(arguments).encode()) > limit:
        raise ApplicationError(f"The arguments are larger than {limit} bytes.",
                               field="arguments", limit=limit, code="too_large")  # fmt: skip
    return aliases_resolved(tool, arguments)


def aliases_resolved(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments under our names. An alias and its argument (or two aliases of one) given
    with different values are refused, naming the alias."""
    aliases = ALIASES.get(tool)
    if not aliases:
        return arguments
    resolved = {name: value for name, value in arguments.items() if name not in aliases}
    for name, value in arguments.items():
        ours = aliases.get(name)
        if ours is None:
            continue
        if ours in resolved and resolved[ours] != value:
            raise ApplicationError(f"{name} and {ours} name the same argument with different "
                                   "values; give one.", field=name, limit=[ours])  # fmt: skip
        resolved[ours] = value
    return resolved


def schema_with_aliases(tool: str, schema: dict) -> dict:
    """The tool's input schema with each alias beside its argument (the same type and bounds),
    and an argument that has aliases no longer `required` (an alias may stand for it)."""
    aliases = ALIASES.get(tool)
    if not aliases:
        return schema
    schema = copy.deepcopy(schema)
    properties = schema.setdefault("properties", {})
    for alias, ours in aliases.items():
        properties[alias] = {**properties[ours], "title": alias,
                             "description": f"the same as `{ours}` (another memory's name)"}  # fmt: skip
    required = set(aliases.values())
    schema["required"] = [name for name in schema.get("required", ()) if name not in required]
    return schema


def aliases_used(tool: str, arguments: dict[str, Any]) -> dict[str, str]:
    """{our argument: the alias the caller gave for it}, to name the caller's word in a
    refusal."""
    return {ours: name for name, ours in ALIASES.get(tool, {}).items() if name in arguments}


def arguments_refusal(exc: ValidationError, schema: dict, *, named: dict[str, str]) -> dict:
    """The REST error body (with its status, 400) of arguments the SDK's check refused: each
    problem under `fields` by its path (`entities[0].name`, an argument under the alias the
    caller gave it, `named`), and where there is one, `field`, its `limit` and a message that
    says it in a line."""
    fields: dict[str, list[str]] = {}
    limits: dict[str, Any] = {}
    for error in exc.errors(include_url=False):
        loc = error["loc"]
        if error["type"] == "extra_forbidden":  # the key is no property: named, not walked
            inner = _path(loc[:-1], schema)
            path = f"{inner}.{loc[-1]}" if inner else str(loc[-1])
        else:
            path = _path(loc, schema)
        head = path.split(".")[0].split("[")[0]
        if head in named:
            path = named[head] + path[len(head) :]
        text, limit = _words(error, schema, path)
        fields.setdefault(path or "arguments", []).append(text)
        if limit is not None:
            limits.setdefault(path, limit)
    if len(fields) == 1:
        [(path, [text, *_])] = fields.items()
        message = f"{path}: {text}"
        body = error_body("invalid", message, fields=fields, field=path, limit=limits.get(path))
    else:
        body = error_body("invalid", "The arguments are invalid; see fields.", fields=fields)
    return {**body, "status": 400}


def _words(error: dict, schema: dict, path: str) -> tuple[str, Any]:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "extra_forbidden":
        accepted = sorted(_properties_at(schema, error["loc"][:-1]))
        name = str(error["loc"][-1])
        return f"Unknown argument {name!r}; the accepted ones are {', '.join(accepted)}.", accepted
    if kind in ("literal_error", "enum"):
        choices = _node_at(schema, error["loc"]).get("enum")
        return f"{error.get('input')!r} is not one of the choices.", choices
    words, bound = _WORDS.get(kind, (None, None))
    if words is None:
        return error["msg"] + ".", None
    limit = ctx.get(bound) if bound else None
    return words.format(limit), limit


def _path(loc: tuple, schema: dict) -> str:
    """`entities[0].name` from pydantic's ('entities', 0, 'name'), without the names pydantic
    gives the branches of a union (`list[str]`, `function-after[...]`)."""
    path, node = "", schema
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
            node = _child(node, schema, part)
            continue
        if part not in _properties(node, schema) and path:
            continue  # a union's branch, not a key
        path = f"{path}.{part}" if path else str(part)
        node = _child(node, schema, part)
    return path


def _resolved(node: dict, schema: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        node = schema.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    for branch in node.get("anyOf", ()) if isinstance(node, dict) else ():
        if isinstance(branch, dict) and branch.get("type") != "null":
            return _resolved(branch, schema)
    return node if isinstance(node, dict) else {}


def _properties(node: dict, schema: dict) -> dict:
    return _resolved(node, schema).get("properties") or {}


def _child(node: dict, schema: dict, part) -> dict:
    node = _resolved(node, schema)
    if isinstance(part, int):
        return node.get("items") or {}
    return (node.get("properties") or {}).get(part) or {}


def _node_at(schema: dict, loc: tuple) -> dict:
    node = schema
    for part in loc:
        if isinstance(part, int) or part in _properties(node, schema):
            node = _child(node, schema, part)
    return _resolved(node, schema)


def _properties_at(schema: dict, loc: tuple) -> dict:
    return _properties(_node_at(schema, loc), schema)
