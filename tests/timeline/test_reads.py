"""Reads over time: history(last), the difference between two times, old words of past States."""

from __future__ import annotations

import datetime as dt

from apps.timeline import selectors
from apps.timeline.services import check_rows_write
from apps.timeline.time_diff import diff_between
from tests.timeline.conftest import row


def at(day: int, hour: int = 0) -> dt.datetime:
    return dt.datetime(2026, 1, day, hour, tzinfo=dt.UTC)


def t(day: int) -> str:
    return f"2026-01-{day:02d}T00:00:00Z"


def test_history_last_gives_the_newest_oldest_first(kinds):
    check_rows_write(kinds, rows=[row("d1", t(d), status=str(d)) for d in range(1, 8)])
    last = selectors.history(kinds, kind="Device", key="d1", last=3)
    assert [h["values"]["status"] for h in last] == ["5", "6", "7"]
    assert last[-1]["by"] == kinds.actor and last[-1]["valid_to"] is None


def test_diff_between_two_times(kinds):
    check_rows_write(kinds, rows=[
        row("d1", t(1), status="ok", relations={"LOCATED_IN": "r1"}),
        row("d2", t(1), status="ok"),
        row("d1", t(3), status="hot", relations={"LOCATED_IN": "r2"}),
        row("d3", t(4), status="new"),
    ])  # fmt: skip
    got = diff_between(kinds, since=at(2), until=at(5))
    assert got["created"] == [{"kind": "Device", "key": "d3", "values": {"status": "new"}}]
    assert got["changed"] == [
        {"kind": "Device", "key": "d1", "changes": {"status": {"before": "ok", "after": "hot"}}}
    ]
    assert [(r["source"], r["target"], r["at"]) for r in got["opened"]] == [("d1", "r2", t(3))]
    assert [(r["source"], r["target"], r["at"]) for r in got["closed"]] == [("d1", "r1", t(3))]
    assert not got["truncated"]
    empty = diff_between(kinds, since=at(5), until=at(9))
    assert empty["created"] == empty["changed"] == empty["opened"] == empty["closed"] == []


def test_search_history_finds_old_words_and_when_they_held(kinds):
    check_rows_write(kinds, rows=[row("d1", t(1), note="pump room sensor"),
                                  row("d1", t(2), note="boiler hall sensor")])  # fmt: skip
    found = selectors.search_history(kinds, kind="Device", q="pump")
    assert [(f["key"], f["valid_from"], f["valid_to"]) for f in found] == [("d1", t(1), t(2))]
    assert selectors.search_history(kinds, kind="Room", q="pump") == []
    assert selectors.search_history(kinds, kind="Device", q="*:") == []


def test_another_tenant_sees_no_history_words_or_changes(kinds, make_tenant):
    from tests.conftest import scope_for

    check_rows_write(kinds, rows=[row("d1", t(1), note="pump room sensor")])
    other = scope_for(make_tenant())
    assert selectors.search_history(other, kind="Device", q="pump") == []
    assert diff_between(other, since=at(1) - dt.timedelta(days=1), until=at(9))["created"] == []
