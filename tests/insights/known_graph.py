"""A known entity graph with windows and creation times, written straight into one tenant (the
windows are the timeline's, agreed: `valid_from <= t < valid_to`, a missing end open), and the
same graph as networkx sees it at a time, to check every algorithm against."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import networkx as nx

from apps.graph import cypher

T0 = datetime(2025, 1, 1, tzinfo=UTC)
T1 = datetime(2025, 6, 1, tzinfo=UTC)
CLOSED = datetime(2025, 8, 1, tzinfo=UTC)  # the bridge A4 -> B1 ends here
T2 = datetime(2025, 10, 1, tzinfo=UTC)
LATE = datetime(2025, 9, 1, tzinfo=UTC)  # E1 is created, C1 -> C2 begins

# (subject, object, predicate, weight, valid_from, valid_to)
EDGES = [
    ("A1", "A2", "near", 2.0, None, None), ("A1", "A3", "near", 1.0, None, None),
    ("A2", "A3", "near", 1.0, None, None), ("A2", "A4", "near", 2.0, None, None),
    ("A3", "A4", "near", 1.0, None, None), ("A4", "A1", "works_for", 1.0, None, None),
    ("A4", "B1", "works_for", 1.0, None, CLOSED),
    ("B1", "B2", "near", 1.0, None, None), ("B1", "B3", "near", 1.0, None, None),
    ("B2", "B3", "near", 1.0, None, None), ("B2", "B4", "near", 1.0, None, None),
    ("B3", "B4", "works_for", 1.0, None, None), ("B4", "B1", "near", 1.0, None, None),
    ("C1", "C2", "near", 1.0, LATE, None), ("B4", "E1", "near", 1.0, None, None),
]  # fmt: skip
CREATED = {name: T0 for name in ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "C1", "C2", "D1"]}
CREATED["E1"] = LATE
NAMES = sorted(CREATED)

GRAPH = """
UNWIND $entities AS e
CREATE (:Entity {uid: $prefix + e.name, tenant: $tenant, name: e.name, type: 'Object',
                 status: 'active', aliases: [], created_at: e.created_at})
WITH count(*) AS made
UNWIND $edges AS edge
MATCH (a:Entity {tenant: $tenant, uid: $prefix + edge.s}),
      (b:Entity {tenant: $tenant, uid: $prefix + edge.o})
CREATE (a)-[r:RELATED_TO {uid: randomUUID(), tenant: $tenant, weight: edge.w,
                          predicate: edge.p, first_seen: $first_seen}]->(b)
SET r.valid_from = edge.valid_from, r.valid_to = edge.valid_to
RETURN count(*) AS n
"""


def known_graph_write(scope) -> str:
    """Write the graph into the scope's tenant; returns the uid prefix of its entities."""
    prefix = uuid.uuid4().hex[:8] + "-"
    cypher.write(
        scope, GRAPH, prefix=prefix, first_seen=T0,
        entities=[{"name": n, "created_at": c} for n, c in CREATED.items()],
        edges=[{"s": s, "o": o, "p": p, "w": w, "valid_from": f, "valid_to": t}
               for s, o, p, w, f, t in EDGES],
    )  # fmt: skip
    return prefix


def holds(valid_from, valid_to, at) -> bool:
    return (valid_from is None or valid_from <= at) and (valid_to is None or valid_to > at)


def known_nx(at: datetime | None = None, predicate: str | None = None) -> nx.MultiDiGraph:
    """The graph the algorithms should see: without `at` every relation ever true."""
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(n for n, c in CREATED.items() if at is None or c <= at)
    for s, o, p, w, f, t in EDGES:
        if predicate is not None and p != predicate:
            continue
        if at is not None and not (s in graph and o in graph and holds(f, t, at)):
            continue
        graph.add_edge(s, o, weight=w, predicate=p)
    return graph


def gds_pagerank(graph: nx.MultiDiGraph, damping: float = 0.85) -> dict[str, float]:
    """PageRank by GDS's rule (a node's score is 1 - d plus d times what points at it shares
    out; a node that points nowhere passes nothing on), scaled to add up to 1."""
    score = dict.fromkeys(graph, 1.0)
    for _ in range(1000):
        score = {
            v: (1 - damping)
            + damping * sum(score[u] / graph.out_degree(u) for u, _ in graph.in_edges(v))
            for v in graph
        }
    total = sum(score.values())
    return {v: s / total for v, s in score.items()}
