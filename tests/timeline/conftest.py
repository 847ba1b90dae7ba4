"""Test kinds for versioned entities, declared through the real service: devices in rooms, used
by teams (a domain of no product)."""

from __future__ import annotations

import pytest

from apps.timeline.kinds import check_kind_declare

ROOM = {"name": "Room", "key": "code"}
TEAM = {"name": "Team", "key": "name", "type": "Organization"}
DEVICE = {
    "name": "Device",
    "key": "serial",
    "values": {"status": "string", "temp": "number", "last_seen": "time", "note": "text",
               "count": "integer", "ok": "boolean"},
    "relations": {"LOCATED_IN": {"target": "Room", "one": True},
                  "USED_BY": {"target": "Team", "one": False}},
}  # fmt: skip


def kinds_declare(scope) -> None:
    for kind in (ROOM, TEAM, DEVICE):
        check_kind_declare(scope, kind=kind)


@pytest.fixture
def kinds(scope):
    kinds_declare(scope)
    return scope


def row(key: str, t: str, *, entry=None, relations=None, **values) -> dict:
    out = {"kind": "Device", "key": key, "t": t, "values": values}
    if relations is not None:
        out["relations"] = relations
    if entry is not None:
        out["entry"] = entry
    return out
