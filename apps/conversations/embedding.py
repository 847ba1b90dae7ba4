"""Vectors for messages, off the request path: a worker claims messages still marked
MessageToEmbed, embeds a claimed batch in one call of the model, and writes the vectors in one
query per batch.

A claim is a marker set under the message's write lock in one query, so two tasks on the same
tenant (a batch's task and the sweep's, or a redelivered one) never embed a message twice: the
second waits on the lock, then sees the marker and skips the message. A claim whose worker died
lapses after CLAIM_LEASE_S and the message is claimed again.
"""

from __future__ import annotations

import uuid

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope

CLAIM_LEASE_S = 600
# The lock is taken first (Neo4j's documented way to read-then-write safely: a property read
# after the write lock is the committed one), then the marker is checked again and set.
CLAIM = """
CALL () {
  WITH 1 AS listed WHERE $uids IS NOT NULL
  UNWIND $uids AS uid
  MATCH (m:Message {uid: uid}) WHERE m.tenant = $tenant AND m:MessageToEmbed
  RETURN m
  UNION
  WITH 1 AS any WHERE $uids IS NULL
  MATCH (m:MessageToEmbed {tenant: $tenant})
  RETURN m
}
WITH m
WHERE m.embed_claim IS NULL OR m.embed_claimed_at < datetime() - duration({seconds: $lease})
WITH m LIMIT $batch
SET m._embed_lock = true
REMOVE m._embed_lock
WITH m
// Read again under the lock: another task may have stored the vector (label gone, claim gone).
WHERE m:MessageToEmbed
  AND (m.embed_claim IS NULL OR m.embed_claimed_at < datetime() - duration({seconds: $lease}))
SET m.embed_claim = $claim, m.embed_claimed_at = datetime()
RETURN m.uid AS uid, m.text AS text
"""
STORE = """
UNWIND $rows AS row
MATCH (m:Message {uid: row.uid}) WHERE m.tenant = $tenant AND m.embed_claim = $claim
CALL db.create.setNodeVectorProperty(m, 'embedding', row.vector)  // float32: half of a list's
REMOVE m:MessageToEmbed, m.embed_claim, m.embed_claimed_at
RETURN count(m) AS n
"""
ANY_PENDING = """
RETURN EXISTS { MATCH (m:MessageToEmbed {tenant: $tenant}) } AS waiting
"""


def messages_embed_pending(scope: Scope, *, batch: int = 64, max_batches: int = 20) -> dict:
    """Embed up to `batch * max_batches` waiting messages that no other task holds; says how
    many and whether more wait. Idempotent, and never embeds a message twice at once."""
    done = 0
    for _ in range(max_batches):
        claim, rows = _claimed(scope, batch=batch)
        if not rows:
            return {"embedded": done, "more": False}
        done += _embedded(scope, claim, rows)
    return {"embedded": done, "more": True}


def messages_embed_listed(scope: Scope, *, uids: list[str]) -> dict:
    """Embed the listed messages that still wait and no other task holds (a batch append's),
    in one call of the model's batch encode and one write."""
    claim, rows = _claimed(scope, batch=len(uids), uids=uids)
    return {"embedded": _embedded(scope, claim, rows) if rows else 0}


def _claimed(scope: Scope, *, batch: int, uids: list[str] | None = None):
    claim = uuid.uuid4().hex
    rows = cypher.write(scope, CLAIM, claim=claim, batch=batch, uids=uids, lease=CLAIM_LEASE_S)
    return claim, rows


def _embedded(scope: Scope, claim: str, rows: list[dict]) -> int:
    vectors = get_embedder().embed([r["text"] for r in rows])
    pairs = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors, strict=True)]
    return cypher.write(scope, STORE, rows=pairs, claim=claim)[0]["n"]


def messages_waiting(scope: Scope) -> bool:
    """Whether any message of the tenant still waits for its vector (one index probe)."""
    return cypher.read(scope, ANY_PENDING)[0]["waiting"]
