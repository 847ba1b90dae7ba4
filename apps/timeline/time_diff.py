"""What changed between two times: entities that began, entities whose values changed (before
and after), relations that opened and that closed. Each list is bounded; `truncated` says so.
Found through indexes on when States and relation windows began and ended, so the cost follows
what changed in the span, not the size of the graph."""

from __future__ import annotations

import datetime as dt
import json

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.timeline.rows import time_text

MAX_ITEMS = 500

CHANGED = """
MATCH (s:State {tenant: $tenant}) WHERE s.valid_from > $since AND s.valid_from <= $until
WITH DISTINCT s.entity AS entity ORDER BY entity LIMIT $limit
MATCH (e:Entity {tenant: $tenant, uid: entity}) USING INDEX SEEK e:Entity(uid)
WITH e, entity, $since AS since, $until AS until
CALL (entity, since) {
  OPTIONAL MATCH (b:State {tenant: $tenant, entity: entity})
  USING INDEX SEEK b:State(tenant, entity, valid_from)
  WHERE b.valid_from <= since
  RETURN b ORDER BY b.tenant DESC, b.entity DESC, b.valid_from DESC LIMIT 1
}
CALL (entity, until) {
  OPTIONAL MATCH (a:State {tenant: $tenant, entity: entity})
  USING INDEX SEEK a:State(tenant, entity, valid_from)
  WHERE a.valid_from <= until
  RETURN a ORDER BY a.tenant DESC, a.entity DESC, a.valid_from DESC LIMIT 1
}
RETURN e.uid AS uid, e.kind AS kind, e.key AS key, b.values_json AS before,
       a.values_json AS after, b IS NULL AS began
"""

OPENED = """
MATCH (e:Entity {tenant: $tenant})-[r:RELATED_TO]->(x:Entity {tenant: $tenant})
WHERE r.valid_from > $since AND r.valid_from <= $until
  AND (r.valid_to IS NULL OR r.valid_to > r.valid_from)
RETURN coalesce(e.key, e.name) AS source, e.kind AS kind, r.predicate AS relation,
       coalesce(x.key, x.name) AS target, r.valid_from AS at, r.by AS by
ORDER BY at, source, target LIMIT $limit
"""

CLOSED = """
MATCH (e:Entity {tenant: $tenant})-[r:RELATED_TO]->(x:Entity {tenant: $tenant})
WHERE r.valid_to > $since AND r.valid_to <= $until AND r.valid_to > r.valid_from
RETURN coalesce(e.key, e.name) AS source, e.kind AS kind, r.predicate AS relation,
       coalesce(x.key, x.name) AS target, r.valid_to AS at, r.by AS by
ORDER BY at, source, target LIMIT $limit
"""


def diff_between(scope: Scope, *, since: dt.datetime, until: dt.datetime) -> dict:
    """{created, changed: [{kind, key, changes: {name: {before, after}}}], opened, closed,
    truncated} for the span (since, until]."""
    params = {"since": since, "until": until, "limit": MAX_ITEMS}
    created, changed = [], []
    rows = cypher.read(scope, CHANGED, **params)
    for row in rows:
        if row["began"]:
            created.append({"kind": row["kind"], "key": row["key"],
                            "values": json.loads(row["after"] or "{}")})  # fmt: skip
            continue
        before, after = json.loads(row["before"] or "{}"), json.loads(row["after"] or "{}")
        changes = {
            name: {"before": before.get(name), "after": after.get(name)}
            for name in sorted(set(before) | set(after))
            if before.get(name) != after.get(name)
        }
        if changes:
            changed.append({"kind": row["kind"], "key": row["key"], "changes": changes})
    opened = [_window(r) for r in cypher.read(scope, OPENED, **params)]
    closed = [_window(r) for r in cypher.read(scope, CLOSED, **params)]
    truncated = max(len(rows), len(opened), len(closed)) >= MAX_ITEMS
    return {"since": time_text(since), "until": time_text(until), "created": created,
            "changed": changed, "opened": opened, "closed": closed,
            "truncated": truncated}  # fmt: skip


def _window(row: dict) -> dict:
    return {**row, "at": time_text(row["at"].to_native())}
