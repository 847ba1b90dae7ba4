"""Serials of entries: one number per tenant, in the order entries were stored.

Every entry takes the next serial of its tenant in the query that stores it (episodes.APPEND):
the tenant's EntrySerial node is incremented in that transaction and its lock held to the
commit, so serials follow commit order with no gaps (a rolled-back entry takes none) and a
reader that has seen serial n has seen every entry before it.

Entries stored before serials existed have none. `entry_serials_backfill` numbers them once per
tenant, oldest first, after the serials given so far; no migration is needed, and whatever reads
entries by serial calls it first.
"""

from __future__ import annotations

from apps.graph.cypher import ScopedTx

BACKFILL = """
MERGE (c:EntrySerial {tenant: $tenant})
ON CREATE SET c.last = 0
WITH c WHERE c.backfilled IS NULL
SET c._lock = true
WITH c
CALL (c) {
  MATCH (en:Entry {tenant: $tenant}) WHERE en.serial IS NULL
  WITH en ORDER BY en.created_at, en.episode, en.seq
  RETURN collect(en) AS entries
}
WITH c, entries, c.last AS base
SET c.last = base + size(entries), c.backfilled = true
REMOVE c._lock
WITH base, entries
UNWIND range(0, size(entries) - 1) AS i
WITH entries[i] AS en, base + 1 + i AS serial
SET en.serial = serial
RETURN count(en) AS numbered
"""


def do_entry_serials_backfill(stx: ScopedTx) -> int:
    """Number the tenant's entries that have no serial (once per tenant); returns how many."""
    rows = stx.run(BACKFILL)
    return rows[0]["numbered"] if rows else 0
