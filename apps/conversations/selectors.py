"""Reads of conversations. Messages are found by their key (tenant, user, sid, no), so a read of
the last N costs the same whatever the session's length. A session the user does not have reads
as empty."""

from __future__ import annotations

from apps.conversations import input_limits as limits
from apps.graph import cypher
from apps.graph.fulltext import fulltext_terms
from apps.graph.scope import Scope

MESSAGE_FIELDS = """m {.uid, .sid, .no, .role, .text, .by, at: toString(m.at),
  mentions: [(m)-[:MENTIONS]->(e:Entity) | {uid: e.uid, name: e.name}],
  unknown_mentions: coalesce(m.mention_names, [])}"""

MESSAGES_LAST = (
    """
MATCH (s:Session {tenant: $tenant, user: $user, sid: $sid})
WITH CASE WHEN $before IS NULL OR $before > s.last_no THEN s.last_no ELSE $before - 1 END AS top
UNWIND range(top, top - $last + 1, -1) AS n
MATCH (m:Message {tenant: $tenant, user: $user, sid: $sid, no: n})
RETURN """
    + MESSAGE_FIELDS
    + """ AS message ORDER BY m.no"""
)


def messages_read(
    scope: Scope, *, user: str, sid: str, last: int = 20, before: int | None = None
) -> list[dict]:
    """The `last` messages of a session (before message number `before` if given), oldest first."""
    limits.validate_user(user)
    limits.validate_sid(sid)
    limits.validate_count(last, field="last", limit=limits.MAX_LAST)
    if before is not None:
        limits.validate_count(before, field="before", limit=2**53)
    rows = cypher.read(scope, MESSAGES_LAST, user=user, sid=sid, last=last, before=before)
    return [r["message"] for r in rows]


CONTEXT = (
    """
OPTIONAL MATCH (s:Session {tenant: $tenant, user: $user, sid: $sid})
OPTIONAL MATCH (sum:Summary {tenant: $tenant, user: $user, sid: $sid})
WITH coalesce(s.last_no, 0) AS top, sum,
     CASE WHEN sum IS NULL OR sum.upto > coalesce(s.last_no, 0) THEN 0 ELSE sum.upto END AS upto
WITH top, sum, upto,
     CASE WHEN top - $last + 1 > upto + 1 THEN top - $last + 1 ELSE upto + 1 END AS low
CALL (top, low) {
  UNWIND range(low, top) AS n
  MATCH (m:Message {tenant: $tenant, user: $user, sid: $sid, no: n})
  WITH m ORDER BY m.no
  RETURN collect("""
    + MESSAGE_FIELDS
    + """) AS messages
}
RETURN CASE WHEN upto = 0 THEN null
            ELSE sum {.uid, .upto, .text, .by, at: toString(coalesce(sum.updated_at, sum.created_at))}
       END AS summary,
       upto, top AS last_no, messages, low - upto - 1 AS waiting
"""
)


def session_context(scope: Scope, *, user: str, sid: str, last: int = 20) -> dict:
    """The summary, the `last` newest messages after it, and `waiting`: how many messages are
    neither summed nor given (the application sums up again when it grows)."""
    limits.validate_user(user)
    limits.validate_sid(sid)
    limits.validate_count(last, field="last", limit=limits.MAX_LAST, minimum=0)
    row = cypher.read(scope, CONTEXT, user=user, sid=sid, last=last)[0]
    return {"user": user, "sid": sid, **row}


SESSIONS = """
MATCH (s:Session {tenant: $tenant, user: $user})
RETURN s.sid AS sid, s.last_no AS messages, toString(s.last_at) AS last_at,
       toString(s.created_at) AS created_at,
       EXISTS { (:Summary)-[:SUMMARIZES]->(s) } AS summarized
ORDER BY s.last_at DESC LIMIT $limit
"""


def sessions_list(scope: Scope, *, user: str, limit: int = 50) -> list[dict]:
    """The user's sessions, the most recently active first (the server's time of the last
    message, which no caller sets)."""
    limits.validate_user(user)
    limits.validate_count(limit, field="limit", limit=500)
    return cypher.read(scope, SESSIONS, user=user, limit=limit)


USERS = """
MATCH (s:Session {tenant: $tenant})
WITH s.user AS user, count(s) AS sessions, sum(s.last_no) AS messages, max(s.last_at) AS last
RETURN user, sessions, messages, toString(last) AS last_at ORDER BY last DESC LIMIT $limit
"""


def conversation_users(scope: Scope, *, limit: int = 100) -> list[dict]:
    """Users with conversations in the tenant, the most recently active first (pages)."""
    return cypher.read(scope, USERS, limit=limit)


SAID_ABOUT = (
    """
MATCH (e:Entity {uid: $entity}) WHERE e.tenant = $tenant
MATCH (e)<-[:MENTIONS]-(m:Message {tenant: $tenant, user: $user})
WITH m ORDER BY m.created_at DESC, m.no DESC LIMIT $limit
RETURN """
    + MESSAGE_FIELDS
    + """ AS message"""
)


def said_about(scope: Scope, *, user: str, entity: str, limit: int = 20) -> list[dict]:
    """The user's messages that mention an entity (by uid), the newest first."""
    limits.validate_user(user)
    limits.validate_count(limit, field="limit", limit=limits.MAX_LAST)
    rows = cypher.read(scope, SAID_ABOUT, user=user, entity=entity, limit=limit)
    return [r["message"] for r in rows]


SEARCH = (
    """
CALL db.index.fulltext.queryNodes('message_text', $lucene, {limit: $candidates})
YIELD node AS m, score
WHERE m.tenant = $tenant AND m.user = $user
RETURN """
    + MESSAGE_FIELDS
    + """ AS message, score ORDER BY score DESC LIMIT $limit"""
)

# Names $tenant only to pass the scope check: the procedure waits for every tenant's updates.
REFRESHED = """
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
WITH $tenant AS tenant
RETURN tenant
"""


def messages_search(scope: Scope, *, user: str, words: str, limit: int = 20) -> list[dict]:
    """The user's messages that hold any of the words, best first. The index is asked for the
    user's owner word too, so it never ranks other users' messages; the user check stays."""
    limits.validate_user(user)
    limits.validate_text(words, limit=limits.MAX_SEARCH_CHARS, field="q")
    limits.validate_count(limit, field="limit", limit=limits.MAX_LAST)
    query = limits.user_words_query(scope.tenant, user, fulltext_terms(words))
    if not query:
        return []

    def search(stx):
        # The index is eventually consistent: wait for what committed before this search.
        stx.run(REFRESHED)
        return stx.run(SEARCH, lucene=query, user=user, limit=limit, candidates=limit * 2)

    rows = cypher.read_unit(scope, search)
    return [{**r["message"], "score": r["score"]} for r in rows]
