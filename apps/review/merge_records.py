"""What a merge keeps to be undone: edge properties as JSON, with Neo4j temporal values tagged
so they come back as the same type (an undo restores `first_seen` as a datetime, not a string)."""

from __future__ import annotations

import json
from typing import Any

from neo4j.time import Date, DateTime

_DATETIME = "$datetime"
_DATE = "$date"


def _encode(value: Any) -> Any:
    if isinstance(value, DateTime):
        return {_DATETIME: value.iso_format()}
    if isinstance(value, Date):
        return {_DATE: value.iso_format()}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        if _DATETIME in value:
            return DateTime.from_iso_format(value[_DATETIME])
        if _DATE in value:
            return Date.from_iso_format(value[_DATE])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def props_encode(props: dict[str, Any]) -> dict[str, Any]:
    return {key: _encode(value) for key, value in props.items()}


def props_decode(props: dict[str, Any]) -> dict[str, Any]:
    return {key: _decode(value) for key, value in props.items()}


def record_dump(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"))


def record_load(text: str | None) -> dict:
    return json.loads(text) if text else {}
