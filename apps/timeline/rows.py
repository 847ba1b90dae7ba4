"""A row checked against its kind and made ready for the write rule.

A row is the full picture of one entity at time `t`: {kind, key, t, values, relations, entry}.
Every part is bounded; a row that breaks a limit refuses the whole batch with a 400 naming
`rows[i].<field>` and the limit, before anything is written.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass

from apps.timeline.kinds import KindSpec
from memoryproject.api_errors import ApplicationError

MAX_ROWS = 500
MAX_KEY_CHARS = 200
MAX_STRING_CHARS = 500
MAX_TEXT_CHARS = 10_000
MAX_TARGETS = 100
MAX_ENTRY_CHARS = 64
MAX_NUMBER = 2**53
# Times outside these years are typing errors, not history.
EARLIEST = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(2200, 1, 1, tzinfo=dt.UTC)
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass
class Row:
    index: int
    kind: KindSpec
    key: str
    t: dt.datetime
    values: dict
    relations: dict[str, list[str]]  # every relation of the kind, targets sorted
    entry: str | None = None

    def content(self) -> tuple[str, str]:
        return content_of(self.values, self.relations)

    @property
    def words(self) -> str:
        text = " ".join(str(self.values[n]) for n in self.kind.text_values if n in self.values)
        return " ".join(_WORD.findall(text.lower()))


def content_of(values: dict, relations: dict) -> tuple[str, str]:
    """What a State says, comparable: two rows say the same when these are equal."""
    return (
        json.dumps(values, sort_keys=True, ensure_ascii=False),
        json.dumps({k: sorted(v) for k, v in relations.items() if v}, sort_keys=True),
    )


# The shape of a time before Python parses it: fromisoformat takes any character between the
# date and the time and ignores a trailing NUL, which came through rows stored trimmed.
ISO_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]+)?)?"
    r"(Z|[+-][0-9]{2}(:?[0-9]{2}(:[0-9]{2})?)?)?"
)


def parse_time(raw: object, *, field: str) -> dt.datetime:
    """An ISO 8601 time with a time zone, in UTC, cut to whole seconds (the one resolution)."""
    if not isinstance(raw, str) or len(raw) > 40:
        raise ApplicationError("A time is an ISO 8601 string with a time zone.", field=field,
                               limit=40)  # fmt: skip
    if not ISO_TIME.fullmatch(raw):
        raise ApplicationError("A time is an ISO 8601 string with a time zone.", field=field)
    try:
        parsed = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise ApplicationError("A time is an ISO 8601 string with a time zone.",
                               field=field) from None  # fmt: skip
    if parsed.tzinfo is None:
        raise ApplicationError("A time carries its time zone (Z or +hh:mm).", field=field)
    try:
        parsed = parsed.astimezone(dt.UTC).replace(microsecond=0)
    except OverflowError:  # year 1 or 9999 moved past the calendar by its offset
        parsed = None
    if parsed is None or not EARLIEST <= parsed < LATEST:
        raise ApplicationError("A time is between 1900 and 2200.", field=field,
                               limit="1900-01-01/2200-01-01")  # fmt: skip
    return parsed


def time_text(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def validate_value(vtype: str, value: object, *, field: str) -> object:
    if vtype == "boolean":
        if not isinstance(value, bool):
            raise ApplicationError("This value is true or false.", field=field)
        return value
    if vtype in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ApplicationError(f"This value is a{'n' if vtype == 'integer' else ''} {vtype}.",
                                   field=field)  # fmt: skip
        if vtype == "integer" and not (isinstance(value, int) or float(value).is_integer()):
            raise ApplicationError("This value is an integer.", field=field)
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise ApplicationError("A number is finite and at most 2**53.", field=field,
                                   limit=MAX_NUMBER)  # fmt: skip
        return int(value) if vtype == "integer" else value
    if vtype == "time":
        return time_text(parse_time(value, field=field))
    limit = MAX_TEXT_CHARS if vtype == "text" else MAX_STRING_CHARS
    if not isinstance(value, str) or not value.strip():
        raise ApplicationError("This value is a non-empty string.", field=field)
    if len(value) > limit:
        raise ApplicationError(f"This value is longer than {limit} characters.", field=field,
                               limit=limit, code="too_long")  # fmt: skip
    return value


def validate_key(raw: object, *, field: str) -> str:
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_KEY_CHARS:
        raise ApplicationError(f"A key is a non-empty string of at most {MAX_KEY_CHARS}.",
                               field=field, limit=MAX_KEY_CHARS)  # fmt: skip
    return raw


def validate_targets(spec: KindSpec, name: str, raw: object, *, field: str) -> list[str]:
    rel = spec.relations.get(name)
    if rel is None:
        raise ApplicationError(f"{spec.name} has no relation {name[:40]}.", field=field)
    targets = [raw] if isinstance(raw, str | int) and not isinstance(raw, bool) else raw
    if raw is None:
        targets = []
    if not isinstance(targets, list) or len(targets) > (1 if rel.one else MAX_TARGETS):
        limit = 1 if rel.one else MAX_TARGETS
        raise ApplicationError(f"{name} takes at most {limit} target key(s).", field=field,
                               limit=limit)  # fmt: skip
    return sorted({validate_key(t, field=field) for t in targets})


def validate_values(spec: KindSpec, raw: object, *, field: str) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ApplicationError("values is an object.", field=field)
    values = {}
    for name, value in raw.items():
        where = f"{field}.{str(name)[:40]}"
        if name not in spec.values:
            raise ApplicationError(f"{spec.name} has no value {str(name)[:40]}.", field=where)
        values[name] = validate_value(spec.values[name], value, field=where)
    return values


def validate_row(raw: object, *, index: int, kinds: dict[str, KindSpec]) -> Row:
    where = f"rows[{index}]"
    if not isinstance(raw, dict):
        raise ApplicationError("A row is an object.", field=where)
    unknown = set(raw) - {"kind", "key", "t", "values", "relations", "entry"}
    if unknown:
        raise ApplicationError(f"Unknown field {sorted(unknown)[0][:40]}.", field=where)
    spec = kinds.get(raw.get("kind"))  # type: ignore[arg-type]
    if spec is None:
        raise ApplicationError("kind names a declared kind.", field=f"{where}.kind")
    relations_raw = raw.get("relations") or {}
    if not isinstance(relations_raw, dict):
        raise ApplicationError("relations is an object.", field=f"{where}.relations")
    relations = {name: [] for name in spec.relations}
    for name, targets in relations_raw.items():
        relations[name] = validate_targets(spec, str(name), targets,
                                           field=f"{where}.relations.{str(name)[:40]}")  # fmt: skip
    entry = raw.get("entry")
    if entry is not None and (not isinstance(entry, str) or len(entry) > MAX_ENTRY_CHARS):
        raise ApplicationError("entry is the id of an episode entry.", field=f"{where}.entry",
                               limit=MAX_ENTRY_CHARS)  # fmt: skip
    return Row(
        index=index,
        kind=spec,
        key=validate_key(raw.get("key"), field=f"{where}.key"),
        t=parse_time(raw.get("t"), field=f"{where}.t"),
        values=validate_values(spec, raw.get("values"), field=f"{where}.values"),
        relations=relations,
        entry=entry,
    )


def validate_batch(rows: object, kinds: dict[str, KindSpec]) -> list[Row]:
    if not isinstance(rows, list) or not rows or len(rows) > MAX_ROWS:
        raise ApplicationError(f"rows is a list of 1 to {MAX_ROWS} rows.", field="rows",
                               limit=MAX_ROWS)  # fmt: skip
    return [validate_row(raw, index=i, kinds=kinds) for i, raw in enumerate(rows)]
