"""Erasure of a session, or of a user across all sessions (on request, by an admin).

A session goes in steps of ERASURE_STEP_MESSAGES messages, the newest first, each step one
transaction that also counts the session down, so after every step it reads as a shorter,
consistent session. Before a step's messages are deleted, every hook in
settings.MESSAGE_ERASURE_HOOKS is called with their uids, so what was derived from them elsewhere
(promoted facts, weights) goes with them. An import's messages not written yet go first. Then
the session's summary, the traces its messages
asked for, and the refused-write records of the user (of that session when one session goes). The audit keeps that it happened, by whom,
when and how much: never the user or any text.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

from apps.conversations import input_limits as limits
from apps.graph import cypher
from apps.graph.deletion_lock import do_deletion_lock
from apps.graph.graph_version import do_graph_stamp_renew
from apps.graph.scope import Scope
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import audit_record, job_create, job_enqueue, job_run
from memoryproject.api_errors import PermissionDeniedError

JOB_KIND = "conversation_erase"

PREVIEW = """
OPTIONAL MATCH (s:Session {tenant: $tenant, user: $user})
  WHERE $sid IS NULL OR s.sid = $sid
WITH collect(s) AS sessions
RETURN [s IN sessions | s.sid] AS sids,
  reduce(n = 0, s IN sessions | n + COUNT { (:Message)-[:IN_SESSION]->(s) }) AS messages,
  COUNT { MATCH (x:Summary {tenant: $tenant, user: $user})
          WHERE $sid IS NULL OR x.sid = $sid } AS summaries,
  COUNT { MATCH (t:ReasoningTrace {tenant: $tenant, user: $user})
          WHERE $sid IS NULL OR t.sid = $sid } AS traces,
  COUNT { MATCH (f:WriteFailure {tenant: $tenant, subject_user: $user})
          WHERE $sid IS NULL OR f.subject_sid = $sid } AS failures
"""


def erasure_preview(scope: Scope, *, user: str, sid: str | None = None) -> dict:
    """What an erasure would delete: the sessions by id, and counts of the rest."""
    limits.validate_user(user)
    if sid is not None:
        limits.validate_sid(sid, field="session")
    row = cypher.read(scope, PREVIEW, user=user, sid=sid)[0]
    return {"user": user, "session": sid, **row, "sessions": len(row["sids"])}


def check_erasure_start(scope: Scope, *, user: str, sid: str | None = None) -> Job:
    """An admin's request to forget a user (or one session of theirs): audited, then run by a
    worker as a job with progress. The job and the audit never hold the user or any text."""
    if not scope.allows(KeyScope.ADMIN):
        raise PermissionDeniedError("Erasure needs the admin role or scope.")
    planned = erasure_preview(scope, user=user, sid=sid)
    kind = "session" if sid else "user"
    job = job_create(scope, kind=JOB_KIND, subject=f"one {kind}", total=planned["messages"])
    audit_record(scope, action="conversation.erasure_requested",
                 target=f"job:{job.uid}", details={"scope": kind})  # fmt: skip
    from apps.conversations import tasks

    job_enqueue(job, tasks.conversation_erase, job.uid, user, sid)
    return job


SESSIONS_OF = """
MATCH (s:Session {tenant: $tenant, user: $user}) WHERE $sid IS NULL OR s.sid = $sid
RETURN s.sid AS sid ORDER BY s.last_at DESC
"""
SUMMARY_DELETE = """
OPTIONAL MATCH (x:Summary {tenant: $tenant, user: $user, sid: $sid})
DETACH DELETE x
RETURN count(x) AS n
"""
NEWEST = """
MATCH (m:Message {tenant: $tenant, user: $user, sid: $sid}) WHERE m.no > 0
RETURN m.uid AS uid ORDER BY m.no DESC LIMIT $step
"""
# The session is locked first, so an append waits for the step and then numbers after what is
# left: the session never holds a number twice.
STEP = """
MATCH (s:Session {tenant: $tenant, user: $user, sid: $sid})
SET s.erasing = true
WITH s
CALL (s) {
  UNWIND $uids AS uid
  MATCH (m:Message {uid: uid})-[:IN_SESSION]->(s) WHERE m.tenant = $tenant
  OPTIONAL MATCH (t:ReasoningTrace)-[:FOR_MESSAGE]->(m)
  WITH m, collect(t) AS traces
  WITH m, m.no AS no, size(traces) AS t, traces
  FOREACH (x IN traces | DETACH DELETE x)
  DETACH DELETE m
  RETURN count(no) AS deleted, min(no) AS low, max(no) AS high, sum(t) AS traces
}
SET s.last_no = CASE WHEN low IS NULL OR s.last_no > high THEN s.last_no ELSE low - 1 END
REMOVE s.erasing
WITH s, deleted, traces
CALL (s) {
  WITH s WHERE NOT EXISTS { (:Message)-[:IN_SESSION]->(s) }
  DETACH DELETE s
  RETURN count(*) AS gone
}
RETURN deleted, traces, gone
"""
LEFTOVERS = """
OPTIONAL MATCH (t:ReasoningTrace {tenant: $tenant, user: $user})
  WHERE $sid IS NULL OR t.sid = $sid
DETACH DELETE t
WITH count(t) AS traces
OPTIONAL MATCH (f:WriteFailure {tenant: $tenant, subject_user: $user})
  WHERE $sid IS NULL OR f.subject_sid = $sid
DETACH DELETE f
RETURN traces, count(f) AS failures
"""


# What an import has not written yet goes first, so the import stops adding to the sessions.
STAGED_DELETE = """
OPTIONAL MATCH (c:MessageImportChunk {tenant: $tenant, user: $user})
  WHERE $sid IS NULL OR c.sid = $sid
DETACH DELETE c
RETURN count(c) AS n
"""


def _step(stx, user: str, sid: str, uids: list[str]) -> list[dict]:
    """One step of the erasure, after the tenant's deletion lock (its messages' mentions are
    what a document's deletion weighs before removing an entity); the graph gets a new stamp
    with it (apps/graph/graph_version.py: no answer kept before a delete is given after it)."""
    do_deletion_lock(stx)
    do_graph_stamp_renew(stx)
    return stx.run(STEP, user=user, sid=sid, uids=uids)


def erasure_hooks() -> list:
    return [import_string(path) for path in settings.MESSAGE_ERASURE_HOOKS]


def messages_erase(scope: Scope, *, user: str, sid: str | None, on_step=None) -> dict:
    """Delete what the user said (in one session, or in all), newest first, in steps. Caller
    holds the admin's scope and has audited the request. Safe to run again after a crash."""
    step = settings.ERASURE_STEP_MESSAGES
    hooks = erasure_hooks()
    counts = {"sessions": 0, "messages": 0, "summaries": 0, "traces": 0, "failures": 0}
    counts["staged"] = cypher.write(scope, STAGED_DELETE, user=user, sid=sid)[0]["n"]
    for _round in range(100):  # sessions opened while it runs go too; bounded all the same
        sids = [r["sid"] for r in cypher.read(scope, SESSIONS_OF, user=user, sid=sid)]
        if not sids:
            break
        for one in sids:
            counts["summaries"] += cypher.write(scope, SUMMARY_DELETE, user=user, sid=one)[0]["n"]
            while True:
                uids = [r["uid"] for r in cypher.read(scope, NEWEST, user=user, sid=one, step=step)]
                for hook in hooks:
                    hook(scope, message_uids=uids)
                row = cypher.write_unit(
                    scope, lambda stx, one=one, uids=uids: _step(stx, user, one, uids)
                )
                if not row:
                    break
                counts["messages"] += row[0]["deleted"]
                counts["traces"] += row[0]["traces"]
                if on_step:
                    on_step(counts)
                if row[0]["gone"]:
                    counts["sessions"] += 1
                    break
    leftovers = cypher.write(scope, LEFTOVERS, user=user, sid=sid)[0]
    counts["traces"] += leftovers["traces"]
    counts["failures"] += leftovers["failures"]
    return counts


def erasure_run(*, job_uid: str, user: str, sid: str | None) -> dict | None:
    """The worker's side: erase with the right to delete memory (the admin asked; the worker
    needs no more), progress on the job, audit how much (never what) with the job's end."""
    kind = "session" if sid else "user"

    def work(scope: Scope, progress) -> dict:
        counts = messages_erase(
            scope, user=user, sid=sid, on_step=lambda c: progress(done=c["messages"])
        )
        progress(done=counts["messages"])
        return counts

    return job_run(job_uid, work, actor="system:erasure", permissions={KeyScope.MEMORY_WRITE},
                   audit="conversation.erased",
                   audit_details=lambda c: {"scope": kind, **c})  # fmt: skip
