"""Serials of entries: one gap-free order per tenant, taken in the query that stores an entry,
safe under concurrent writers; entries stored before serials existed are numbered once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from apps.graph import cypher
from apps.lessons.services.entry_serials import do_entry_serials_backfill
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from tests.conftest import scope_for

SERIALS = """
MATCH (en:Entry {tenant: $tenant}) RETURN en.uid AS uid, en.serial AS serial, en.text AS text
ORDER BY en.serial
"""


def test_concurrent_writers_in_many_episodes_get_one_gap_free_order(tenant, make_tenant):
    scope = scope_for(tenant)
    episodes = [check_episode_open(scope, title=f"e{i}")["id"] for i in range(4)]
    other = scope_for(make_tenant())
    check_entry_record(other, episode=check_episode_open(other)["id"], type="note", text="x")

    def write(i):
        return check_entry_record(scope_for(tenant, actor=f"agent:{i % 3}"),
                                  episode=episodes[i % 4], type="note", text=f"n{i}")["id"]  # fmt: skip

    with ThreadPoolExecutor(max_workers=8) as pool:
        uids = set(pool.map(write, range(40)))
    rows = cypher.read(scope, SERIALS)
    assert {r["uid"] for r in rows} == uids
    assert [r["serial"] for r in rows] == list(range(1, 41))
    # Another tenant's serials are its own.
    assert [r["serial"] for r in cypher.read(other, SERIALS)] == [1]


def test_entries_stored_before_serials_are_numbered_once_oldest_first(scope):
    episode = check_episode_open(scope)["id"]
    for text in ("old 1", "old 2"):
        check_entry_record(scope, episode=episode, type="note", text=text)
    # The world before serials: entries without one, and no counter.
    cypher.write(scope, "MATCH (en:Entry {tenant: $tenant}) REMOVE en.serial")
    cypher.write(scope, "MATCH (c:EntrySerial {tenant: $tenant}) DELETE c")
    check_entry_record(scope, episode=episode, type="note", text="new")
    assert cypher.write_unit(scope, do_entry_serials_backfill) == 2
    assert [(r["text"], r["serial"]) for r in cypher.read(scope, SERIALS)] == [
        ("new", 1), ("old 1", 2), ("old 2", 3)]  # fmt: skip
    assert cypher.write_unit(scope, do_entry_serials_backfill) == 0
    check_entry_record(scope, episode=episode, type="note", text="later")
    assert cypher.read(scope, SERIALS)[-1] == {**cypher.read(scope, SERIALS)[-1], "serial": 4}
