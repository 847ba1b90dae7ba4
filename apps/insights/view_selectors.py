"""The graph views' data: a bounded neighbourhood of a few entities as nodes and edges for
Cytoscape.js, and its numbers for the table beside the picture.

One round trip whatever the sizes: each seed's relations are read through its own edges (the
heaviest first, at most `per_node`), never by scanning the tenant, so the cost follows the
seeds' degree, not the graph's size. Pending review pairs (SAME_AS, status pending) come as
dashed "possible twin" edges. A node carries its community when the tenant's communities are
already computed and kept (kept_answers.py); the view never starts that heavy run itself.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.insights.kept_answers import kept_only

MAX_SEEDS = 20
MAX_PER_NODE = 60
MAX_NODES = 300

NEIGHBOURHOOD = """
UNWIND $uids AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid}) USING INDEX SEEK e:Entity(uid)
WHERE e.status = 'active'
RETURN e {.uid, .name, .type} AS seed,
  COUNT { (e)-[:RELATED_TO]-(:Entity {status: 'active'}) } AS degree,
  COLLECT { MATCH (e)-[r:RELATED_TO]-(o:Entity {tenant: $tenant})
            WHERE o.status = 'active'
            RETURN {label: r.predicate, source: startNode(r).uid, target: endNode(r).uid,
                    weight: coalesce(r.weight, 1),
                    holds: r.valid_to IS NULL OR r.valid_to > datetime(),
                    other: o {.uid, .name, .type}}
            ORDER BY coalesce(r.weight, 1) DESC, o.created_at, o.uid LIMIT $per_node } AS related,
  COLLECT { MATCH (e)-[s:SAME_AS {status: 'pending'}]-(o:Entity {tenant: $tenant})
            RETURN {uid: s.uid, source: startNode(s).uid, target: endNode(s).uid,
                    score: s.score, other: o {.uid, .name, .type}}
            ORDER BY s.score DESC, s.uid LIMIT $per_node } AS twins
"""


def _node(row: dict, communities: dict | None) -> dict:
    community = communities["of"].get(row["uid"]) if communities else None
    return {"id": row["uid"], "name": row.get("name") or "", "type": row.get("type") or "",
            "community": community}  # fmt: skip


def graph_neighbourhood(scope: Scope, *, uids: list[str], per_node: int = 40,
                        max_nodes: int = MAX_NODES) -> dict:  # fmt: skip
    """{nodes: [{id, name, type, community, seed, degree}], edges: [{id, source, target, label,
    kind: related|twin, weight, holds, score, source_name, target_name}], truncated, communities: bool}: the active seeds
    of this tenant (at most MAX_SEEDS), each with its `per_node` heaviest relations and its
    pending twins, at most `max_nodes` nodes in all (seeds first). Unknown uids are left out."""
    uids = list(dict.fromkeys(uids))[:MAX_SEEDS]
    per_node = max(1, min(per_node, MAX_PER_NODE))
    rows = cypher.read(scope, NEIGHBOURHOOD, uids=uids, per_node=per_node) if uids else []
    communities = kept_only(scope, {"q": "communities"})
    nodes: dict[str, dict] = {}
    for row in rows:
        nodes[row["seed"]["uid"]] = {**_node(row["seed"], communities), "seed": True,
                                     "degree": row["degree"]}  # fmt: skip
    edges: dict[str, dict] = {}
    truncated = False
    for row in rows:
        found = [("related", r) for r in row["related"]] + [("twin", t) for t in row["twins"]]
        truncated = truncated or row["degree"] > len(row["related"])
        for kind, item in found:
            other = item["other"]["uid"]
            if other not in nodes:
                if len(nodes) >= max_nodes:
                    truncated = True
                    continue
                nodes[other] = {**_node(item["other"], communities), "seed": False,
                                "degree": None}  # fmt: skip
            label = item["label"] if kind == "related" else "possible twin"
            key = f"{item['source']}>{label}>{item['target']}"
            edges.setdefault(key, {
                "id": key, "source": item["source"], "target": item["target"],
                "label": label, "kind": kind, "weight": item.get("weight"),
                "holds": item.get("holds", True), "score": item.get("score"),
            })  # fmt: skip
    for edge in edges.values():
        edge["source_name"] = nodes[edge["source"]]["name"]
        edge["target_name"] = nodes[edge["target"]]["name"]
    return {"nodes": list(nodes.values()), "edges": list(edges.values()),
            "truncated": truncated, "communities": communities is not None}  # fmt: skip
