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
from memoryproject.api_errors import ApplicationError
from memoryproject.refusals import refusal_record
from memoryproject.thread_pools import thread_pool

logger = logging.getLogger(__name__)

MAX_BATCH = 500  # messages in one batch append (one transaction)

# One query appends one message or a batch: the SET on the session reads last_no under the
# session's write lock, so concurrent appends queue on it and get distinct, gap-free numbers,
# a batch's in its order. Nothing in it can refuse, so a refused message takes no number.
# A row may bring its vector (an import embeds before it writes); one without waits for the
# worker with the label MessageToEmbed.
APPEND = """
MERGE (s:Session {tenant: $tenant, user: $user, sid: $sid})
  ON CREATE SET s.uid = randomUUID(), s.created_at = datetime(), s.last_no = 0
SET s.last_no = s.last_no + size($rows), s.last_at = datetime()
WITH s, s.last_no - size($rows) AS base
OPTIONAL MATCH (prev:Message {tenant: $tenant, user: $user, sid: $sid, no: base})
CALL (s, base) {
  UNWIND range(0, size($rows) - 1) AS i
  WITH i, $rows[i] AS r ORDER BY i
  CREATE (m:Message {uid: randomUUID(), tenant: $tenant, user: $user, sid: $sid, no: base + i + 1,
                     role: r.role, text: r.text, by: r.by, owner_key: $owner_key,
                     at: CASE WHEN r.at IS NULL THEN datetime() ELSE datetime(r.at) END,
                     created_at: datetime(), mention_names: []})
  CREATE (m)-[:IN_SESSION]->(s)
  FOREACH (_ IN CASE WHEN r.vector IS NULL THEN [1] ELSE [] END | SET m:MessageToEmbed)
  RETURN collect(m) AS made
}
WITH s, prev, made, made[0] AS first
FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | CREATE (p)-[:NEXT]->(first))
WITH made
CALL (made) {
  UNWIND range(1, size(made) - 1) AS i
  WITH made[i - 1] AS a, made[i] AS b
  CREATE (a)-[:NEXT]->(b)
}
CALL (made) {
  // A vector brought along is stored as a float32 array (half of a Cypher list of floats).
  UNWIND range(0, size(made) - 1) AS i
  WITH made[i] AS m, $rows[i].vector AS vector WHERE vector IS NOT NULL
  CALL db.create.setNodeVectorProperty(m, 'embedding', vector)
}
CALL (made) {
  UNWIND range(0, size(made) - 1) AS i
  WITH i, made[i] AS m, $rows[i].mentions AS mentions
  CALL (m, mentions) {
    UNWIND mentions AS mention
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
  WITH i, m, linked, unknown ORDER BY i
  RETURN collect({uid: m.uid, no: m.no, at: toString(m.at), linked: linked, unknown: unknown})
         AS stored
}
OPTIONAL MATCH (sum:Summary {tenant: $tenant, user: $user, sid: $sid})
RETURN stored, coalesce(sum.upto, 0) AS summary_upto
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
    mentions, at = validate_message_input(
        scope, user=user, sid=sid, role=role, text=text, by=by, mentions=mentions, at=at
    )
    return message_append(
        scope, user=user, sid=sid, role=role, text=text, by=by, mentions=mentions, at=at
    )


def validate_message_input(scope: Scope, *, user, sid, role, text, by, mentions, at, index=None):
    """Every input of a message checked against its format and limit; returns the cleaned
    (mentions, at). A refusal is recorded under the user before it is raised; `index` (its
    place in a batch) goes into the refusal's field, `messages[i].text`, and its message."""
    try:
        limits.validate_user(user)
        limits.validate_sid(sid)
        limits.validate_role(role)
        limits.validate_text(text, limit=scope.setting("max_message_chars"))
        limits.validate_by(by)
        return limits.validate_mentions(mentions), limits.validate_at(at)
    except ApplicationError as refusal:
        if index is not None:
            refusal.field = f"messages[{index}].{refusal.field}"
            refusal.message = f"Message {index}: {refusal.message}"
            refusal.extra = {**refusal.extra, "index": index}
        message_refusal_record(scope, user=user, sid=sid, problem=refusal.message, text=text,
                               exc=refusal)  # fmt: skip
        raise


def check_messages_append(scope: Scope, *, user: str, sid: str, messages: list[dict]) -> dict:
    """Append a batch (1 to MAX_BATCH messages, each {role, text, by, mentions?, at?}) to the
    user's session in one transaction: numbered in order after the session's last, with no gap
    even beside concurrent appends. Every message is checked first; a refused one refuses the
    batch (its index in the error's field), is recorded like a single refusal, and nothing is
    written. The worker embeds the batch in one task. Returns {user, sid, messages: [{uid, no,
    at, mentions}]}."""
    rows = validate_messages_input(scope, user=user, sid=sid, messages=messages, limit=MAX_BATCH)
    stored = cypher.write_unit(
        scope, lambda unit: do_messages_append_in(unit, user=user, sid=sid, rows=rows)
    )
    after_batch_append(scope, stored=stored)
    return stored


def validate_messages_input(scope: Scope, *, user, sid, messages, limit: int) -> list[dict]:
    """A batch's messages checked one by one (validate_message_input); the cleaned rows."""
    try:
        limits.validate_user(user)
        limits.validate_sid(sid)
        if not isinstance(messages, list) or not 1 <= len(messages) <= limit:
            raise ApplicationError(f"`messages` is a list of 1-{limit} messages.",
                                   field="messages", limit=limit)  # fmt: skip
    except ApplicationError as refusal:
        message_refusal_record(scope, user=user, sid=sid, problem=refusal.message, text=None,
                               exc=refusal)  # fmt: skip
        raise
    rows = []
    for index, m in enumerate(messages):
        m = m if isinstance(m, dict) else {}
        mentions, at = validate_message_input(
            scope, user=user, sid=sid, role=m.get("role"), text=m.get("text"), by=m.get("by"),
            mentions=m.get("mentions"), at=m.get("at"), index=index,
        )  # fmt: skip
        rows.append({"role": m["role"], "text": m["text"], "by": m["by"], "mentions": mentions,
                     "at": at})  # fmt: skip
    return rows


def message_append(scope: Scope, *, user, sid, role, text, by, mentions, at) -> dict:
    """Append without validating: the caller checked every input (validate_message_input)."""
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
    row = {"role": role, "text": text, "by": by, "mentions": mentions, "at": at}
    batch = do_messages_append_in(unit, user=user, sid=sid, rows=[row])
    return {**batch["messages"][0], "user": user, "sid": sid,
            "summary_upto": batch["summary_upto"]}  # fmt: skip


def do_messages_append_in(unit: ScopedTx, *, user, sid, rows: list[dict]) -> dict:
    """Append checked rows ({role, text, by, mentions, at, vector?}) in their order, in the
    caller's transaction. Returns {user, sid, messages: [{uid, no, at, mentions}],
    summary_upto}."""
    found = unit.run(
        APPEND,
        user=user,
        sid=sid,
        owner_key=limits.owner_key(unit.scope.tenant, user),
        rows=[
            {
                "role": r["role"], "text": r["text"], "by": r["by"], "at": r.get("at"),
                "vector": r.get("vector"),
                "mentions": [{"name": n, "norm": limits.mention_norm(n)} for n in r["mentions"]],
            }
            for r in rows
        ],
    )[0]  # fmt: skip
    messages = [
        {"uid": m["uid"], "no": m["no"], "at": m["at"],
         "mentions": {"linked": m["linked"], "unknown": m["unknown"]}}
        for m in found["stored"]
    ]  # fmt: skip
    return {"user": user, "sid": sid, "messages": messages, "summary_upto": found["summary_upto"]}


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
    no = stored["no"]
    _summary_when_due(scope, user=stored["user"], sid=stored["sid"], first=no, last=no,
                      upto=stored.pop("summary_upto"))  # fmt: skip


def after_batch_append(scope: Scope, *, stored: dict, embed: bool = True) -> None:
    """A batch's work: one embedding task for all its messages (`embed` False when they came
    with their vectors), and a summary as after_append, once, when one of its numbers would
    have asked for it."""
    if embed:
        _publish("messages_embed_batch", (scope.tenant, [m["uid"] for m in stored["messages"]]))
    numbers = [m["no"] for m in stored["messages"]]
    _summary_when_due(scope, user=stored["user"], sid=stored["sid"], first=min(numbers),
                      last=max(numbers), upto=stored.pop("summary_upto"))  # fmt: skip


def _summary_when_due(scope: Scope, *, user, sid, first: int, last: int, upto: int) -> None:
    # Due at message n when over(n) = n - upto - keep_last - summarize_waiting is 1, 26, 51...
    offset = upto + scope.setting("summary_keep_last") + scope.setting("summarize_waiting")
    low, high = max(first - offset, 1), last - offset
    if low <= high and low + (1 - low) % 25 <= high:
        _publish("session_summarize", (scope.tenant, user, sid))


def message_refusal_record(
    scope: Scope, *, user, sid, problem: str, text, kind: str = "message", exc=None
) -> None:
    """Keep what a refused message was (up to 2,000 characters in all), under its user. Without
    a well-formed user nothing the caller wrote is kept (no text, no session id): erasure finds
    a user's records by that user, so text kept without one could never be erased. `exc` is
    marked recorded, so the API layer does not count it twice."""
    subject = user if isinstance(user, str) and limits.USER_RE.match(user) else None
    session = sid if subject and isinstance(sid, str) and limits.SID_RE.match(sid) else None
    excerpt = text[:1000] if subject and isinstance(text, str) else ""
    reason = json.dumps({"sid": session or "", "problem": problem, "text": excerpt})
    refusal_record(scope, kind=kind, reason=reason, subject_user=subject, subject_sid=session,
                   exc=exc)  # fmt: skip


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
    limits.validate_user(user)
    limits.validate_sid(sid)
    limits.validate_text(text, limit=limits.MAX_SUMMARY_CHARS)
    limits.validate_by(by)
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
