"""Writes of conversations: append a message (its number, its place and its mentions in one
query), store a session's summary, record a refused message."""

from __future__ import annotations

import json
import logging
import threading
import time

from apps.conversations import input_limits as limits
from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record
from memoryproject.api_errors import ApplicationError
from memoryproject.thread_pools import thread_pool

logger = logging.getLogger(__name__)

# One query takes the next number and the place after the last message: the SET on the session
# reads last_no under the session's write lock, so concurrent appends queue on it and get
# distinct, gap-free numbers. Nothing in it can refuse, so a refused message takes no number.
APPEND = """
MERGE (s:Session {tenant: $tenant, user: $user, sid: $sid})
  ON CREATE SET s.uid = randomUUID(), s.created_at = datetime(), s.last_no = 0
SET s.last_no = s.last_no + 1, s.last_at = datetime()
WITH s
OPTIONAL MATCH (prev:Message {tenant: $tenant, user: $user, sid: $sid, no: s.last_no - 1})
CREATE (m:Message {uid: randomUUID(), tenant: $tenant, user: $user, sid: $sid, no: s.last_no,
                   role: $role, text: $text, by: $by, owner_key: $owner_key,
                   at: CASE WHEN $at IS NULL THEN datetime() ELSE datetime($at) END,
                   created_at: datetime(), mention_names: []})
CREATE (m)-[:IN_SESSION]->(s)
FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | CREATE (p)-[:NEXT]->(m))
SET m:MessageToEmbed
WITH s, m
CALL (m) {
  UNWIND $mentions AS mention
  OPTIONAL CALL (mention) {
    MATCH (e:Entity {uid: mention.name}) WHERE e.tenant = $tenant AND e.status = 'active'
    RETURN e
    UNION
    MATCH (e:Entity {tenant: $tenant, norm_name: mention.norm}) WHERE e.status = 'active'
    RETURN e
  }
  WITH m, mention, collect(e)[0] AS e
  FOREACH (x IN CASE WHEN e IS NULL THEN [] ELSE [e] END | MERGE (m)-[:MENTIONS]->(x))
  RETURN collect(CASE WHEN e IS NULL THEN mention.name END) AS unknown,
         collect(CASE WHEN e IS NOT NULL THEN e.uid END) AS linked
}
SET m.mention_names = unknown
WITH s, m, linked, unknown
OPTIONAL MATCH (sum:Summary {tenant: $tenant, user: $user, sid: $sid})
RETURN m.uid AS uid, m.no AS no, toString(m.at) AS at, linked, unknown,
       coalesce(sum.upto, 0) AS summary_upto
"""


def check_message_append(
    scope: Scope,
    *,
    user: str,
    sid: str,
    role: str,
    text: str,
    by: str,
    mentions: list[str] | None = None,
    at=None,
) -> dict:
    """Validate, then append one message to the user's session (created on first use).
    Returns {uid, no, at, mentions: {linked, unknown}}. A refusal records a WriteFailure that
    names the user (so erasing the user erases it too) and writes nothing else."""
    mentions, at = check_message_input(
        scope, user=user, sid=sid, role=role, text=text, by=by, mentions=mentions, at=at
    )
    return do_message_append(
        scope, user=user, sid=sid, role=role, text=text, by=by, mentions=mentions, at=at
    )


def check_message_input(scope: Scope, *, user, sid, role, text, by, mentions, at):
    """Every input of a message checked against its format and limit; returns the cleaned
    (mentions, at). A refusal is recorded under the user before it is raised."""
    try:
        limits.check_user(user)
        limits.check_sid(sid)
        limits.check_role(role)
        limits.check_text(text, limit=scope.setting("max_message_chars"))
        limits.check_by(by)
        return limits.check_mentions(mentions), limits.check_at(at)
    except ApplicationError as refusal:
        message_refusal_record(scope, user=user, sid=sid, problem=refusal.message, text=text)
        refusal.recorded = True  # the API layer must not count it twice
        raise


def do_message_append(scope: Scope, *, user, sid, role, text, by, mentions, at) -> dict:
    """Append without validating: the caller checked every input (check_message_input)."""
    stored = cypher.write_unit(
        scope,
        lambda unit: do_message_append_in(
            unit, user=user, sid=sid, role=role, text=text, by=by, mentions=mentions, at=at
        ),
    )
    after_append(scope, stored=stored)
    return stored


def do_message_append_in(unit: ScopedTx, *, user, sid, role, text, by, mentions, at) -> dict:
    """The append query inside the caller's transaction (no queued work: the caller calls
    after_append once it committed)."""
    row = unit.run(
        APPEND,
        user=user,
        sid=sid,
        role=role,
        text=text,
        by=by,
        at=at,
        owner_key=limits.owner_key(unit.scope.tenant, user),
        mentions=[{"name": n, "norm": limits.mention_norm(n)} for n in mentions],
    )[0]
    return {
        "uid": row["uid"],
        "user": user,
        "sid": sid,
        "no": row["no"],
        "at": row["at"],
        "mentions": {"linked": row["linked"], "unknown": row["unknown"]},
        "summary_upto": row["summary_upto"],
    }


# Embedding is queued at most once per half second per tenant and process, to run a second
# later: a message appended (committed) within the half second is still waiting when that task
# reads, so the task embeds it in the same batch and no message is left behind.
EMBED_DEBOUNCE_S = 0.5
EMBED_DELAY_S = 1.0
_last_embed_queued: dict[str, float] = {}
_embed_lock = threading.Lock()


def _queue_embedding(tenant: str) -> None:
    """Off the request's thread: a publish costs milliseconds (seconds for a first connection),
    and a broker that is down must not fail an append that committed. Beat's sweep embeds
    whatever a lost publish left waiting."""
    now = time.monotonic()
    with _embed_lock:
        if now - _last_embed_queued.get(tenant, -1e9) < EMBED_DEBOUNCE_S:
            return
        _last_embed_queued[tenant] = now
    _publish("messages_embed", (tenant,), countdown=EMBED_DELAY_S)


def _publish(task_name: str, args: tuple, **options) -> None:
    thread_pool("publish", 1).submit(_published, task_name, args, options)


def _published(task_name: str, args: tuple, options: dict) -> None:
    from apps.conversations import tasks

    try:
        getattr(tasks, task_name).apply_async(args, **options)
    except Exception:  # noqa: BLE001 - any broker failure: the sweep or a later append retries
        logger.warning("task %s not queued", task_name, exc_info=True)


def after_append(scope: Scope, *, stored: dict) -> None:
    """Queue the work that stays off the request path: embedding, and a summary once the
    messages waiting pass the tenant's `summarize_waiting` (again every 25 while they do)."""

    _queue_embedding(scope.tenant)
    user, sid = stored["user"], stored["sid"]
    waiting = stored["no"] - stored.pop("summary_upto") - scope.setting("summary_keep_last")
    over = waiting - scope.setting("summarize_waiting")
    if over > 0 and over % 25 == 1:
        _publish("session_summarize", (scope.tenant, user, sid))


def message_refusal_record(
    scope: Scope, *, user, sid, problem: str, text, kind: str = "message"
) -> None:
    """Keep what a refused message was (up to 2,000 characters in all), under its user. Without
    a well-formed user nothing the caller wrote is kept (no text, no session id): erasure finds
    a user's records by that user, so text kept without one could never be erased."""
    subject = user if isinstance(user, str) and limits.USER_RE.match(user) else None
    session = sid if subject and isinstance(sid, str) and limits.SID_RE.match(sid) else None
    excerpt = text[:1000] if subject and isinstance(text, str) else ""
    reason = json.dumps({"sid": session or "", "problem": problem, "text": excerpt})
    write_failure_record(scope, kind=kind, reason=reason, subject_user=subject,
                         subject_sid=session)  # fmt: skip


SUMMARY_STORE = """
MATCH (s:Session {tenant: $tenant, user: $user, sid: $sid})
WITH s WHERE $upto <= s.last_no
MERGE (sum:Summary {tenant: $tenant, user: $user, sid: $sid})
  ON CREATE SET sum.uid = randomUUID(), sum.created_at = datetime(), sum.upto = 0
WITH s, sum, sum.upto < $upto OR NOT $only_forward AS apply
FOREACH (_ IN CASE WHEN apply THEN [1] ELSE [] END |
  SET sum.upto = $upto, sum.text = $text, sum.by = $by, sum.updated_at = datetime()
  MERGE (sum)-[:SUMMARIZES]->(s))
RETURN sum.upto AS upto, s.last_no AS last_no, apply
"""
SESSION_LAST = "MATCH (s:Session {tenant: $tenant, user: $user, sid: $sid}) RETURN s.last_no AS n"


def check_summary_store(
    scope: Scope, *, user: str, sid: str, text: str, upto: int, by: str, only_forward=False
) -> dict:
    """The session's one summary, of its messages 1..upto (the one before is not kept).
    `upto` beyond the last message is refused; `only_forward` keeps a later summary in place
    (the background summarizer must not undo a newer one)."""
    limits.check_user(user)
    limits.check_sid(sid)
    limits.check_text(text, limit=limits.MAX_SUMMARY_CHARS)
    limits.check_by(by)
    if not isinstance(upto, int) or isinstance(upto, bool) or upto < 1:
        raise ApplicationError("`upto` is a message number, 1 or more.", field="upto", limit=1)
    rows = cypher.write(
        scope, SUMMARY_STORE, user=user, sid=sid, text=text, upto=upto, by=by,
        only_forward=only_forward,
    )  # fmt: skip
    if not rows:
        found = cypher.read(scope, SESSION_LAST, user=user, sid=sid)
        last = found[0]["n"] if found else 0
        raise ApplicationError(
            f"`upto` {upto} is beyond the last message ({last}).",
            code="upto_beyond_last",
            field="upto",
            limit=last,
        )
    return {"user": user, "sid": sid, "upto": rows[0]["upto"], "stored": rows[0]["apply"]}
