"""JSON from callers, checked in one place before anything stores or compares it.

Two levels of the same checks:
- every API body (`BODY`): bounded nesting, numbers finite and within signed 64 bits (what Neo4j
  stores), strings of valid Unicode (no lone surrogates, which `"\\ud800"` in JSON produces and the
  graph driver cannot encode);
- free-form values (`FREE_FORM`: an entry's values, an outcome, a playbook's trigger and steps, a
  situation, a document's metadata): the same, plus few levels, few keys, short strings and a
  bounded total size.

A refusal is an ApplicationError that names the input (`field`), the limit broken (`limit`) and,
in the message, where inside the value it broke (`steps[0].do`).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from memoryproject.api_errors import INT64_MAX, INT64_MIN, ApplicationError

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class JsonLimits:
    depth: int  # levels of objects and lists inside the value (a flat object is 1)
    keys: int  # keys of any one object
    key_chars: int
    string_chars: int | None  # None: the input's own serializer bounds its strings
    total_bytes: int | None  # the value as compact UTF-8 JSON


BODY = JsonLimits(depth=32, keys=1_000, key_chars=200, string_chars=None, total_bytes=None)
FREE_FORM = JsonLimits(depth=8, keys=100, key_chars=100, string_chars=2_000, total_bytes=20_000)


def _refuse(field: str, message: str, *, code: str, limit: Any = None) -> ApplicationError:
    return ApplicationError(message, field=field, limit=limit, code=code)


def validate_text(text: str, *, field: str, where: str | None = None) -> str:
    """A string of valid Unicode: no lone surrogate (valid pairs are decoded to one character by
    every JSON parser, so any surrogate left is a broken one)."""
    if _SURROGATE.search(text):
        raise _refuse(
            field, f"{where or field} holds a lone surrogate (invalid Unicode).",
            code="invalid_unicode",
        )  # fmt: skip
    return text


def validate_json(
    value: Any, *, field: str, limits: JsonLimits = FREE_FORM, top_keys_are_fields: bool = False
) -> Any:
    """`value` if it is plain JSON within `limits`; walks it without recursion, so a deep value
    costs no stack. With `top_keys_are_fields` (a request body), a refusal inside a top-level
    key names that key as its field."""
    name = field
    stack: list[tuple[Any, int, str, str]] = [(value, 0, name, name)]
    while stack:
        item, depth, where, field = stack.pop()
        if isinstance(item, dict | list):
            if depth + 1 > limits.depth:
                raise _refuse(
                    field, f"{name} nests deeper than {limits.depth} levels (at {where}).",
                    code="too_deep", limit=limits.depth,
                )  # fmt: skip
            if isinstance(item, dict):
                if len(item) > limits.keys:
                    raise _refuse(
                        field, f"{where} has more than {limits.keys} keys.",
                        code="too_many_keys", limit=limits.keys,
                    )  # fmt: skip
                for key, child in item.items():
                    if not isinstance(key, str):
                        raise _refuse(field, f"{where} has a key that is not text.", code="invalid")
                    if len(key) > limits.key_chars:
                        raise _refuse(
                            field, f"{where} has a key longer than {limits.key_chars} characters.",
                            code="too_long", limit=limits.key_chars,
                        )  # fmt: skip
                    validate_text(key, field=field, where=f"a key of {where}")
                    named = key if top_keys_are_fields and depth == 0 else field
                    stack.append((child, depth + 1, f"{where}.{key[:40]}", named))
            else:
                stack.extend(
                    (child, depth + 1, f"{where}[{i}]", field) for i, child in enumerate(item)
                )
        elif isinstance(item, str):
            if limits.string_chars is not None and len(item) > limits.string_chars:
                raise _refuse(
                    field, f"{where} is longer than {limits.string_chars} characters.",
                    code="too_long", limit=limits.string_chars,
                )  # fmt: skip
            validate_text(item, field=field, where=where)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not INT64_MIN <= item <= INT64_MAX:
                raise _refuse(
                    field, f"{where} is outside the signed 64-bit integers.",
                    code="out_of_range", limit=INT64_MAX,
                )  # fmt: skip
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise _refuse(field, f"{where} is not a finite number.", code="out_of_range")
        else:
            raise _refuse(field, f"{where} is not a JSON value.", code="invalid")
    if limits.total_bytes is not None:
        size = len(json_text(value).encode("utf-8"))
        if size > limits.total_bytes:
            raise _refuse(
                name, f"{name} is {size} bytes as JSON; the limit is {limits.total_bytes}.",
                code="too_large", limit=limits.total_bytes,
            )  # fmt: skip
    return value


def validate_json_object(value: Any, *, field: str, limits: JsonLimits = FREE_FORM) -> dict:
    """A JSON object (a dict) within `limits`."""
    if not isinstance(value, dict):
        raise _refuse(field, f"{field} must be a JSON object.", code="invalid")
    return validate_json(value, field=field, limits=limits)


def json_text(value: Any) -> str:
    """Compact JSON text of a checked value (what its size is measured on)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def json_loads(
    text: str, *, field: str, limits: JsonLimits = BODY, top_keys_are_fields: bool = False
) -> Any:
    """Parse JSON text and check the value: NaN and Infinity are refused, a nesting too deep for
    the parser is a refusal like any other (not a RecursionError)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _refuse(
            field, f"{field} nests deeper than {limits.depth} levels.",
            code="too_deep", limit=limits.depth,
        ) from None  # fmt: skip
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, an integer of too many digits
        raise _refuse(field, f"{field} is not valid JSON: {exc}", code="invalid_json") from None
    return validate_json(value, field=field, limits=limits, top_keys_are_fields=top_keys_are_fields)


REPLACEMENT = "\ufffd"  # what a lost character reads as, so the reader sees something was there


def stored_json_loads(text: str) -> Any:
    """JSON text the service stored itself, read back. Values stored before every input went
    through this module's checks may hold an escaped lone surrogate (`"\\ud800"`), which decodes
    to a string no response can encode: each one reads as U+FFFD instead, so one legacy value
    never breaks the reads of a whole tenant."""
    value = json.loads(text)
    if "\\u" not in text:
        return value  # no escape, no surrogate: the common case costs one substring search
    return _sanitized(value)


def _sanitized(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, list):
        return [_sanitized(v) for v in value]
    if isinstance(value, dict):
        return {_sanitized(k): _sanitized(v) for k, v in value.items()}
    return value
