"""What if: rows laid over a time, never stored. Which groups would join or split, and how the
importance of entities would change.

The tenant's graph at `at` is what the graph algorithms see then (entities created by then, the
relations that held then; apps/graph/algorithms.py's rule). Each row is the full picture of its
entity at `at`, as the write rule says: the kind's relations of that entity are replaced by the
targets the row names (a target or entity not in the graph then is added, hypothetically);
relations from text stay. Both graphs are grouped (weakly connected) and ranked (PageRank, all
scores adding up to 1) by GDS from an edge list (apps/graph/edge_projection.py): the tenant's
relations are read in a read transaction and nothing is written, not even partly.
"""

from __future__ import annotations

import datetime as dt

from apps.graph import cypher, edge_projection
from apps.graph.algorithms import GraphTooLarge
from apps.graph.scope import Scope
from apps.insights.heavy_runs import heavy_run
from apps.timeline.kinds import kinds_get
from apps.timeline.rows import time_text, validate_row
from memoryproject.api_errors import ApplicationError

MAX_ROWS = 50
MAX_NEW_EDGES = 2000
MAX_NODES = 20_000  # the graph at `at` is read whole into memory
MAX_RELATIONS = 100_000
MAX_MEMBERS = 20
MAX_CHANGES = 50
DIGITS = 6

SIZE_AT = """
MATCH (s:Entity {tenant: $tenant, status: 'active'}) WHERE s.created_at <= $at
RETURN count(s) AS nodes,
       sum(COUNT { (s)-[:RELATED_TO]->(:Entity {tenant: $tenant, status: 'active'}) }) AS relations
"""
# The window rule agreed with apps/graph/algorithms.py (a missing end is open).
GRAPH_AT = """
MATCH (s:Entity {tenant: $tenant, status: 'active'}) WHERE s.created_at <= $at
OPTIONAL MATCH (s)-[r:RELATED_TO]->(t:Entity {tenant: $tenant, status: 'active'})
WHERE t.created_at <= $at AND (r.valid_from IS NULL OR r.valid_from <= $at)
  AND (r.valid_to IS NULL OR r.valid_to > $at)
RETURN s.uid AS uid, s.kind AS kind, coalesce(s.key, s.name) AS key, s.name AS name,
       collect([t.uid, r.predicate, coalesce(r.kind_relation, false)]) AS out
"""


class _Graph:
    """Nodes numbered in the order met; edges as (source, target, predicate, from a kind)."""

    def __init__(self) -> None:
        self.nodes: list[dict] = []
        self.index: dict[tuple, int] = {}

    def node(self, ident: tuple, entity: dict) -> int:
        if ident not in self.index:
            self.index[ident] = len(self.nodes)
            self.nodes.append(entity)
        return self.index[ident]


def _graph_at(scope: Scope, at: dt.datetime) -> tuple[_Graph, list[tuple]]:
    size = cypher.read(scope, SIZE_AT, at=at)[0]
    if size["nodes"] > MAX_NODES or size["relations"] > MAX_RELATIONS:
        raise ApplicationError(
            f"what_if reads the graph at that time whole: {size['nodes']} entities and "
            f"{size['relations']} relations; the bounds are {MAX_NODES} and {MAX_RELATIONS}.",
            code="graph_too_large", field="at", limit=MAX_NODES,
        )  # fmt: skip
    graph, edges = _Graph(), []
    rows = cypher.read(scope, GRAPH_AT, at=at)
    for row in rows:
        entity = {"uid": row["uid"], "kind": row["kind"], "key": row["key"], "name": row["name"]}
        graph.node(("uid", row["uid"]), entity)
        if row["kind"]:
            graph.index[("kind", row["kind"], row["key"])] = graph.index[("uid", row["uid"])]
    for row in rows:
        source = graph.index[("uid", row["uid"])]
        for target, predicate, by_kind in row["out"]:
            if target is not None:
                edges.append((source, graph.index[("uid", target)], predicate, by_kind))
    return graph, edges


def _entity(graph: _Graph, kind: str, key: str) -> int:
    return graph.node(("kind", kind, key), {"uid": None, "kind": kind, "key": key, "name": key})


def _lay(graph: _Graph, edges: list[tuple], rows: list) -> list[tuple]:
    """The edges once the rows are laid over them (a later row of one entity wins)."""
    laid: dict[int, object] = {}
    for row in rows:
        laid[_entity(graph, row.kind.name, row.key)] = row
    replaced = {(n, p) for n, row in laid.items() for p in row.kind.relations}
    kept = [e for e in edges if not (e[3] and (e[0], e[2]) in replaced)]
    added = [
        (n, _entity(graph, row.kind.relations[rel].target, target), rel, True)
        for n, row in laid.items()
        for rel, targets in row.relations.items()
        for target in targets
    ]  # fmt: skip
    if len(added) > MAX_NEW_EDGES:
        raise ApplicationError(f"The rows name more than {MAX_NEW_EDGES} targets in all.",
                               field="rows", limit=MAX_NEW_EDGES)  # fmt: skip
    return kept + added


def _members(graph: _Graph, nodes: list[int]) -> dict:
    shown = sorted(nodes, key=lambda n: (graph.nodes[n]["kind"] or "", graph.nodes[n]["key"]))
    return {"size": len(nodes), "members": [graph.nodes[n] for n in shown[:MAX_MEMBERS]]}


def _changes(graph: _Graph, before: dict[int, int], after: dict[int, int]) -> list[dict]:
    """Groups of `after` that gather nodes of several groups of `before` (nodes new in `after`
    left out), as {size, members, parts: [{size, members}]}."""
    by_after: dict[int, dict[int, list[int]]] = {}
    for node, group in before.items():
        if node in after:
            by_after.setdefault(after[node], {}).setdefault(group, []).append(node)
    found = []
    for group, parts in by_after.items():
        if len(parts) > 1:
            whole = [n for n, g in after.items() if g == group and n in before]
            found.append({**_members(graph, whole),
                          "parts": sorted((_members(graph, p) for p in parts.values()),
                                          key=lambda m: -m["size"])[:MAX_MEMBERS]})  # fmt: skip
    return sorted(found, key=lambda m: -m["size"])[:MAX_CHANGES]


def what_if(scope: Scope, *, at: dt.datetime, rows: list) -> dict:
    """Lay `rows` (the write rule's rows without `t`) over the graph at `at`: {at, entities
    {before, after}, joins, splits, importance}; joins are groups made of several groups of
    before, splits groups of before that fall apart; importance the entities whose PageRank
    changes most, with before and after."""
    if not isinstance(rows, list) or not rows or len(rows) > MAX_ROWS:
        raise ApplicationError(f"rows is a list of 1 to {MAX_ROWS} rows.", field="rows",
                               limit=MAX_ROWS)  # fmt: skip
    names = {r.get("kind") for r in rows if isinstance(r, dict) and isinstance(r.get("kind"), str)}
    kinds = kinds_get(scope, names=names)
    stamp = time_text(at)
    for i, raw in enumerate(rows):
        if isinstance(raw, dict) and "t" in raw:
            raise ApplicationError("A what_if row takes no t: it is laid at `at`.",
                                   field=f"rows[{i}].t")  # fmt: skip
    checked = [
        validate_row({**raw, "t": stamp} if isinstance(raw, dict) else raw, index=i, kinds=kinds)
        for i, raw in enumerate(rows)
    ]  # fmt: skip
    try:
        with heavy_run(scope):
            graph, edges = _graph_at(scope, at)
            existing = len(graph.nodes)
            laid = _lay(graph, edges, checked)
            groups_before, ranks_before = edge_projection.groups_and_ranks(
                scope, existing, [e[:2] for e in edges]
            )
            groups_after, ranks_after = edge_projection.groups_and_ranks(
                scope, len(graph.nodes), [e[:2] for e in laid]
            )
    except GraphTooLarge as exc:
        raise ApplicationError(str(exc), code="graph_too_large", field=exc.setting,
                               limit=exc.limit) from exc  # fmt: skip
    importance = [
        {**graph.nodes[n], "before": round(ranks_before.get(n, 0.0), DIGITS),
         "after": round(ranks_after.get(n, 0.0), DIGITS)}
        for n in range(len(graph.nodes))
    ]  # fmt: skip
    for item in importance:
        item["change"] = round(item["after"] - item["before"], DIGITS)
    importance.sort(key=lambda i: (-abs(i["change"]), i["kind"] or "", i["key"]))
    return {
        "at": stamp,
        "entities": {"before": existing, "after": len(graph.nodes)},
        "joins": _changes(graph, groups_before, groups_after),
        "splits": _changes(graph, groups_after, groups_before),
        "importance": [i for i in importance if i["change"]][:MAX_CHANGES],
    }
