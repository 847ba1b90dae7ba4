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

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tasks.services.task_writes import resolve_task_uid
from apps.tasks.walk import local_walk
from memoryproject.api_errors import ApplicationError

MAX_TOKEN_BUDGET = 100_000
MAX_ITEMS = 100
MAX_SEEDS = 20  # the task and up to this many ancestors, and as many dependencies
CHARS_PER_TOKEN = 4

SEEDS = """
MATCH (t:Task {tenant: $tenant, uid: $uid})
OPTIONAL MATCH path = (t)-[:SUBTASK_OF*1..20]->(p:Task {tenant: $tenant})
WITH t, p, length(path) AS depth ORDER BY depth
RETURN t.uid AS task, [x IN collect(p.uid) WHERE x IS NOT NULL] AS ancestors,
       [(t)-[:DEPENDS_ON]->(d:Task) WHERE d.tenant = $tenant | d.uid] AS dependencies
"""
DETAILS = """
UNWIND $uids AS u
CALL (u) {
  MATCH (n:Task {tenant: $tenant, uid: u}) RETURN n
  UNION
  MATCH (n:Evidence {tenant: $tenant, uid: u}) RETURN n
}
RETURN u AS uid, n:Task AS is_task, n.short_id AS id, n.description AS description,
       n.result_summary AS result_summary, n.status AS status, n.content AS content,
       n.strength AS strength, n.source AS source
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
    uid = resolve_task_uid(scope, task)
    kinds = seed_kinds(scope, uid)
    seeds = list(kinds)
    ranked, paths = local_walk(scope, seeds, seed_weights=seed_weights(kinds))
    scores = {r["uid"]: r["score"] for r in ranked if r["uid"] != uid}
    rows = cypher.read(scope, DETAILS, uids=list(scores)) if scores else []
    rows.sort(key=lambda r: (-scores[r["uid"]], r["uid"]))
    items, used = [], 0
    for row in rows:
        text = _text(row)
        tokens = tokens_of(text)
        if used + tokens > token_budget:
            continue  # a smaller one further down may still fit
        used += tokens
        items.append({
            "kind": "task" if row["is_task"] else "evidence", "id": row["id"], "uid": row["uid"],
            "text": text, "score": round(scores[row["uid"]], 6), "tokens": tokens,
            "strength": row["strength"], "status": row["status"], "source": row["source"],
        })  # fmt: skip
        if len(items) == limit:
            break
    for item in items:
        item["why"] = _why(item["uid"], paths.get(item["uid"]), kinds)
    return {"task": uid, "seeds": seeds, "items": items, "tokens": used,
            "token_budget": token_budget}  # fmt: skip


def _text(row: dict) -> str:
    if not row["is_task"]:
        return row["content"]
    if row["result_summary"]:
        return f"{row['description']}\nResult: {row['result_summary']}"
    return row["description"]


def seed_kinds(scope: Scope, uid: str) -> dict[str, str]:
    """The walk's seeds in order: {uid: 'task' | 'dependency' | 'ancestor'}: the task, the
    tasks it depends on (their findings are its inputs), its ancestors nearest first."""
    found = cypher.read(scope, SEEDS, uid=uid)[0]
    kinds = {uid: "task"}
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
