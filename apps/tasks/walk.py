"""Personalized PageRank on the work graph by local push, in Python (seed 000's context walk).

One tenant-scoped query reads the seeds' neighbourhood: the rings of nodes within HOPS edges
of a seed (tasks, evidence that is not superseded, active entities), at most NEIGHBOURHOOD
nodes, the nodes most linked to the ring before first, each with every edge it has to an
eligible node of the tenant. The walk then runs here: a forward push (Andersen, Chung and Lang
2006) on the undirected graph weighted by edge kind, restarting with probability ALPHA at the
seeds. A push moves a node's residual mass into its score (ALPHA of it) and spreads the rest to
its neighbours by weight; it stops when no node holds more than EPSILON times its weighted
degree. Edges that leave the neighbourhood count in a node's degree and the mass they carry is
dropped, as if the walk had wandered off and not come back: near the seeds, where the context
is taken from, this is what the walk over the whole graph does (bench/task_context.py measures
the agreement). No GDS projection is made: the cost is one read of the neighbourhood.

Weights by kind: structure (SUBTASK_OF, DEPENDS_ON, PRODUCED) weighs 1, an entity both mention
(MENTIONS) 1/2, similarity (SIMILAR_TO) SIMILAR_WEIGHT times its cosine, so that similarity
edges, which the sync makes by the thousand, do not drown the structure the agent built.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from scipy import sparse

from apps.graph import cypher
from apps.graph.scope import Scope

ALPHA = 0.15  # restart probability (GDS's dampingFactor 0.85)
EPSILON = 1e-7  # residual per unit of weighted degree left unpushed
MAX_SWEEPS = 400
HOPS = 3  # the rings the query reads (fixed in its text)
NEIGHBOURHOOD = 3000
SIMILAR_WEIGHT = 0.25
EDGE_WEIGHTS = {
    "SUBTASK_OF": 1.0,
    "DEPENDS_ON": 1.0,
    "PRODUCED": 1.0,
    "MENTIONS": 0.5,
    "SIMILAR_TO": SIMILAR_WEIGHT,  # times the edge's score
}

# Each ring: the eligible nodes the ring before reaches that are not taken yet, the most
# linked to it first, while the cap leaves room. Then each node with its eligible edges, in one
# row of lists (a row per node costs the driver more than the walk).
NEIGHBOURHOOD_QUERY = """
CYPHER 25
MATCH (s:Task {tenant: $tenant}) WHERE s.uid IN $seeds
WITH collect(s) AS ring0
WITH ring0, COLLECT {
  UNWIND ring0 AS a
  MATCH (a)-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(b)
  WHERE b.tenant = $tenant AND NOT b IN ring0
    AND (b:Task OR (b:Evidence AND NOT b.superseded) OR (b:Entity AND b.status = 'active'))
  WITH b, count(*) AS links ORDER BY links DESC, b.uid
  RETURN b
}[..($cap - size(ring0))] AS ring1
WITH ring0, ring1, ring0 + ring1 AS seen
WITH ring0, ring1, seen, COLLECT {
  UNWIND ring1 AS a
  MATCH (a)-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(b)
  WHERE b.tenant = $tenant AND NOT b IN seen
    AND (b:Task OR (b:Evidence AND NOT b.superseded) OR (b:Entity AND b.status = 'active'))
  WITH b, count(*) AS links ORDER BY links DESC, b.uid
  RETURN b
}[..($cap - size(seen))] AS ring2
WITH ring0, ring1, ring2, seen + ring2 AS seen
WITH ring0, ring1, ring2, COLLECT {
  UNWIND ring2 AS a
  MATCH (a)-[:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(b)
  WHERE b.tenant = $tenant AND NOT b IN seen
    AND (b:Task OR (b:Evidence AND NOT b.superseded) OR (b:Entity AND b.status = 'active'))
  WITH b, count(*) AS links ORDER BY links DESC, b.uid
  RETURN b
}[..($cap - size(seen))] AS ring3
WITH ring0 + ring1 + ring2 + ring3 AS nodes
RETURN [n IN nodes | elementId(n)] AS ids, [n IN nodes | n.uid] AS uids,
       [n IN nodes | n:Task] AS tasks, [n IN nodes | n:Evidence] AS evidence,
       [n IN nodes | coalesce(n.short_id, n.name)] AS names,
       [n IN nodes | [(n)-[r:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(b)
        WHERE b.tenant = $tenant
          AND (b:Task OR (b:Evidence AND NOT b.superseded) OR (b:Entity AND b.status = 'active'))
        | [elementId(b), type(r), r.score]]] AS edges
"""


def edge_weight(kind: str, score, weights: dict[str, float]) -> float:
    if kind == "SIMILAR_TO":
        return weights[kind] * float(score or 0.0)
    return weights[kind]


def pending_edges(found: dict, pending: list[dict]) -> None:
    """Add to the neighbourhood `found` the similarity edges the sync has still to write
    (`pending`: [{a, b, score}], each end a row {id, uid, name, edges}, from
    apps/tasks/context.py): each joins its ends as a SIMILAR_TO edge would, and an end outside
    the neighbourhood comes in with its edges when the other end is inside. An edge the sync
    wrote meanwhile is not counted twice."""
    inside = {i: k for k, i in enumerate(found["ids"])}
    for pair in pending:
        a, b = pair["a"], pair["b"]
        if a["id"] not in inside and b["id"] not in inside:
            continue
        for end in (a, b):
            if end["id"] not in inside:
                inside[end["id"]] = len(found["ids"])
                for key, value in (("ids", end["id"]), ("uids", end["uid"]), ("tasks", False),
                                   ("evidence", True), ("names", end["name"]),
                                   ("edges", list(end["edges"]))):  # fmt: skip
                    found[key].append(value)
        edges_a = found["edges"][inside[a["id"]]]
        if any(other == b["id"] and kind == "SIMILAR_TO" for other, kind, _ in edges_a):
            continue
        edges_a.append([b["id"], "SIMILAR_TO", pair["score"]])
        found["edges"][inside[b["id"]]].append([a["id"], "SIMILAR_TO", pair["score"]])


class Neighbourhood:
    """The nodes read around the seeds (NEIGHBOURHOOD_QUERY's lists) as a weighted graph:
    `index` by element id, `adjacency` (sparse, inside only), `degree` (all eligible edges,
    those leaving included)."""

    def __init__(self, found: dict, weights: dict[str, float]):
        keys = ("ids", "uids", "tasks", "evidence", "names", "edges")
        self.rows = [{"id": i, "uid": u, "task": t, "evidence": e, "name": n, "edges": edges}
                     for i, u, t, e, n, edges in zip(*(found[k] for k in keys), strict=True)]  # fmt: skip
        rows = self.rows
        self.index = {row["id"]: i for i, row in enumerate(rows)}
        size = len(rows)
        sources, targets, values = [], [], []
        self.degree = np.zeros(size)
        self.links: list[list[tuple[int, str]]] = [[] for _ in range(size)]
        for i, row in enumerate(rows):
            for other, kind, score in row["edges"]:
                weight = edge_weight(kind, score, weights)
                self.degree[i] += weight
                j = self.index.get(other)
                if j is not None and weight > 0:
                    sources.append(i)
                    targets.append(j)
                    values.append(weight)
                    self.links[i].append((j, kind))
        self.adjacency = sparse.csr_matrix((values, (sources, targets)), shape=(size, size))

    def push(self, restart: np.ndarray, *, alpha: float = ALPHA, epsilon: float = EPSILON):
        """PPR scores by forward push, every node above its threshold pushed at once per sweep.
        Each node's unpushed residual ends below epsilon x its degree (the push's error bound)."""
        degree = self.degree
        safe = np.where(degree > 0, degree, 1.0)
        # Row-normalised transition, transposed so that one product spreads every push.
        spread = (sparse.diags(1.0 / safe) @ self.adjacency).T.tocsr()
        threshold = epsilon * np.where(degree > 0, degree, 1.0)
        score, residual = np.zeros(len(restart)), restart.astype(float)
        for _ in range(MAX_SWEEPS):
            active = residual > threshold
            if not active.any():
                break
            pushed = np.where(active, residual, 0.0)
            score += alpha * pushed
            residual -= pushed
            residual += (1 - alpha) * (spread @ pushed)
        return score

    def paths(self, seeds: list[int]) -> dict[int, list]:
        """The shortest way from a seed to each node (breadth first, seeds in their order):
        {index: [name, edge, name, ..., name]}."""
        before: dict[int, tuple[int, str] | None] = {s: None for s in seeds}
        queue = deque(seeds)
        while queue:
            node = queue.popleft()
            for other, kind in self.links[node]:
                if other not in before:
                    before[other] = (node, kind)
                    queue.append(other)
        found = {}
        for node in before:
            steps, at = [self.rows[node]["name"]], node
            while before[at] is not None:
                at, kind = before[at]
                steps[:0] = [self.rows[at]["name"], kind]
            found[node] = steps
        return found


def neighbourhood_read(
    scope: Scope,
    seeds: list[str],
    *,
    cap: int = NEIGHBOURHOOD,
    weights: dict | None = None,
    pending: list[dict] | None = None,
) -> Neighbourhood:
    """The seeds' neighbourhood (HOPS rings, at most `cap` nodes), in one query, with the
    `pending` similarity edges (pending_edges)."""
    found = cypher.read(scope, NEIGHBOURHOOD_QUERY, seeds=seeds, cap=cap)[0]
    if pending:
        pending_edges(found, pending)
    return Neighbourhood(found, weights or EDGE_WEIGHTS)


def local_walk(
    scope: Scope,
    seeds: list[str],
    *,
    seed_weights: list[float] | None = None,
    weights: dict[str, float] | None = None,
    cap: int = NEIGHBOURHOOD,
    pending: list[dict] | None = None,
) -> tuple[list[dict], dict[str, list]]:
    """Tasks and evidence by PageRank personalized to the `seeds` tasks (`seed_weights`, by
    default halving), by local push on their neighbourhood: ([{uid, id (element id), score}]
    highest first,
    {uid: path from a seed as [name, edge, ..., name]})."""
    around = neighbourhood_read(scope, seeds, cap=cap, weights=weights, pending=pending)
    if not around.rows:
        return [], {}
    seed_weights = seed_weights or [0.5**i for i in range(len(seeds))]
    by_uid = {row["uid"]: i for i, row in enumerate(around.rows) if row["task"]}
    restart = np.zeros(len(around.rows))
    starts = []
    for uid, weight in zip(seeds, seed_weights, strict=True):
        if uid in by_uid:
            restart[by_uid[uid]] += weight
            starts.append(by_uid[uid])
    restart /= restart.sum()
    score = around.push(restart)
    ranked = [{"uid": row["uid"], "id": row["id"], "score": float(score[i])}
              for i, row in enumerate(around.rows)
              if (row["task"] or row["evidence"]) and score[i] > 0]  # fmt: skip
    ranked.sort(key=lambda r: (-r["score"], r["uid"]))
    paths = {around.rows[i]["uid"]: steps for i, steps in around.paths(starts).items()}
    return ranked, paths
