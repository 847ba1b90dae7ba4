"""The tenant archive format: gzip'd NDJSON, one JSON object per line, each with a `kind`:

    {"kind": "header", "format": "anamnesis-tenant/1", "tenant": {"uid", "slug", "name"}, ...}
    {"kind": "settings", "settings": {...}}
    {"kind": "node", "ref": "n1", "labels": ["Entity"], "props": {...}}
    {"kind": "relationship", "type": "RELATED_TO", "start": "n1", "end": "n2", "props": {...}}
    {"kind": "row", "table": "tenants.job", "fields": {...}}
    {"kind": "footer", "counts": {"node": n, "relationship": n, "row": n}}

Graph values that JSON has no type for (Neo4j temporal values) are tagged objects
{"$t": "datetime", "v": "<ISO 8601>"}. Reading checks every line against the limits below
before anything is written, so a hostile or truncated archive is refused whole."""

from __future__ import annotations

import gzip
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import neo4j.time as neo_time
from django.conf import settings

from memoryproject.api_errors import ApplicationError

FORMAT = "anamnesis-tenant/1"
KINDS = ("header", "settings", "node", "relationship", "row", "footer")
ROW_TABLES = ("tenants.membership", "tenants.job", "tenants.auditevent")
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,99}")
REF = re.compile(r"n[0-9]{1,12}")
MAX_LINE_BYTES = 8 * 1024 * 1024  # a document's text (MAX_REQUEST_BYTES) fits with room
MAX_LINES = 5_000_000
MAX_PROPERTIES = 200
MAX_LIST_ITEMS = 100_000
MAX_UNCOMPRESSED_BYTES = 4 * 1024**3  # a gzip bomb stops here
INT_RANGE = (-(2**63), 2**63 - 1)
SURROGATE = re.compile("[\ud800-\udfff]")
TEMPORAL = {
    "datetime": neo_time.DateTime,
    "date": neo_time.Date,
    "time": neo_time.Time,
    "duration": neo_time.Duration,
}


class ArchiveRefused(ApplicationError):
    """An archive line that breaks the format or a limit; says which line and why."""

    def __init__(
        self, line: int, message: str, *, limit: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(f"Archive line {line}: {message}", field=field or "archive", limit=limit)


def archive_dir() -> Path:
    path = Path(settings.TENANT_ARCHIVE_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def encode_value(value):
    """A graph property value as JSON (temporal values tagged; lists item by item)."""
    if isinstance(value, list):
        return [encode_value(v) for v in value]
    for tag, kind in TEMPORAL.items():
        if isinstance(value, kind):
            return {"$t": tag, "v": value.iso_format()}
    if isinstance(value, float) and not math.isfinite(value):
        return {"$t": "float", "v": repr(value)}
    return value


def encode_props(props: dict) -> dict:
    return {key: encode_value(value) for key, value in props.items()}


def archive_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"


def _decode_value(value, line: int, depth: int = 0):
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if not INT_RANGE[0] <= value <= INT_RANGE[1]:
            raise ArchiveRefused(line, "an integer outside 64 bits")
        return value
    if isinstance(value, float | str):
        return value
    if isinstance(value, list):
        if depth:
            raise ArchiveRefused(line, "a list inside a list is no graph property")
        if len(value) > MAX_LIST_ITEMS:
            raise ArchiveRefused(line, "a list too long", limit=MAX_LIST_ITEMS)
        return [_decode_value(v, line, depth + 1) for v in value]
    if isinstance(value, dict) and set(value) == {"$t", "v"} and isinstance(value["v"], str):
        if value["$t"] == "float" and value["v"] in ("nan", "inf", "-inf"):
            return float(value["v"])
        kind = TEMPORAL.get(value["$t"])
        if kind is not None:
            try:
                return kind.from_iso_format(value["v"])
            except (ValueError, TypeError, OverflowError) as exc:
                raise ArchiveRefused(line, f"a {value['$t']} that does not parse") from exc
    raise ArchiveRefused(line, "a property value of no graph type")


def _props(record: dict, line: int) -> dict:
    props = record.get("props")
    if not isinstance(props, dict):
        raise ArchiveRefused(line, "`props` must be an object")
    if len(props) > MAX_PROPERTIES:
        raise ArchiveRefused(line, "too many properties", limit=MAX_PROPERTIES)
    for key in props:
        if not NAME.fullmatch(key):
            raise ArchiveRefused(line, "a property name that is no identifier")
    return {key: _decode_value(value, line) for key, value in props.items()}


def check_record(record, line: int) -> dict:
    """One decoded line, checked: its kind's fields present with the right types, names that are
    identifiers, values that are graph values. Returns the record with values decoded."""
    if not isinstance(record, dict) or record.get("kind") not in KINDS:
        raise ArchiveRefused(line, f"each line is an object whose kind is one of {KINDS}")
    kind = record["kind"]
    if kind == "header":
        if record.get("format") != FORMAT or not isinstance(record.get("tenant"), dict):
            raise ArchiveRefused(line, f"the header must name the format {FORMAT}")
    elif kind == "settings":
        if not isinstance(record.get("settings"), dict):
            raise ArchiveRefused(line, "`settings` must be an object")
    elif kind == "node":
        labels = record.get("labels")
        if not isinstance(labels, list) or not 1 <= len(labels) <= 20:
            raise ArchiveRefused(line, "a node has 1 to 20 labels", limit=20)
        if not all(isinstance(x, str) and NAME.fullmatch(x) for x in labels):
            raise ArchiveRefused(line, "a label that is no identifier")
        if not isinstance(record.get("ref"), str) or not REF.fullmatch(record["ref"]):
            raise ArchiveRefused(line, "a node's `ref` is n followed by digits")
        record = {**record, "props": _props(record, line)}
    elif kind == "relationship":
        if not isinstance(record.get("type"), str) or not NAME.fullmatch(record["type"]):
            raise ArchiveRefused(line, "a relationship type that is no identifier")
        for end in ("start", "end"):
            if not isinstance(record.get(end), str) or not REF.fullmatch(record[end]):
                raise ArchiveRefused(line, f"a relationship's `{end}` is a node ref")
        record = {**record, "props": _props(record, line)}
    elif kind == "row":
        if record.get("table") not in ROW_TABLES or not isinstance(record.get("fields"), dict):
            raise ArchiveRefused(line, f"a row's table is one of {ROW_TABLES}, with `fields`")
    elif not isinstance(record.get("counts"), dict):
        raise ArchiveRefused(line, "the footer holds the counts")
    return record


def archive_records(path: Path) -> Iterator[dict]:
    """The archive's records in order, each checked (`numbered_records` without the numbers)."""
    for _, record in numbered_records(path):
        yield record


def numbered_records(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, record) of every record in order, each checked; refuses the first bad line,
    a missing header or footer, and an archive over the limits. Blank lines hold no record but
    count toward the line and size limits like any other: a small upload of blank lines unpacks
    as large as it claims, and is refused as early."""
    total = 0
    seen_header = seen_footer = False
    try:
        with gzip.open(path, "rb") as stream:
            for number, raw in enumerate(_lines(stream), start=1):
                total += len(raw)
                if total > MAX_UNCOMPRESSED_BYTES:
                    raise ArchiveRefused(number, "the archive unpacks too large",
                                         limit=MAX_UNCOMPRESSED_BYTES)  # fmt: skip
                if number > MAX_LINES:
                    raise ArchiveRefused(number, "too many lines", limit=MAX_LINES)
                if not raw.strip():
                    continue
                if seen_footer:
                    raise ArchiveRefused(number, "a line after the footer")
                try:
                    record = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError, RecursionError) as exc:
                    raise ArchiveRefused(number, "not one JSON object in UTF-8") from exc
                if b"\\u" in raw and _holds_surrogate(record):
                    raise ArchiveRefused(
                        number, "a string holds a lone surrogate (invalid Unicode)"
                    )
                record = check_record(record, number)
                if (record["kind"] == "header") != (not seen_header):
                    raise ArchiveRefused(number, "the header is the first record, and only it")
                seen_header = True
                seen_footer = record["kind"] == "footer"
                yield number, record
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise ArchiveRefused(0, "not a complete gzip file") from exc
    if not seen_header or not seen_footer:
        raise ArchiveRefused(0, "the archive ends before its footer (truncated?)")


def _holds_surrogate(value) -> bool:
    """A lone surrogate anywhere in a decoded line (a `\\ud800` escape): no UTF-8 can hold it,
    so the graph driver and the database would fail on it later, far from the line."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _lines(stream) -> Iterator[bytes]:
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        if len(raw) > MAX_LINE_BYTES:
            raise ArchiveRefused(0, "a line too long", limit=MAX_LINE_BYTES)
        yield raw
