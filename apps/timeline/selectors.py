"""Reads of versioned entities: history, the values at a time, relation targets at a time, and
who points at an entity. A relation edge holds at t when
`(valid_from IS NULL OR valid_from <= t) AND (valid_to IS NULL OR valid_to > t)` (null is open),
the rule the graph-algorithms app keeps too.

history(last=n) and as_of seek on the (tenant, entity, valid_from) index and read it in order
(the States are read in a subquery given the entity and the time as variables, with the index
named, or the planner scans a wider index; ORDER BY names every property of the index, or Neo4j
sorts what it read instead), so they cost
the same for an entity with one State and with a thousand.
"""

from __future__ import annotations

import datetime as dt
import json
import time

from apps.graph import cypher
from apps.graph.fulltext import fulltext_terms, scoped_query
from apps.graph.scope import Scope
from apps.timeline.rows import time_text

MAX_HISTORY = 1000
MAX_RELATED = 1000

# Times leave as epoch seconds (they are stored whole): the driver's DateTime hydration cost more
# per State than the server's read, so history(last=20) paid for 80 of them. History leaves as
# one record (the States collected): the driver's cost per record was most of what 20 States
# cost more than one.
_STATE = """s {.uid, valid_from: s.valid_from.epochSeconds, valid_to: s.valid_to.epochSeconds,
               seen_last: s.seen_last.epochSeconds, .values_json, .relations_json, .by, .entry,
               recorded_at: s.recorded_at.epochSeconds} AS state"""

HISTORY = (
    """
MATCH (e:Entity {tenant: $tenant, kind: $kind, key: $key})
WITH e.uid AS entity
CALL (entity) {
  MATCH (s:State {tenant: $tenant, entity: entity})
  USING INDEX SEEK s:State(tenant, entity, valid_from)
  WHERE s.valid_from IS NOT NULL
  RETURN s ORDER BY s.tenant DESC, s.entity DESC, s.valid_from DESC LIMIT $last
}
RETURN collect("""
    + _STATE.removesuffix(" AS state")
    + ") AS states"
)

AS_OF = (
    """
MATCH (e:Entity {tenant: $tenant, kind: $kind, key: $key})
WITH e.uid AS entity, $at AS at
CALL (entity, at) {
  MATCH (s:State {tenant: $tenant, entity: entity})
  USING INDEX SEEK s:State(tenant, entity, valid_from)
  WHERE s.valid_from <= at
  RETURN s ORDER BY s.tenant DESC, s.entity DESC, s.valid_from DESC LIMIT 1
}
RETURN """
    + _STATE
)

HOLDS = "(r.valid_from IS NULL OR r.valid_from <= $at) AND (r.valid_to IS NULL OR r.valid_to > $at)"

RELATED = """
MATCH (e:Entity {tenant: $tenant, kind: $kind, key: $key})-[r:RELATED_TO {predicate: $rel}]->
      (x:Entity {tenant: $tenant})
WHERE HOLDS
RETURN DISTINCT coalesce(x.key, x.name) AS key ORDER BY key LIMIT $limit
""".replace("HOLDS", HOLDS)

POINTING_AT = """
MATCH (x:Entity {tenant: $tenant, kind: $kind, key: $key})<-[r:RELATED_TO {predicate: $rel}]-
      (e:Entity {tenant: $tenant})
WHERE HOLDS
RETURN DISTINCT e.kind AS kind, coalesce(e.key, e.name) AS key ORDER BY key LIMIT $limit
""".replace("HOLDS", HOLDS)


def _time(value) -> str | None:
    return time_text(value.to_native()) if value is not None else None


def _epoch(seconds: int | None) -> str | None:
    # time_text's format, without a datetime (a quarter of the cost, paid per State read).
    return (
        time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)) if seconds is not None else None
    )


def state_out(state: dict) -> dict:
    return {
        "state": state["uid"],
        "valid_from": _epoch(state["valid_from"]),
        "valid_to": _epoch(state.get("valid_to")),
        "seen_last": _epoch(state.get("seen_last")),
        "values": json.loads(state["values_json"] or "{}"),
        "relations": json.loads(state["relations_json"] or "{}"),
        "by": state.get("by"),
        "entry": state.get("entry"),
        "recorded_at": _epoch(state.get("recorded_at")),
    }


def history(scope: Scope, *, kind: str, key: str, last: int = MAX_HISTORY) -> list[dict]:
    """The States of an entity, oldest first (the last `last` of them)."""
    rows = cypher.read(scope, HISTORY, kind=kind, key=key, last=min(last, MAX_HISTORY))
    states = sorted(rows[0]["states"] if rows else [], key=lambda s: s["valid_from"])
    return [state_out(state) for state in states]


def as_of(scope: Scope, *, kind: str, key: str, at: dt.datetime) -> dict | None:
    """The State that held at `at` (its values, by, entry), or None before the first."""
    rows = cypher.read(scope, AS_OF, kind=kind, key=key, at=at)
    return state_out(rows[0]["state"]) if rows else None


def related(scope: Scope, *, kind: str, key: str, rel: str, at: dt.datetime | None = None):
    """The keys of the targets of `rel` that hold at `at` (now when None), sorted."""
    at = at or dt.datetime.now(dt.UTC)
    rows = cypher.read(scope, RELATED, kind=kind, key=key, rel=rel, at=at, limit=MAX_RELATED)
    return [r["key"] for r in rows]


def pointing_at(scope: Scope, *, kind: str, key: str, rel: str, at: dt.datetime | None = None):
    """The entities whose `rel` points at this one at `at` (now when None): [{kind, key}]."""
    at = at or dt.datetime.now(dt.UTC)
    rows = cypher.read(scope, POINTING_AT, kind=kind, key=key, rel=rel, at=at, limit=MAX_RELATED)
    return [{"kind": r["kind"], "key": r["key"]} for r in rows]


SEARCH_HISTORY = """
CALL db.index.fulltext.queryNodes('state_words', $words, {limit: $hits}) YIELD node, score
WITH node AS s, score WHERE s.tenant = $tenant AND s.kind = $kind
RETURN s.key AS key, s.valid_from AS valid_from, s.valid_to AS valid_to,
       s.values_json AS values_json, score
ORDER BY score DESC LIMIT $limit
"""


@cypher.bounded_read("history search")
def search_history(scope: Scope, *, kind: str, q: str, limit: int = 20) -> list[dict]:
    """Past States of a kind whose text holds the words of `q` (old words too), and when each
    held: [{key, valid_from, valid_to, values, score}]."""
    terms = fulltext_terms(q, max_terms=20)
    words = scoped_query(terms, ("words",), tenant=scope.tenant)
    if not words:
        return []
    rows = cypher.read(scope, SEARCH_HISTORY, words=words, kind=kind, hits=limit * 5, limit=limit)
    return [
        {"key": r["key"], "valid_from": _time(r["valid_from"]), "valid_to": _time(r["valid_to"]),
         "values": json.loads(r["values_json"] or "{}"), "score": round(r["score"], 4)}
        for r in rows
    ]  # fmt: skip
