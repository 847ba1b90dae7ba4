"""Relations of kinds as edges with windows: a target a row names opens an edge at the row's time,
a target it no longer names closes the open edge there. An edge is never deleted.

A late row can split or move windows that later rows made; then the windows of that entity are
made again from its States (each State keeps the targets it named): an edge takes its new window,
a missing one is created, and one that no longer matches any window is emptied
(`valid_to = valid_from`, so it holds at no time) rather than deleted.
"""

from __future__ import annotations

import json

from apps.graph.cypher import ScopedTx
from apps.resolution.signals import name_normalize

RELATIONS_OPEN = """
UNWIND $opens AS o
MATCH (e:Entity {tenant: $tenant, uid: o.entity})
USING INDEX SEEK e:Entity(uid)
MERGE (x:Entity {tenant: $tenant, kind: o.target_kind, key: o.target})
ON CREATE SET x.uid = randomUUID(), x.name = o.target, x.norm_name = o.target_norm,
              x.type = o.target_type, x.status = 'active', x.aliases = [], x.norm_aliases = [],
              x.description = '', x.created_at = o.valid_from, x.recorded_at = datetime(),
              x.updated_at = datetime(), x.created_by = $by
SET x.created_at = CASE WHEN o.valid_from < x.created_at THEN o.valid_from ELSE x.created_at END
CREATE (e)-[:RELATED_TO {uid: randomUUID(), tenant: $tenant, predicate: o.rel,
                         valid_from: o.valid_from, valid_to: o.valid_to, by: $by,
                         recorded_at: datetime(), kind_relation: true, weight: 1,
                         confidence: 1.0, first_seen: datetime(), last_seen: datetime(),
                         observations: [], chunks: []}]->(x)
"""

RELATIONS_CLOSE = """
UNWIND $closes AS c
MATCH (e:Entity {tenant: $tenant, uid: c.entity})-[r:RELATED_TO {predicate: c.rel}]->
      (x:Entity {tenant: $tenant, kind: c.target_kind, key: c.target})
WHERE r.kind_relation AND r.valid_to IS NULL
SET r.valid_to = c.t
"""

# The States are read in a subquery per entity with the index named: joined in the outer query,
# the planner scanned every State of the tenant.
WINDOWS_READ = """
UNWIND $entities AS uid
CALL (uid) {
  MATCH (s:State {tenant: $tenant, entity: uid})
  USING INDEX SEEK s:State(tenant, entity, valid_from)
  WHERE s.valid_from IS NOT NULL
  RETURN s ORDER BY s.tenant, s.entity, s.valid_from
}
WITH uid, collect(s {.valid_from, .valid_to, .relations_json}) AS states
MATCH (e:Entity {tenant: $tenant, uid: uid})
USING INDEX SEEK e:Entity(uid)
CALL (e) {
  OPTIONAL MATCH (e)-[r:RELATED_TO]->(x:Entity)
  WHERE r.kind_relation
  RETURN collect(CASE WHEN r IS NULL THEN null ELSE {uid: r.uid, rel: r.predicate,
                 target: x.key, valid_from: r.valid_from, valid_to: r.valid_to} END) AS edges
}
RETURN uid, states, edges
"""

WINDOWS_SET = """
UNWIND $changes AS c
MATCH (:Entity {tenant: $tenant, uid: c.entity})-[r:RELATED_TO]->()
WHERE r.uid = c.uid
SET r.valid_from = c.valid_from, r.valid_to = c.valid_to, r.recorded_at = datetime()
"""


def relation_changes(entity: str, before: dict, after: dict, t, kind) -> tuple[list, list]:
    """(closes, opens) that take the entity's edges from the targets `before` to `after` at t."""
    closes, opens = [], []
    for rel, spec in kind.relations.items():
        old, new = set(before.get(rel, [])), set(after.get(rel, []))
        for target in sorted(old - new):
            closes.append({"entity": entity, "rel": rel, "target_kind": spec.target,
                           "target": target, "t": t})  # fmt: skip
        for target in sorted(new - old):
            opens.append({"entity": entity, "rel": rel, "target_kind": spec.target,
                          "target": target, "valid_from": t, "valid_to": None})  # fmt: skip
    return closes, opens


def windows_wanted(states: list[dict]) -> dict[tuple[str, str], list[tuple]]:
    """(relation, target) -> its windows [(from, to)], from States in time order."""
    wanted: dict[tuple[str, str], list[tuple]] = {}
    open_since: dict[tuple[str, str], object] = {}
    for state in states:
        named = {
            (rel, target)
            for rel, targets in json.loads(state["relations_json"] or "{}").items()
            for target in targets
        }
        for pair in list(open_since):
            if pair not in named:
                wanted.setdefault(pair, []).append((open_since.pop(pair), state["valid_from"]))
        for pair in named:
            open_since.setdefault(pair, state["valid_from"])
    for pair, since in open_since.items():
        wanted.setdefault(pair, []).append((since, None))
    return wanted


def do_windows_rebuild(
    stx: ScopedTx, *, entities: list[str], kinds_of: dict, kinds: dict, by: str
) -> None:
    """Make the edges of `entities` match the windows their States say (after late rows)."""
    if not entities:
        return
    changes, opens = [], []
    for row in stx.run(WINDOWS_READ, entities=entities):
        kind = kinds_of[row["uid"]]
        have: dict[tuple[str, str], list[dict]] = {}
        for edge in row["edges"]:
            if edge and edge["valid_from"] != edge["valid_to"]:
                have.setdefault((edge["rel"], edge["target"]), []).append(edge)
        wanted = windows_wanted(row["states"])
        for pair in set(have) | set(wanted):
            edges = sorted(have.get(pair, []), key=lambda e: e["valid_from"])
            windows = wanted.get(pair, [])
            for edge, (start, end) in zip(edges, windows, strict=False):
                if (edge["valid_from"], edge["valid_to"]) != (start, end):
                    changes.append({"uid": edge["uid"], "entity": row["uid"],
                                    "valid_from": start, "valid_to": end})  # fmt: skip
            for edge in edges[len(windows) :]:
                changes.append({"uid": edge["uid"], "entity": row["uid"],
                                "valid_from": edge["valid_from"],
                                "valid_to": edge["valid_from"]})  # fmt: skip
            spec = kind.relations.get(pair[0])
            for start, end in windows[len(edges) :]:
                if spec is not None:
                    opens.append({"entity": row["uid"], "rel": pair[0], "target": pair[1],
                                  "target_kind": spec.target, "valid_from": start,
                                  "valid_to": end})  # fmt: skip
    if changes:
        stx.run(WINDOWS_SET, changes=changes)
    if opens:
        do_relations_open(stx, opens=opens, kinds=kinds, by=by)


def do_relations_open(stx: ScopedTx, *, opens: list[dict], kinds: dict, by: str) -> None:
    """Open edges; a target that is no entity yet is created, of the target kind, existing from
    the edge's start (`kinds`: name -> KindSpec, the targets' kinds among them)."""
    if not opens:
        return
    types = {name: spec.type for name, spec in kinds.items()}
    for o in opens:
        o["target_type"] = types.get(o["target_kind"], "Object")
        o["target_norm"] = name_normalize(o["target"])
    stx.run(RELATIONS_OPEN, opens=opens, by=by)


def do_relations_close(stx: ScopedTx, *, closes: list[dict]) -> None:
    if closes:
        stx.run(RELATIONS_CLOSE, closes=closes)
