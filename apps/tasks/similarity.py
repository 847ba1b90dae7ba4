"""The semantic layer of the work graph: SIMILAR_TO edges kept in step with the embeddings
(seed 000, SIMILAR_TO synchronisation).

Edges join tasks to tasks and evidence to evidence of *different* parents only (a task's parent
is the task it is a subtask of, a root task its own; evidence's is the task that produced it):
chunks of one search share their topic trivially, and cliques of them would swamp PageRank.
Nodes are grouped by parent; a pair of groups is compared only when their centroids are close:
(1) some pair could pass at all (for unit vectors angle(x, y) >= angle(cA, cB) - rA - rB, r a
group's largest angle from its centroid: exact), and (2) the centroids' cosine is at least the
threshold minus CENTROID_MARGIN (a heuristic; the benchmark counts what it misses). Edges
above the threshold are created or get their new score; the rest are pruned.
Superseded evidence takes no part. Evidence is written `similar_pending` and the sync clears
the mark of what it read; until then a context call works out the fresh evidence's edges itself
(apps/tasks/context.py), so a call right after a write sees it. One edge per pair, from the smaller uid.
A finished task (DONE or FAILED) never changes, its relations included (seed 000's
immutability rule): the SIMILAR_TO edges it has when it finishes stay as they are, neither
rescored nor pruned, and it gets no new ones.
The same pass refines evidence strength by corroboration (apps/tasks/corroboration.py).

The threshold is the tenant's `similar_to_threshold`, 0.5 by default: with all-MiniLM-L6-v2,
paraphrases score 0.68 and up and texts on different subjects 0.18 at the median
(bench/similarity_threshold.py); seed 000's 0.55 was tuned for another model's prefixes.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from datetime import timedelta

import numpy as np
from django.utils import timezone

from apps.graph import cypher
from apps.graph.nodes.work import TERMINAL_STATUSES
from apps.graph.scope import Scope
from apps.tasks.corroboration import (
    CONTENTS,
    MAX_JUDGED,
    VERDICT_WRITE,
    corroboration_changes,
    independent_pairs,
    judge_endpoint,
    verdicts_ask,
)
from apps.tasks.corroboration import WRITE as CORROBORATION_WRITE
from apps.tenants.models import KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run
from memoryproject.api_errors import ApplicationError

logger = logging.getLogger(__name__)

JOB_KIND = "similarity_sync"
# The exact bound alone prunes little with sentence embeddings (a parent's chunks spread 35-45
# degrees around their centroid), so groups whose centroids are further apart than
# threshold - CENTROID_MARGIN are not compared either, as seed 000 does: a pair above the
# threshold between such groups is possible, and bench/similarity_sync.py counts how many.
CENTROID_MARGIN = 0.25
WRITE_BATCH = 2000
SETTLE_WAITS = 30

NODES = """
CALL () {
  MATCH (t:Task {tenant: $tenant}) WHERE t.embedding IS NOT NULL
  RETURN 'task' AS family, t.uid AS uid,
         coalesce([(t)-[:SUBTASK_OF]->(p) | p.uid][0], t.uid) AS grp, t.embedding AS embedding,
         t.status IN $terminal AS frozen, null AS source, null AS url, null AS strength,
         null AS corroborated_by
  UNION ALL
  MATCH (e:Evidence {tenant: $tenant}) WHERE e.embedding IS NOT NULL AND NOT e.superseded
  RETURN 'evidence' AS family, e.uid AS uid, e.task_uid AS grp, e.embedding AS embedding,
         false AS frozen, e.source AS source, e.url AS url, e.strength AS strength,
         e.corroborated_by AS corroborated_by
}
RETURN family, uid, grp, embedding, frozen, source, url, strength, corroborated_by
"""
EXISTING = """
CALL () {
  MATCH (a:Task {tenant: $tenant})-[r:SIMILAR_TO]->(b)
  RETURN a.uid AS a, b.uid AS b, r.score AS score, null AS verdict
  UNION ALL
  MATCH (a:Evidence {tenant: $tenant})-[r:SIMILAR_TO]->(b)
  RETURN a.uid AS a, b.uid AS b, r.score AS score, r.verdict AS verdict
}
RETURN a, b, score, verdict
"""
UPSERT = """
UNWIND $pairs AS p
MATCH (a {tenant: $tenant, uid: p.a}), (b {tenant: $tenant, uid: p.b})
WHERE (a:Task AND b:Task) OR (a:Evidence AND b:Evidence)
MERGE (a)-[r:SIMILAR_TO]->(b)
SET r.score = p.score, r.synced_at = datetime()
"""
PRUNE = """
UNWIND $pairs AS p
MATCH (a {tenant: $tenant, uid: p.a})-[r:SIMILAR_TO]->(b {tenant: $tenant, uid: p.b})
DELETE r
"""
# The evidence this sync read has its edges now: context calls stop working them out.
SYNCED = """
MATCH (e:Evidence {tenant: $tenant, similar_pending: true}) WHERE e.uid IN $uids
REMOVE e.similar_pending
"""
SOON = """
MERGE (s:SimilaritySync {tenant: $tenant})
ON CREATE SET s.uid = randomUUID(), s.created_at = datetime()
SET s.due_at = $due
RETURN s.job AS job
"""
TAKE_SLOT = """
MATCH (s:SimilaritySync {tenant: $tenant})
WITH s, s.job IS NULL AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END | SET s.job = $job)
RETURN free
"""
DUE = """
MATCH (s:SimilaritySync {tenant: $tenant})
RETURN s.due_at AS due
"""
FREE_SLOT = """
MATCH (s:SimilaritySync {tenant: $tenant}) WHERE s.job = $job
SET s.job = null
"""


def cross_group_pairs(
    groups: dict[str, np.ndarray], threshold: float, *, margin: float | None = CENTROID_MARGIN
) -> tuple[list[tuple[str, int, str, int, float]], int]:
    """Pairs (group a, index, group b, index, cosine) of unit vectors in different groups with
    a cosine >= threshold, and how many pairs were compared (after the centroid pre-filter).
    `margin=None` keeps only the exact bound (no pair is ever missed)."""
    names = sorted(groups)
    if len(names) < 2:
        return [], 0
    centroids, radii = [], []
    for name in names:
        vectors = groups[name]
        c = vectors.mean(axis=0)
        c = c / (np.linalg.norm(c) or 1.0)
        centroids.append(c)
        radii.append(float(np.arccos(np.clip((vectors @ c).min(), -1.0, 1.0))))
    centroids_m, radii_v = np.array(centroids), np.array(radii)
    between = np.arccos(np.clip(centroids_m @ centroids_m.T, -1.0, 1.0))
    reach = np.arccos(threshold)
    # A small margin keeps a pair at exactly the threshold from being lost to rounding.
    possible = between - radii_v[:, None] - radii_v[None, :] <= reach + 1e-6
    if margin is not None:
        possible &= centroids_m @ centroids_m.T >= threshold - margin
    found, compared = [], 0
    for i, j in zip(*np.nonzero(np.triu(possible, k=1)), strict=True):
        a, b = groups[names[i]], groups[names[j]]
        compared += len(a) * len(b)
        scores = a @ b.T
        for x, y in zip(*np.nonzero(scores >= threshold), strict=True):
            found.append((names[i], int(x), names[j], int(y), float(scores[x, y])))
    return found, compared


def similarity_sync(scope: Scope, *, threshold: float | None = None, progress=None) -> dict:
    """Bring the tenant's SIMILAR_TO edges in step with its tasks and evidence. Idempotent."""
    threshold = float(threshold if threshold is not None else scope.setting("similar_to_threshold"))
    rows = cypher.read(scope, NODES, terminal=list(TERMINAL_STATUSES))
    frozen = {row["uid"] for row in rows if row["frozen"]}
    wanted: dict[tuple[str, str], float] = {}
    compared = every = 0
    for family in ("task", "evidence"):
        members: dict[str, list] = defaultdict(list)
        for row in rows:
            if row["family"] == family:
                members[row["grp"]].append(row)
        groups = {g: np.array([r["embedding"] for r in rs], dtype=np.float32)
                  for g, rs in members.items()}  # fmt: skip
        pairs, n = cross_group_pairs(groups, threshold)
        compared += n
        total = sum(len(rs) for rs in members.values())
        every += total * (total - 1) // 2
        for ga, x, gb, y, score in pairs:
            a, b = sorted((members[ga][x]["uid"], members[gb][y]["uid"]))
            wanted[(a, b)] = round(score, 4)
    existing = cypher.read(scope, EXISTING)
    have = {(r["a"], r["b"]): r["score"] for r in existing}
    # A finished task's edges stay as they were, and it gets no new one.
    wanted = {pair: score for pair, score in wanted.items() if frozen.isdisjoint(pair)}
    kept = {pair: score for pair, score in have.items() if not frozen.isdisjoint(pair)}
    wanted.update(kept)
    stale = [{"a": a, "b": b} for a, b in set(have) - set(wanted)]
    # Only new edges and changed scores are written: a sync with nothing new writes nothing.
    upserts = [{"a": a, "b": b, "score": s} for (a, b), s in sorted(wanted.items())
               if have.get((a, b)) != s]  # fmt: skip
    for start in range(0, len(upserts), WRITE_BATCH):
        cypher.write(scope, UPSERT, pairs=upserts[start : start + WRITE_BATCH])
        if progress:
            progress(done=min(start + WRITE_BATCH, len(upserts)), total=len(upserts))
    for start in range(0, len(stale), WRITE_BATCH):
        cypher.write(scope, PRUNE, pairs=stale[start : start + WRITE_BATCH])
    evidence = [r for r in rows if r["family"] == "evidence"]
    verdicts = {(r["a"], r["b"]): r["verdict"] for r in existing if r["verdict"]}
    judged = _verdicts_judge(scope, evidence, wanted, verdicts)
    corroborated = corroboration_changes(evidence, wanted, verdicts)
    for start in range(0, len(corroborated), WRITE_BATCH):
        cypher.write(scope, CORROBORATION_WRITE, rows=corroborated[start : start + WRITE_BATCH])
    cypher.write(scope, SYNCED, uids=[r["uid"] for r in evidence])
    return {"nodes": len(rows), "threshold": threshold, "pairs_compared": compared,
            "all_pairs": every, "edges": len(wanted), "created": len(set(wanted) - set(have)),
            "written": len(upserts), "pruned": len(stale),
            "frozen": len(kept), "corroboration_changed": len(corroborated),
            **judged}  # fmt: skip


def _verdicts_judge(scope: Scope, evidence: list, wanted: dict, verdicts: dict) -> dict:
    """With a judge configured, ask it about the agreeing independent pairs it has not read
    (adding its answers to `verdicts`): {judged, judge_failed}; {} without one."""
    endpoint = judge_endpoint()
    if endpoint is None:
        return {}
    todo = [pair for pair in independent_pairs(evidence, wanted) if pair not in verdicts]
    if not todo:
        return {"judged": 0, "judge_failed": 0}
    uids = sorted({uid for pair in todo[:MAX_JUDGED] for uid in pair})
    found, failed = verdicts_ask(endpoint, cypher.read(scope, CONTENTS, uids=uids), todo)
    if found:
        cypher.write(scope, VERDICT_WRITE, pairs=found)
    verdicts.update({(v["a"], v["b"]): v["verdict"] for v in found})
    return {"judged": len(found), "judge_failed": failed}


def similarity_sync_start(scope: Scope, *, delay: float = 0):
    """Queue a sync job (on demand: at once); returns the Job."""
    from apps.tasks import tasks

    job = job_create(scope, kind=JOB_KIND, subject="SIMILAR_TO edges")
    job_enqueue(job, tasks.similarity_sync, job.uid, countdown=delay)  # a broker down: a 503
    return job


def similarity_sync_soon(scope: Scope) -> None:
    """After a write: one sync once writes have settled (`similarity_settle_seconds` without a
    new one). Writes meanwhile only push the time back; one job is waiting at most."""
    settle = float(scope.setting("similarity_settle_seconds"))
    due = timezone.now() + timedelta(seconds=settle)
    if cypher.write(scope, SOON, due=due)[0]["job"]:
        return
    job = job_create(scope, kind=JOB_KIND, subject="SIMILAR_TO edges, after writes")
    if cypher.write(scope, TAKE_SLOT, job=job.uid)[0]["free"]:
        from apps.tasks import tasks

        try:
            job_enqueue(job, tasks.similarity_sync, job.uid, countdown=settle,
                        undo=lambda: cypher.write(scope, FREE_SLOT, job=job.uid))  # fmt: skip
        except ApplicationError:
            # The write that asked is stored already: it must not fail for a sync. The slot is
            # free again, so the next write (or the sync API) asks once the broker is back.
            logger.warning("similarity sync of %s not queued: broker down", scope.tenant)
    else:
        from apps.tenants.services import job_finish

        job_finish(job, result={"merged": True})


def similarity_sync_run(*, job_uid: str) -> dict | None:
    """The worker's side: wait (bounded) until writes settled, free the slot so later writes
    ask again, then sync."""

    def work(scope: Scope, progress) -> dict:
        for _ in range(SETTLE_WAITS):
            due = (cypher.read(scope, DUE) or [{"due": None}])[0]["due"]
            if due is None or due.to_native() <= timezone.now():
                break
            time.sleep(min((due.to_native() - timezone.now()).total_seconds(), 5.0))
        cypher.write(scope, FREE_SLOT, job=job_uid)
        return similarity_sync(scope, progress=progress)

    return job_run(job_uid, work, actor="system:similarity", permissions={KeyScope.MEMORY_WRITE})
