"""Claims, releases and the end of a task (seed 001, Tasks).

A task is free when it is PENDING with every dependency DONE, or ACTIVE under a lease that ran
out. `check_task_claim` gives the oldest free task of a kind in one query, through two indexes
(`task_ready_kind`, `task_lease_kind`), never a scan. The lease holds its seconds (at most seven
days, no renewal); after it anyone may claim the task, and once someone has, the first agent can
no longer complete it (while nobody has, it still can). Every claim stays as a CLAIMED_BY edge;
the task's `owner` names the last one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.tasks.services.task_writes import KIND_PATTERN, MAX_KIND_CHARS, resolve_task_uid
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

MAX_LEASE_SECONDS = 7 * 24 * 3600
MAX_RESULT_CHARS = 8000
# Claimers racing for the same oldest task: the losers look again, this many times at most.
CLAIM_ATTEMPTS = 32
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def clock() -> datetime:
    """Now; tests replace it to move past a lease."""
    return timezone.now()


# The ready branch reads its index in order and stops at the first row (ordering by every
# property of the index is what lets the planner do so instead of sorting); the lease branch
# seeks the run-out leases only (a two-sided range and a seek hint: without them the planner scanned the index), a
# few at most. Plans: bench/task_claims.py. The older of the two is locked and checked
# again under the lock: a racing claimer may have taken it meanwhile.
CLAIM = """
CALL () {
  MATCH (t:Task) WHERE t.tenant = $tenant AND t.kind = $kind AND t.ready_at IS NOT NULL
  WITH t ORDER BY t.tenant, t.kind, t.ready_at LIMIT 1
  RETURN t
  UNION
  MATCH (t:Task) USING INDEX SEEK t:Task(tenant, kind, lease_until)
  WHERE t.tenant = $tenant AND t.kind = $kind AND t.lease_until > $epoch AND t.lease_until < $now
  WITH t ORDER BY t.lease_until LIMIT 1
  RETURN t
}
WITH t ORDER BY t.created_at, t.uid LIMIT 1
SET t._lock = true REMOVE t._lock
WITH t WHERE (t.status = 'PENDING' AND t.waiting = 0 AND t.ready_at IS NOT NULL)
          OR (t.status = 'ACTIVE' AND t.lease_until < $now)
MERGE (a:Agent {tenant: $tenant, name: $actor})
ON CREATE SET a.uid = randomUUID(), a.created_at = datetime()
CREATE (t)-[:CLAIMED_BY {at: $now, until: $until}]->(a)
WITH t, t.owner AS before
SET t.status = 'ACTIVE', t.owner = $actor, t.lease_until = $until, t.ready_at = null
RETURN t.uid AS uid, t.short_id AS short_id, t.kind AS kind, t.description AS description,
       before
"""
ANY_FREE = """
CALL () {
  MATCH (t:Task) WHERE t.tenant = $tenant AND t.kind = $kind AND t.ready_at IS NOT NULL
  RETURN t LIMIT 1
  UNION
  MATCH (t:Task)
  WHERE t.tenant = $tenant AND t.kind = $kind AND t.lease_until > $epoch AND t.lease_until < $now
  RETURN t LIMIT 1
}
RETURN count(t) > 0 AS any
"""
LOCKED = """
MATCH (t:Task {tenant: $tenant, uid: $uid}) USING INDEX SEEK t:Task(uid)
SET t._lock = true REMOVE t._lock
RETURN t.status AS status, t.owner AS owner, t.short_id AS short_id
"""
RELEASE = """
MATCH (t:Task {tenant: $tenant, uid: $uid}) USING INDEX SEEK t:Task(uid)
OPTIONAL MATCH (t)-[c:CLAIMED_BY]->(:Agent {tenant: $tenant, name: $actor})
WITH t, c ORDER BY c.at DESC LIMIT 1
SET c.released_at = $now
SET t.status = 'PENDING', t.owner = null, t.lease_until = null,
    t.ready_at = CASE WHEN t.waiting = 0 THEN t.created_at END
"""
# A DONE task counts itself off its dependents; the last one makes a dependent ready.
FINISH = """
MATCH (t:Task {tenant: $tenant, uid: $uid}) USING INDEX SEEK t:Task(uid)
SET t.status = $status, t.result_summary = $summary, t.result_embedding = $embedding,
    t.lease_until = null, t.ready_at = null, t.finished_at = $now
WITH t
CALL (t) {
  MATCH (d:Task {tenant: $tenant})-[:DEPENDS_ON]->(t) WHERE $status = 'DONE'
  SET d._lock = true REMOVE d._lock
  SET d.waiting = d.waiting - 1
  WITH d WHERE d.waiting = 0 AND d.status = 'PENDING'
  SET d.ready_at = d.created_at
}
"""


def check_kind(kind) -> str:
    if not isinstance(kind, str) or not KIND_PATTERN.match(kind):
        raise ApplicationError(
            f"kind must be 1-{MAX_KIND_CHARS} letters, digits or _.:- characters.",
            field="kind",
            limit=MAX_KIND_CHARS,
        )
    return kind


def _lease(seconds) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise ApplicationError("lease_seconds is a whole number.", field="lease_seconds")
    if not 0 < seconds <= MAX_LEASE_SECONDS:
        raise ApplicationError(
            f"A lease holds 1 to {MAX_LEASE_SECONDS} seconds (seven days).",
            field="lease_seconds",
            limit=MAX_LEASE_SECONDS,
        )
    return seconds


@refusal_recorded("task_claim")
def check_task_claim(scope: Scope, *, kind: str = "default", lease_seconds: int) -> dict | None:
    """The oldest free task of `kind`, now ACTIVE and owned by the caller until the lease ends:
    {uid, id, kind, description, lease_until, taken_from}; None when no task is free.
    `taken_from` names the agent whose lease ran out, if any."""
    check_kind(kind)
    _lease(lease_seconds)
    for _ in range(CLAIM_ATTEMPTS):
        now = clock()
        until = now + timedelta(seconds=lease_seconds)
        rows = cypher.write(scope, CLAIM, kind=kind, now=now, until=until, actor=scope.actor,
                            epoch=EPOCH)  # fmt: skip
        if rows:
            row = rows[0]
            return {"uid": row["uid"], "id": row["short_id"], "kind": row["kind"],
                    "description": row["description"], "lease_until": until.isoformat(),
                    "taken_from": row["before"]}  # fmt: skip
        if not cypher.read(scope, ANY_FREE, kind=kind, now=now, epoch=EPOCH)[0]["any"]:
            return None
    return None


def _owned(tx, scope: Scope, uid: str, *, doing: str) -> dict:
    found = tx.run(LOCKED, uid=uid)
    if not found:
        raise NotFoundError("No such task.", field="task")
    row = found[0]
    if row["status"] in ("DONE", "FAILED"):
        raise ConflictError(
            f"Task {row['short_id']} is {row['status']}: a finished task does not change.",
            code="task_immutable",
            field="task",
        )
    if row["status"] != "ACTIVE" or row["owner"] != scope.actor:
        if row["status"] != "ACTIVE":
            reason = "nobody holds it; claim it first"
        else:
            reason = "another agent holds it (a lease that ran out was claimed again)"
        raise ConflictError(
            f"Cannot {doing} task {row['short_id']}: {reason}.", code="not_owner", field="task"
        )
    return row


@refusal_recorded("task_release")
def check_task_release(scope: Scope, *, task: str) -> dict:
    """Give a task back: PENDING again, free for the next claim; the claim edge stays."""
    uid = resolve_task_uid(scope, task)

    def work(tx):
        row = _owned(tx, scope, uid, doing="release")
        tx.run(RELEASE, uid=uid, actor=scope.actor, now=clock())
        return {"uid": uid, "id": row["short_id"], "status": "PENDING"}

    return cypher.write_unit(scope, work)


@refusal_recorded("task_finish")
def check_task_finish(scope: Scope, *, task: str, status: str, result_summary: str) -> dict:
    """End a task the caller holds: DONE or FAILED with its result summary (embedded as the
    result embedding). A DONE task makes ready each dependent whose last dependency it was."""
    if status not in ("DONE", "FAILED"):
        raise ApplicationError("status is DONE or FAILED.", field="status")
    if not isinstance(result_summary, str) or not 0 < len(result_summary) <= MAX_RESULT_CHARS:
        raise ApplicationError(
            f"result_summary is text of 1 to {MAX_RESULT_CHARS} characters.",
            field="result_summary",
            limit=MAX_RESULT_CHARS,
        )
    uid = resolve_task_uid(scope, task)
    embedding = get_embedder().embed([result_summary])[0]

    def work(tx):
        row = _owned(tx, scope, uid, doing="finish")
        tx.run(FINISH, uid=uid, status=status, summary=result_summary, embedding=embedding,
               now=clock())  # fmt: skip
        return {"uid": uid, "id": row["short_id"], "status": status}

    return cypher.write_unit(scope, work)
