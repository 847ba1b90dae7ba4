"""The shortest chain of relations between two entities, either way along each relation.

A search from both ends, one layer at a time from the end with fewer to look at, reading only
the neighbours of that layer (one query per layer), so its cost grows with the part of the
graph between the two, not with the tenant's graph. Neighbours are taken oldest first and a node
keeps the first way it was reached, so among chains of equal length the answer is always the
same one. With `at`, only relations that held then between entities that existed then.
Each step tells of one relation joining its two entities: one that holds now if there is one,
else the one that ended last; `holds_now`, `since` and `until` say when it held.
"""

from __future__ import annotations

from datetime import datetime

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.insights.selectors import iso_time
from memoryproject.api_errors import ApplicationError, NotFoundError

MAX_VISITED = 200_000
MAX_LENGTH = 50

ENDS = """
UNWIND $uids AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid, status: 'active'}) USING INDEX SEEK e:Entity(uid)
WHERE $at IS NULL OR e.created_at <= $at
RETURN e.uid AS uid
"""
NEIGHBOURS = """
UNWIND range(0, size($frontier) - 1) AS i
MATCH (a:Entity {tenant: $tenant, uid: $frontier[i]})-[r:RELATED_TO]-(b:Entity {tenant: $tenant,
                                                                                status: 'active'})
WHERE ($predicate IS NULL OR r.predicate = $predicate)
  AND ($at IS NULL OR (b.created_at <= $at
                       AND (r.valid_from IS NULL OR r.valid_from <= $at)
                       AND (r.valid_to IS NULL OR r.valid_to > $at)))
WITH DISTINCT i, a.uid AS from, b.uid AS to, b.created_at AS created_at
RETURN from, to ORDER BY i, created_at IS NULL, created_at, to
"""
STEPS = """
UNWIND $pairs AS pair
MATCH (a:Entity {tenant: $tenant, uid: pair[0]})-[r:RELATED_TO]-(b:Entity {tenant: $tenant,
                                                                            uid: pair[1]})
WHERE ($predicate IS NULL OR r.predicate = $predicate)
  AND ($at IS NULL OR ((r.valid_from IS NULL OR r.valid_from <= $at)
                       AND (r.valid_to IS NULL OR r.valid_to > $at)))
WITH pair, a, b, r,
     (r.valid_from IS NULL OR r.valid_from <= datetime())
       AND (r.valid_to IS NULL OR r.valid_to > datetime()) AS holds_now
ORDER BY holds_now DESC, r.valid_to DESC, coalesce(r.valid_from, r.first_seen), r.uid
WITH pair, a, b, collect({r: r, holds_now: holds_now})[0] AS best
RETURN pair[0] AS from, pair[1] AS to, a.name AS from_name, a.type AS from_type,
       b.name AS to_name, b.type AS to_type, best.r.predicate AS predicate,
       startNode(best.r) = a AS forward, best.holds_now AS holds_now,
       coalesce(best.r.valid_from, best.r.first_seen) AS since, best.r.valid_to AS until,
       best.r.weight AS weight
"""


class SearchTooLarge(ApplicationError):
    def __init__(self) -> None:
        super().__init__(
            f"The search between these two entities would read more than {MAX_VISITED} "
            f"entities or chains longer than {MAX_LENGTH} relations.",
            code="search_too_large", limit=MAX_VISITED,
        )  # fmt: skip


def _chain(parent: dict[str, str | None], uid: str) -> list[str]:
    chain = [uid]
    while parent[chain[-1]] is not None:
        chain.append(parent[chain[-1]])
    return chain


def _path(scope: Scope, source: str, target: str, at, predicate) -> list[str] | None:
    if source == target:
        return [source]
    sides = [{"parent": {source: None}, "frontier": [source]},
             {"parent": {target: None}, "frontier": [target]}]  # fmt: skip
    for _ in range(MAX_LENGTH):
        if not sides[0]["frontier"] or not sides[1]["frontier"]:
            return None
        near, far = sorted(range(2), key=lambda i: (len(sides[i]["frontier"]), i))
        side, other = sides[near], sides[far]
        rows = cypher.read(scope, NEIGHBOURS, frontier=side["frontier"], at=at,
                           predicate=predicate)  # fmt: skip
        fresh, meetings = [], []
        for row in rows:
            if row["to"] in side["parent"]:
                continue
            side["parent"][row["to"]] = row["from"]
            fresh.append(row["to"])
            if row["to"] in other["parent"]:
                meetings.append(row["to"])
        if meetings:  # all meet at the same length (whole layers); the first found is oldest
            meet = meetings[0]
            from_near = list(reversed(_chain(side["parent"], meet)))
            to_far = _chain(other["parent"], meet)[1:]
            chain = from_near + to_far
            return chain if near == 0 else list(reversed(chain))
        if len(sides[0]["parent"]) + len(sides[1]["parent"]) > MAX_VISITED:
            raise SearchTooLarge()
        side["frontier"] = fresh
    raise SearchTooLarge()


def graph_connection(scope: Scope, *, source: str, target: str, at: datetime | None = None,
                     predicate: str | None = None) -> dict:  # fmt: skip
    """{found, length, entities: [{uid, name, type}], steps: [{from, to, predicate, direction,
    holds_now, since, until, weight}]}; 404 when an end is not an entity of the tenant (then)."""
    found = {r["uid"] for r in cypher.read(scope, ENDS, uids=[source, target], at=at)}
    for field, uid in (("source", source), ("target", target)):
        if uid not in found:
            raise NotFoundError(f"No entity {uid[:80]!r} in this tenant"
                                + (" at that time." if at else "."), field=field)  # fmt: skip
    chain = _path(scope, source, target, at, predicate)
    answer = {"at": iso_time(at) if at else None, "predicate": predicate}
    if chain is None:
        return {**answer, "found": False, "length": None, "entities": [], "steps": []}
    pairs = [[a, b] for a, b in zip(chain, chain[1:], strict=False)]
    rows = cypher.read(scope, STEPS, pairs=pairs, at=at, predicate=predicate) if pairs else []
    by_pair = {(r["from"], r["to"]): r for r in rows}
    steps = [by_pair[(a, b)] for a, b in pairs]
    entities = [{"uid": s["from"], "name": s["from_name"], "type": s["from_type"]} for s in steps]
    if steps:
        last = steps[-1]
        entities.append({"uid": last["to"], "name": last["to_name"], "type": last["to_type"]})
    return {
        **answer, "found": True, "length": len(steps), "entities": entities,
        "steps": [
            {"from": s["from"], "to": s["to"], "predicate": s["predicate"],
             "direction": "forward" if s["forward"] else "backward",
             "holds_now": s["holds_now"], "since": iso_time(s["since"]), "until": iso_time(s["until"]),
             "weight": s["weight"]}
            for s in steps
        ],
    }  # fmt: skip
