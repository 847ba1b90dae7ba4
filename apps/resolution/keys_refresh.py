"""A tenant's entities given the blocking keys the current code makes (blocking_keys), for
entities kept before a kind of key was added (the nickname keys came after the phonetic ones):
an entity gets the keys its names and values make now, added to those it has, as an absorb adds
a mention's (and capped alike). A page of entities per transaction, in uid order; a second run
changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.blocking_keys import MAX_KEYS, blocking_keys
from apps.resolution.entity_values import values_load

PAGE_SIZE = 500

_PAGE = """
MATCH (e:Entity {tenant: $tenant}) WHERE e.uid > $after
RETURN e.uid AS uid, e.type AS type, e.name AS name, coalesce(e.aliases, []) AS aliases,
       e.values_json AS values_json
ORDER BY e.uid LIMIT $limit
"""

_KEYS_ADD = """
UNWIND $rows AS row
MATCH (e:Entity {tenant: $tenant, uid: row.uid}) USING INDEX SEEK e:Entity(uid)
WITH e, row, coalesce(e.name_keys, []) AS kept
WITH e, kept, (kept + [k IN row.keys WHERE NOT k IN kept])[..$max_keys] AS keys
WHERE keys <> kept
SET e.name_keys = keys
RETURN count(e) AS changed
"""


def do_keys_page_refresh(stx: cypher.ScopedTx, *, after: str, limit: int) -> tuple[int, int, str]:
    """(entities read, entities changed, the last uid read) for one page after `after`."""
    page = stx.run(_PAGE, after=after, limit=limit)
    if not page:
        return 0, 0, after
    rows = [{"uid": e["uid"],
             "keys": blocking_keys(e["type"], [e["name"], *e["aliases"]],
                                   values_load(e["values_json"]))}
            for e in page]  # fmt: skip
    changed = stx.run(_KEYS_ADD, rows=rows, max_keys=2 * MAX_KEYS)[0]["changed"]
    return len(page), changed, page[-1]["uid"]


def keys_refresh(
    scope: Scope, *, page_size: int = PAGE_SIZE, progress: Callable[[int, int], None] | None = None
) -> tuple[int, int]:
    """(entities read, entities changed) over the whole tenant; `progress` hears the running
    totals after each page."""
    after, read, changed = "", 0, 0
    while True:
        n, c, after = cypher.write_unit(
            scope, lambda stx, a=after: do_keys_page_refresh(stx, after=a, limit=page_size)
        )
        read, changed = read + n, changed + c
        if progress and n:
            progress(read, changed)
        if n < page_size:
            return read, changed
