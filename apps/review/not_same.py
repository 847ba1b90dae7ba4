"""A reviewer's "these two are not the same": recorded once, honoured by the gate for good."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope

# Stored from the smaller uid to the larger, so the pair has one edge whichever way it was
# rejected; readers match it in either direction. A pending SAME_AS between the two is closed.
# Both ends through the uid index: left to itself the planner read the tenant's entities.
NOT_SAME_RECORD = """
MATCH (a:Entity {uid: $low})
USING INDEX SEEK a:Entity(uid)
WHERE a.tenant = $tenant
MATCH (b:Entity {tenant: $tenant, uid: $high}) USING INDEX SEEK b:Entity(uid)
MERGE (a)-[n:NOT_SAME]->(b)
ON CREATE SET n.tenant = $tenant, n.actor = $actor, n.reason = $reason, n.created_at = datetime()
WITH a, b, n
OPTIONAL MATCH (a)-[s:SAME_AS {status: 'pending'}]-(b)
SET s.status = 'rejected', s.decided_by = $actor, s.decided_at = datetime()
RETURN count(DISTINCT n) AS pairs
"""


def do_not_same_record(stx: ScopedTx, *, left_uid: str, right_uid: str, reason: str = "") -> bool:
    """Record that two entities of the caller's tenant are different, inside the caller's
    transaction (the review service may reject and audit in one unit). Idempotent; False when
    either entity is not in this tenant or both uids are the same."""
    if left_uid == right_uid:
        return False
    low, high = sorted((left_uid, right_uid))
    rows = stx.run(NOT_SAME_RECORD, low=low, high=high, actor=stx.scope.actor, reason=reason[:2000])
    return bool(rows and rows[0]["pairs"])


def not_same_record(scope: Scope, *, left_uid: str, right_uid: str, reason: str = "") -> bool:
    """`do_not_same_record` in a transaction of its own."""
    return cypher.write_unit(
        scope,
        lambda stx: do_not_same_record(stx, left_uid=left_uid, right_uid=right_uid, reason=reason),
    )
