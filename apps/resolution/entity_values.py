"""Values on an entity: a flat map of scalars an agent states about it (`email`, `phone`, `born`,
`id:wikidata`, ...), checked against limits, and merged when two entities become one.

Kept on the entity as one JSON string (Neo4j has no map properties); the gate compares the
identifying ones. A merge never overwrites a value: a different value for a key the survivor
already has is kept beside it as a conflict, for a person to see.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re

from apps.resolution.comparisons.identifiers import EXTERNAL_ID_PREFIX
from apps.resolution.comparisons.records import LEARNED_PREFIX
from memoryproject.api_errors import ApplicationError

MAX_VALUES = 30
MAX_KEY_CHARS = 64
MAX_VALUE_CHARS = 500
# JSON numbers beyond 2**53 lose digits in JavaScript readers; an id that long is a string.
MAX_ABS_NUMBER = 2**53
# Lower-case words, digits, `_`, `-`, `.`; an external id is `id:<system>`.
KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_.-]*(:[a-z0-9][a-z0-9_.-]*)?$")
# Keys whose value says who or what the entity is (the gate compares them).
IDENTIFYING_KEYS = ("email", "phone", "url", "domain", "born", "address")
DATE_KEYS = ("born", "died", "founded", "dissolved")
# Learned keys that hold several values once notes are merged (values_with_ties).
TIE_KEYS = tuple(LEARNED_PREFIX + k for k in ("employer", "city", "maker", "role", "hobby"))
MAX_TIES = 8
# Descriptions from other sources kept on an entity (its own first, these listed after).
MAX_ABSORBED_DESCRIPTIONS = 20
_ISO_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


def validate_values(values: object, *, field: str) -> dict:
    """The values as given, or a 400 naming `field.key` and the limit that broke: at most
    MAX_VALUES keys matching KEY_PATTERN, each a string (<= MAX_VALUE_CHARS), a finite number,
    a bool, or for date keys an ISO date (YYYY, YYYY-MM or YYYY-MM-DD)."""
    if values is None:
        return {}
    if not isinstance(values, dict):
        raise ApplicationError("values must be an object of scalars.", field=field)
    if len(values) > MAX_VALUES:
        raise ApplicationError(
            f"{len(values)} values; the limit is {MAX_VALUES}.",
            field=field, limit=MAX_VALUES, code="too_many",
        )  # fmt: skip
    for key, value in values.items():
        where = f"{field}.{key[:MAX_KEY_CHARS]}"
        if len(key) > MAX_KEY_CHARS:
            raise ApplicationError(f"A key is longer than {MAX_KEY_CHARS} characters.",
                                   field=where, limit=MAX_KEY_CHARS, code="too_long")  # fmt: skip
        if not KEY_PATTERN.match(key):
            raise ApplicationError(
                "A key is lower-case letters, digits, '_', '-', '.', or 'id:<system>'.",
                field=where,
            )
        if key.startswith(LEARNED_PREFIX):
            raise ApplicationError(f"Keys starting '{LEARNED_PREFIX}' are kept for values the "
                                   "graph learned from text.", field=where)  # fmt: skip
        _check_scalar(key, value, where)
    return dict(values)


def _check_scalar(key: str, value: object, where: str) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value) or abs(value) > MAX_ABS_NUMBER:
            raise ApplicationError("A number is finite and at most 2**53 in size.",
                                   field=where, limit=MAX_ABS_NUMBER)  # fmt: skip
        return
    if not isinstance(value, str):
        raise ApplicationError("A value is a string, a number or a bool (no lists or objects).",
                               field=where)  # fmt: skip
    if len(value) > MAX_VALUE_CHARS:
        raise ApplicationError(f"A value is longer than {MAX_VALUE_CHARS} characters.",
                               field=where, limit=MAX_VALUE_CHARS, code="too_long")  # fmt: skip
    if not value.strip():
        raise ApplicationError("A value is empty.", field=where)
    if key in DATE_KEYS and not _is_iso_date(value):
        raise ApplicationError("A date is YYYY, YYYY-MM or YYYY-MM-DD.", field=where)


def _is_iso_date(value: str) -> bool:
    if not _ISO_DATE.match(value):
        return False
    parts = [int(p) for p in value.split("-")] + [1, 1]
    try:
        dt.date(parts[0], parts[1], parts[2])
    except ValueError:
        return False
    return True


def is_identifying(key: str) -> bool:
    return key in IDENTIFYING_KEYS or key.startswith(EXTERNAL_ID_PREFIX)


def values_load(raw: str | None) -> dict:
    return json.loads(raw) if raw else {}


def values_with_ties(values_json: str | None, conflicts_json: str | None) -> dict:
    """The values a comparison reads: for a tie or a role learned from text (a person may have
    had two employers, notes call one job two ways) the value kept and those kept beside it,
    joined by '; ' (at most MAX_TIES), so what every merged note said counts, whichever came
    first; the other keys as kept."""
    values, conflicts = values_load(values_json), values_load(conflicts_json)
    for key in TIE_KEYS:
        if key in values and conflicts.get(key):
            joined = [values[key], *conflicts[key]]
            parts = [p.strip() for v in joined for p in str(v).split(";") if p.strip()]
            values[key] = "; ".join(list(dict.fromkeys(parts))[:MAX_TIES])
    return values


def values_dump(values: dict) -> str | None:
    return json.dumps(values, sort_keys=True, ensure_ascii=False) if values else None


def values_merged(kept: dict, conflicts: dict, incoming: dict) -> tuple[dict, dict]:
    """`kept` with the keys it lacked from `incoming`; a different value for a key it has goes
    to `conflicts` (key -> list of the other values), so nothing is overwritten or lost. A
    value learned from text (`text:<key>`) for a key `kept` states is left out."""
    merged, others = dict(kept), {k: list(v) for k, v in conflicts.items()}
    for key, value in incoming.items():
        if key.startswith(LEARNED_PREFIX) and key.removeprefix(LEARNED_PREFIX) in merged:
            continue  # a value learned from text never stands beside a stated one
        if key not in merged:
            merged[key] = value
        elif merged[key] != value and value not in others.get(key, []):
            others.setdefault(key, []).append(value)
    return merged, others


def values_combined(kept: dict, conflicts: dict, other: dict, other_conflicts: dict):
    """Two entities' values as one (a reviewer's merge): `other`'s values and the values it kept
    in conflict fold into `kept` by `values_merged`, so a conflict on either side stays shown."""
    merged, others = values_merged(kept, conflicts, other)
    for key, values in other_conflicts.items():
        for value in values:
            merged, others = values_merged(merged, others, {key: value})
    return merged, others


def values_uncombined(
    values: dict, conflicts: dict, *, before: tuple[dict, dict], taken: dict, taken_conflicts: dict
) -> tuple[dict, dict]:
    """Undo of `values_combined`: the values and conflicts that came from the other side
    (`taken`, `taken_conflicts`) and were not there `before` are taken out again; values
    stated since stay."""
    had, had_conflicts = before
    out, others = dict(values), {k: list(v) for k, v in conflicts.items()}
    came = list(taken.items()) + [(k, v) for k, vs in taken_conflicts.items() for v in vs]
    for key, value in came:
        if key not in had and out.get(key) == value:
            del out[key]
        if value in others.get(key, []) and value not in had_conflicts.get(key, []):
            others[key].remove(value)
            if not others[key]:
                del others[key]
    return out, others


def values_rows(values: dict, conflicts: dict) -> list[dict]:
    """For pages: one row per key, identifying keys first, with the conflicting values; a
    value learned from text (`text:<key>`) is marked `learned`."""
    keys = sorted(values, key=lambda k: (not is_identifying(k.removeprefix(LEARNED_PREFIX)), k))
    return [{"key": k, "value": values[k], "conflicts": conflicts.get(k, []),
             "learned": k.startswith(LEARNED_PREFIX)} for k in keys]  # fmt: skip
