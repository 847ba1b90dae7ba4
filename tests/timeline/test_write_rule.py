"""The write rule: receipts in order, replays unchanged, rows out of order, late rows, stale rows
refused and kept, the entry a State came from, one transaction per batch."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.graph import cypher
from apps.graph.write_failures import write_failures_list
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.timeline import selectors
from apps.timeline.services import check_rows_write
from memoryproject.api_errors import ApplicationError
from tests.timeline.conftest import row

T1, T2, T3, T4 = (f"2026-01-0{d}T00:00:00Z" for d in (1, 2, 3, 4))


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def statuses(receipts):
    return [r["status"] for r in receipts]


def history(scope, key="d1"):
    return [
        (h["valid_from"], h["valid_to"], h["values"].get("status"))
        for h in selectors.history(scope, kind="Device", key=key)
    ]


def test_created_changed_unchanged_and_a_replay_changes_nothing(kinds):
    rows = [row("d1", T1, status="ok"), row("d1", T2, status="hot"), row("d2", T1, status="ok")]
    assert statuses(check_rows_write(kinds, rows=rows)) == ["created", "changed", "created"]
    assert statuses(check_rows_write(kinds, rows=rows)) == ["unchanged"] * 3
    assert history(kinds) == [(T1, T2, "ok"), (T2, None, "hot")]
    assert selectors.as_of(kinds, kind="Device", key="d1", at=at(T1))["values"] == {"status": "ok"}
    assert selectors.as_of(kinds, kind="Device", key="d1", at=at("2025-12-31T00:00:00Z")) is None
    current = cypher.read(kinds, "MATCH (e:Entity {tenant: $tenant, key: 'd1'}) "
                          "RETURN e.values_json AS v, e.created_at AS c")[0]  # fmt: skip
    assert current["v"] == '{"status": "hot"}' and current["c"].to_native() == at(T1)


def test_a_missing_value_is_removed_and_a_time_value_is_normalized(kinds):
    check_rows_write(kinds, rows=[row("d1", T1, status="ok", temp=3.5)])
    check_rows_write(
        kinds, rows=[row("d1", T2, status="ok", last_seen="2026-01-02T01:00:00+01:00")]
    )
    states = selectors.history(kinds, kind="Device", key="d1")
    assert states[1]["values"] == {"status": "ok", "last_seen": "2026-01-02T00:00:00Z"}


def test_rows_out_of_order_give_the_history_of_their_times(kinds):
    check_rows_write(kinds, rows=[row("d1", T3, status="c")])
    check_rows_write(kinds, rows=[row("d1", T1, status="a")])
    receipts = check_rows_write(kinds, rows=[row("d1", T2, status="b")])
    assert statuses(receipts) == ["changed"] and "late" in receipts[0]["reason"]
    assert history(kinds) == [(T1, T2, "a"), (T2, T3, "b"), (T3, None, "c")]
    # The entity keeps the current values: a late row is never the current State.
    assert selectors.as_of(kinds, kind="Device", key="d1", at=at(T4))["values"]["status"] == "c"
    nexts = cypher.read(kinds, "MATCH (a:State {tenant: $tenant})-[:NEXT]->(b) "
                        "RETURN a.values_json AS a, b.values_json AS b ORDER BY a")  # fmt: skip
    assert sorted((r["a"], r["b"]) for r in nexts) == [
        ('{"status": "a"}', '{"status": "b"}'), ('{"status": "b"}', '{"status": "c"}')]  # fmt: skip


def test_a_late_row_before_the_state_before_the_current_one(kinds):
    # The lock reads the State before the current one over its NEXT link; a row before that one
    # is placed by the index of the entity's States (its State and the one after it).
    check_rows_write(kinds, rows=[row("d1", t, status=s) for t, s in ((T1, "a"), (T3, "c"),
                                                                      (T4, "d"))])  # fmt: skip
    receipts = check_rows_write(kinds, rows=[row("d1", T2, status="b")])
    assert statuses(receipts) == ["changed"] and "put into the history" in receipts[0]["reason"]
    assert history(kinds) == [(T1, T2, "a"), (T2, T3, "b"), (T3, T4, "c"), (T4, None, "d")]
    nexts = cypher.read(kinds, "MATCH (a:State {tenant: $tenant})-[:NEXT]->(b) "
                        "RETURN a.values_json AS a, b.values_json AS b")  # fmt: skip
    assert sorted((r["a"][-3], r["b"][-3]) for r in nexts) == [("a", "b"), ("b", "c"), ("c", "d")]
    # Saying what the State after it says (not the current one), it moves that State's start.
    check_rows_write(kinds, rows=[row("d2", T1, status="a"), row("d2", T3, status="c"),
                                  row("d2", T4, status="d")])  # fmt: skip
    receipts = check_rows_write(kinds, rows=[row("d2", T2, status="c")])
    assert receipts[0]["reason"] == "late: the next State starts earlier"
    assert history(kinds, "d2") == [(T1, T2, "a"), (T2, T4, "c"), (T4, None, "d")]


def test_a_late_row_saying_what_the_next_says_moves_its_start(kinds):
    check_rows_write(kinds, rows=[row("d1", T1, status="a"), row("d1", T3, status="c")])
    check_rows_write(kinds, rows=[row("d1", T2, status="c")])
    assert history(kinds) == [(T1, T2, "a"), (T2, None, "c")]
    assert selectors.history(kinds, kind="Device", key="d1")[1]["seen_last"] == T3


def test_a_late_row_before_seen_last_is_stale_refused_and_kept(kinds):
    check_rows_write(kinds, rows=[row("d1", T1, status="a"), row("d1", T3, status="a")])
    receipts = check_rows_write(kinds, rows=[row("d1", T2, status="b")])
    assert statuses(receipts) == ["refused"] and receipts[0]["reason"].startswith("stale")
    assert history(kinds) == [(T1, None, "a")]
    failures = write_failures_list(kinds)
    assert failures[0]["kind"] == "row" and "stale" in failures[0]["reason"]
    # Sent again, the same refusal is counted on the same node.
    check_rows_write(kinds, rows=[row("d1", T2, status="b")])
    assert [f["count"] for f in write_failures_list(kinds)] == [2]


def test_two_rows_of_one_time_conflict(kinds):
    receipts = check_rows_write(kinds, rows=[row("d1", T1, status="a"), row("d1", T1, status="b")])
    assert statuses(receipts) == ["created", "refused"]
    assert "conflict" in receipts[1]["reason"]


def test_many_late_rows_of_one_entity_in_one_batch(kinds):
    check_rows_write(kinds, rows=[row("d1", "2026-01-09T00:00:00Z", status="9")])
    rows = [row("d1", f"2026-01-0{d}T00:00:00Z", status=str(d)) for d in (5, 1, 3, 7)]
    assert statuses(check_rows_write(kinds, rows=rows)) == ["changed"] * 4
    assert [h[2] for h in history(kinds)] == ["1", "3", "5", "7", "9"]
    states = selectors.history(kinds, kind="Device", key="d1")
    assert all(a["valid_to"] == b["valid_from"] for a, b in zip(states, states[1:], strict=False))


def test_a_row_names_the_entry_it_came_from(kinds):
    episode = check_episode_open(kinds, title="look")["id"]
    entry = check_entry_record(kinds, episode=episode, type="observation")["id"]
    receipts = check_rows_write(kinds, rows=[row("d1", T1, entry=entry, status="hot"),
                                             row("d2", T1, entry="nope", status="x")])  # fmt: skip
    assert statuses(receipts) == ["created", "refused"]
    assert receipts[1]["reason"] == "unknown entry"
    assert selectors.history(kinds, kind="Device", key="d1")[0]["entry"] == entry
    linked = cypher.read(kinds, "MATCH (s:State {tenant: $tenant})-[:FROM]->(n:Entry) "
                         "RETURN n.uid AS uid")  # fmt: skip
    assert [r["uid"] for r in linked] == [entry]
    # The same values from another entry are unchanged; the State keeps its entry.
    other = check_entry_record(kinds, episode=episode, type="observation")["id"]
    again = check_rows_write(kinds, rows=[row("d1", T2, entry=other, status="hot")])
    assert statuses(again) == ["unchanged"]
    assert not cypher.read(kinds, "MATCH (e:Entity {tenant: $tenant, key: 'd2'}) RETURN e")


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"t": "2026-01-01T00:00:00"}, "rows[1].t"),
        ({"t": "3026-01-01T00:00:00Z"}, "rows[1].t"),
        ({"values": {"color": "red"}}, "rows[1].values.color"),
        ({"values": {"temp": "warm"}}, "rows[1].values.temp"),
        ({"values": {"count": 1.5}}, "rows[1].values.count"),
        ({"values": {"status": "x" * 501}}, "rows[1].values.status"),
        ({"key": "k" * 201}, "rows[1].key"),
        ({"relations": {"LOCATED_IN": ["r1", "r2"]}}, "rows[1].relations.LOCATED_IN"),
        ({"kind": "Ghost"}, "rows[1].kind"),
    ],
)
def test_bad_input_refuses_the_whole_batch_before_anything_is_written(kinds, bad, field):
    rows = [row("d1", T1, status="ok"), {**row("d2", T1, status="ok"), **bad}]
    with pytest.raises(ApplicationError) as refused:
        check_rows_write(kinds, rows=rows)
    assert refused.value.field == field
    assert selectors.history(kinds, kind="Device", key="d1") == []


def test_a_batch_is_limited_to_500_rows(kinds):
    with pytest.raises(ApplicationError) as refused:
        check_rows_write(kinds, rows=[row(f"d{i}", T1) for i in range(501)])
    assert refused.value.field == "rows" and refused.value.limit == 500


def test_a_tenant_never_reaches_another_tenants_entities(kinds, make_tenant):
    from tests.conftest import scope_for
    from tests.timeline.conftest import kinds_declare

    check_rows_write(kinds, rows=[row("d1", T1, status="mine")])
    other = scope_for(make_tenant())
    kinds_declare(other)
    assert selectors.history(other, kind="Device", key="d1") == []
    assert statuses(check_rows_write(other, rows=[row("d1", T1, status="theirs")])) == ["created"]
    assert history(kinds) == [(T1, None, "mine")]
