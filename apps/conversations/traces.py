"""Reasoning traces: what one context call did (its steps, their timings and counts) and what it
returned (TOUCHED edges). A trace holds no text: the question is the message it points at, so
erasing the message's user erases the trace with it."""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope

RECORD = """
MATCH (q:Message {uid: $message}) WHERE q.tenant = $tenant
CREATE (t:ReasoningTrace {uid: randomUUID(), tenant: $tenant, user: $user, sid: $sid,
                          steps: $steps, created_at: datetime()})
CREATE (t)-[:FOR_MESSAGE]->(q)
WITH t
CALL (t) {
  UNWIND $messages AS x
  MATCH (n:Message {uid: x.uid}) WHERE n.tenant = $tenant
  CREATE (t)-[:TOUCHED {kind: 'message_hit', rank: x.rank}]->(n)
  RETURN count(*) AS messages
}
CALL (t) {
  UNWIND $entities AS x
  MATCH (n:Entity {uid: x.uid}) WHERE n.tenant = $tenant
  CREATE (t)-[:TOUCHED {kind: x.kind, rank: x.rank}]->(n)
  // Locked before it is read, so concurrent calls keep each other's entries.
  SET n._lock = true
  REMOVE n._lock
  SET n.recent_traces = ([t.uid] + coalesce(n.recent_traces, []))[..$keep]
  RETURN count(*) AS entities
}
CALL (t) {
  UNWIND $traces AS x
  MATCH (n:ReasoningTrace {uid: x.uid}) WHERE n.tenant = $tenant
  CREATE (t)-[:TOUCHED {kind: 'prior_trace', rank: x.rank}]->(n)
  RETURN count(*) AS traces
}
CALL (t) {
  UNWIND $passages AS x
  MATCH (n:Chunk {uid: x.uid}) WHERE n.tenant = $tenant
  CREATE (t)-[:TOUCHED {kind: 'passage', rank: x.rank}]->(n)
  RETURN count(*) AS passages
}
CALL (t) {
  UNWIND $summaries AS x
  MATCH (n:Summary {uid: x}) WHERE n.tenant = $tenant
  CREATE (t)-[:TOUCHED {kind: 'summary', rank: 1}]->(n)
  RETURN count(*) AS summaries
}
RETURN t.uid AS uid
"""
# Each entity keeps the uids of the last few traces that touched it: finding them stays one index
# seek each however many traces an entity gathers (TOUCHED edges are kept, not searched).
RECENT_TRACES_KEPT = 5


def _ranked(items: list[dict], **extra) -> list[dict]:
    return [{"uid": item["uid"], "rank": i, **extra} for i, item in enumerate(items, start=1)]


def do_trace_record_in(
    unit: ScopedTx, *, user: str, sid: str, message_uid: str, found: dict, steps: list[dict]
) -> str:
    """One ReasoningTrace for a context call, with a TOUCHED edge to everything it returned,
    written in the caller's transaction."""
    entities = _ranked(found["entities"], kind="entity_hit") + _ranked(
        found["neighbours"], kind="neighbour"
    )
    # Entities are locked (recent_traces) in uid order, so concurrent calls touching the same
    # entities queue instead of deadlocking; the rank travels on each edge.
    entities.sort(key=lambda x: x["uid"])
    rows = unit.run(
        RECORD,
        message=message_uid,
        user=user,
        sid=sid,
        steps=json.dumps(steps),
        messages=_ranked(found["messages"]),
        entities=entities,
        traces=_ranked(found["traces"]),
        passages=_ranked(found.get("passages", [])),
        summaries=[found["summary"]["uid"]] if found.get("summary") else [],
        keep=RECENT_TRACES_KEPT,
    )
    return rows[0]["uid"]


TRACES_OF_SESSION = """
MATCH (t:ReasoningTrace {tenant: $tenant, user: $user}) WHERE t.sid = $sid
WITH t ORDER BY t.created_at DESC LIMIT $limit
OPTIONAL MATCH (t)-[:FOR_MESSAGE]->(q:Message)
RETURN t.uid AS uid, toString(t.created_at) AS at, t.steps AS steps, q.no AS question_no,
       q.text AS question,
       [(t)-[r:TOUCHED]->(n) | {kind: r.kind, rank: r.rank, uid: n.uid,
         label: CASE WHEN n:Message THEN n.sid + '#' + toString(n.no)
                     WHEN n:Entity THEN n.name WHEN n:Summary THEN 'summary'
                     ELSE 'trace' END}] AS touched
"""


def session_traces(scope: Scope, *, user: str, sid: str, limit: int = 20) -> list[dict]:
    """The latest context calls of a session with what each touched (for the browser pages)."""
    rows = cypher.read(scope, TRACES_OF_SESSION, user=user, sid=sid, limit=limit)
    for row in rows:
        row["steps"] = json.loads(row["steps"] or "[]")
        row["touched"].sort(key=lambda x: (x["kind"], x["rank"] or 0))
    return rows
