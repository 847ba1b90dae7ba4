"""Context for a task by Personalized PageRank over the tenant's work graph (seed 000).

The walk (apps/tasks/walk.py) runs on the seeds' neighbourhood in the tenant's work graph:
tasks, evidence that is not superseded, and the active entities that evidence MENTIONS, joined
by SUBTASK_OF, DEPENDS_ON, PRODUCED, MENTIONS and SIMILAR_TO, weighted by kind, all undirected,
so one random walk follows structure and meaning together. It restarts at the task and its
ancestors and the tasks it depends on (the seeds), the task weighing 1, each dependency 1/2 and
each ancestor half the one below it: the task asks, its dependencies' findings are its inputs,
its ancestors frame the question. The neighbourhood is read in one query and the walk is a
local push in Python, so a call's cost follows the neighbourhood, not the tenant's whole graph.
The ranked tasks and evidence are then taken in order while they fit the token budget (about
four characters a token), each with why: a seed, or the shortest path from a seed that
reached it (inside the neighbourhood read).
"""

from __future__ import annotations

import math

import numpy as np

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tasks.services.task_writes import check_task_ref
from apps.tasks.walk import local_walk
from memoryproject.api_errors import ApplicationError, NotFoundError

MAX_TOKEN_BUDGET = 100_000
MAX_ITEMS = 100
MAX_SEEDS = 20  # the task and up to this many ancestors, and as many dependencies
CHARS_PER_TOKEN = 4
DETAIL_BATCH = 2  # texts read per call: twice the item limit, again only when those did not fill it

# The task by uid or short id, with its dependencies and ancestors, and the similarity edges
# the sync has still to write for the freshest evidence (apps/tasks/similarity.py marks it
# `similar_pending` until a sync has seen it): its nearest evidence of other tasks by the
# vector index, above the tenant's threshold (Neo4j scores cosine as (1 + cos) / 2). One read.
SEEDS = """
CYPHER 25
OPTIONAL MATCH (a:Task {tenant: $tenant, uid: $id}) USING INDEX SEEK a:Task(uid)
OPTIONAL MATCH (b:Task {tenant: $tenant, short_id: $id})
WITH coalesce(a, b) AS t WHERE t IS NOT NULL
OPTIONAL MATCH path = (t)-[:SUBTASK_OF*1..20]->(p:Task {tenant: $tenant})
WITH t, p, length(path) AS depth ORDER BY depth
WITH t, [x IN collect(p.uid) WHERE x IS NOT NULL] AS ancestors
CALL () {
  MATCH (f:Evidence {tenant: $tenant, similar_pending: true})
  WHERE NOT f.superseded AND f.embedding IS NOT NULL
  WITH f ORDER BY f.created_at DESC LIMIT $pending_max
  WITH f, f.embedding AS v
  CALL (f, v) {
    MATCH (q:Evidence)
      SEARCH q IN (VECTOR INDEX evidence_embedding FOR v WHERE q.tenant = $tenant
                   LIMIT $pending_neighbours)
      SCORE AS score
    WITH q, 2 * score - 1 AS cosine
    WHERE q <> f AND q.task_uid <> f.task_uid AND NOT q.superseded AND cosine >= $threshold
    RETURN q, cosine
  }
  RETURN collect({score: round(cosine, 4),
    a: {id: elementId(f), uid: f.uid, name: f.short_id,
        edges: [(f)-[r:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(n)
                WHERE n.tenant = $tenant AND (n:Task OR (n:Evidence AND NOT n.superseded)
                  OR (n:Entity AND n.status = 'active')) | [elementId(n), type(r), r.score]]},
    b: {id: elementId(q), uid: q.uid, name: q.short_id,
        edges: [(q)-[r:SUBTASK_OF|DEPENDS_ON|PRODUCED|SIMILAR_TO|MENTIONS]-(n)
                WHERE n.tenant = $tenant AND (n:Task OR (n:Evidence AND NOT n.superseded)
                  OR (n:Entity AND n.status = 'active')) | [elementId(n), type(r), r.score]]}
  }) AS pending
}
RETURN t.uid AS task, ancestors, pending, t.antifocus_embedding AS antifocus,
       [(t)-[:DEPENDS_ON]->(d:Task) WHERE d.tenant = $tenant | d.uid] AS dependencies
"""
PENDING_MAX = 50  # the freshest evidence whose similarity a context call works out itself
PENDING_NEIGHBOURS = 5
# By the element ids the walk read (a seek each, no index lookup), in rank order.
DETAILS = """
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id AND n.tenant = $tenant AND (n:Task OR n:Evidence)
RETURN n.uid AS uid, n:Task AS is_task, n.short_id AS id, n.description AS description,
       n.result_summary AS result_summary, n.status AS status, n.content AS content,
       n.strength AS strength, n.source AS source,
       coalesce(n.corroborated_strength, n.strength) AS corroborated_strength,
       CASE WHEN $embeddings THEN n.embedding END AS embedding
"""


def tokens_of(text: str) -> int:
    return max(1, math.ceil(len(text) / CHARS_PER_TOKEN))


def task_context(scope: Scope, *, task: str, token_budget: int = 4000, limit: int = 30) -> dict:
    """The evidence and tasks around `task` that fit `token_budget`, best first:
    {task, seeds, items: [{kind, id, uid, text, score, tokens, strength, why}], tokens}."""
    if isinstance(token_budget, bool) or not isinstance(token_budget, int):
        raise ApplicationError("token_budget is a whole number.", field="token_budget")
    if not 0 < token_budget <= MAX_TOKEN_BUDGET:
        raise ApplicationError(f"token_budget is 1 to {MAX_TOKEN_BUDGET}.", field="token_budget",
                               limit=MAX_TOKEN_BUDGET)  # fmt: skip
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 < limit <= MAX_ITEMS:
        raise ApplicationError(f"limit is 1 to {MAX_ITEMS}.", field="limit", limit=MAX_ITEMS)
    kinds, pending, antifocus = seeds_read(scope, task)
    seeds = list(kinds)
    uid = seeds[0]
    # Left out: what is as close to the task's antifocus as a SIMILAR_TO edge would need.
    away = float(scope.setting("similar_to_threshold"))
    excluded = []
    ranked, paths = local_walk(scope, seeds, seed_weights=seed_weights(kinds), pending=pending)
    ranked = [r for r in ranked if r["uid"] != uid]
    scores = {r["uid"]: r["score"] for r in ranked}
    items, used = [], 0
    for row in _details(scope, ranked, limit, embeddings=antifocus is not None):
        if antifocus is not None and row["embedding"] is not None:
            if float(np.dot(antifocus, row["embedding"])) >= away:
                excluded.append(row["id"])
                continue
        text = _text(row)
        tokens = tokens_of(text)
        if used + tokens > token_budget:
            continue  # a smaller one further down may still fit
        used += tokens
        items.append({
            "kind": "task" if row["is_task"] else "evidence", "id": row["id"], "uid": row["uid"],
            "text": text, "score": round(scores[row["uid"]], 6), "tokens": tokens,
            "strength": row["strength"], "corroborated_strength": row["corroborated_strength"],
            "status": row["status"], "source": row["source"],
        })  # fmt: skip
        if len(items) == limit:
            break
    for item in items:
        item["why"] = _why(item["uid"], paths.get(item["uid"]), kinds)
    return {"task": uid, "seeds": seeds, "items": items, "tokens": used,
            "token_budget": token_budget, "antifocus_excluded": excluded}  # fmt: skip


def _details(scope: Scope, ranked: list[dict], limit: int, *, embeddings: bool = False):
    """The ranked nodes' texts in rank order, read DETAIL_BATCH x limit at a time: the budget
    and the limit usually stop the packing within the first read."""
    step = DETAIL_BATCH * limit
    for start in range(0, len(ranked), step):
        part = ranked[start : start + step]
        found = cypher.read(scope, DETAILS, ids=[r["id"] for r in part], embeddings=embeddings)
        rows = {r["uid"]: r for r in found}
        yield from (rows[r["uid"]] for r in part if r["uid"] in rows)


def _text(row: dict) -> str:
    if not row["is_task"]:
        return row["content"]
    if row["result_summary"]:
        return f"{row['description']}\nResult: {row['result_summary']}"
    return row["description"]


def seed_kinds(scope: Scope, task: str) -> dict[str, str]:
    """The walk's seeds in order: {uid: 'task' | 'dependency' | 'ancestor'}: the task (by uid
    or short id; 404 when the tenant has none), the tasks it depends on (their findings are
    its inputs), its ancestors nearest first."""
    return seeds_read(scope, task)[0]


def seeds_read(scope: Scope, task: str) -> tuple[dict[str, str], list[dict], list | None]:
    """(seed_kinds, the similarity edges still to be synced: [{a, b, score}], walk.py's
    pending_edges, the task's antifocus embedding or None), in one read."""
    check_task_ref(task)
    threshold = float(scope.setting("similar_to_threshold"))
    rows = cypher.read(scope, SEEDS, id=task, threshold=threshold, pending_max=PENDING_MAX,
                       pending_neighbours=PENDING_NEIGHBOURS)  # fmt: skip
    if not rows:
        raise NotFoundError(f"No task {task}.", field="task")
    found = rows[0]
    return _kinds(found), found["pending"], found["antifocus"]


def _kinds(found: dict) -> dict[str, str]:
    kinds = {found["task"]: "task"}
    for dependency in sorted(found["dependencies"])[:MAX_SEEDS]:
        kinds.setdefault(dependency, "dependency")
    for ancestor in found["ancestors"][:MAX_SEEDS]:
        kinds.setdefault(ancestor, "ancestor")
    return kinds


def seed_weights(kinds: dict[str, str]) -> list[float]:
    """The task weighs 1, each dependency 1/2, each ancestor half the one below it."""
    weights, depth = [], 0
    for kind in kinds.values():
        if kind == "ancestor":
            depth += 1
        weights.append(1.0 if kind == "task" else 0.5 if kind == "dependency" else 0.5**depth)
    return weights


def _why(uid: str, path: list | None, kinds: dict[str, str]) -> dict:
    if uid in kinds:
        return {"seed": kinds[uid], "path": None}
    return {"seed": None, "path": path}
