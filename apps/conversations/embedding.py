"""Vectors for messages, off the request path: a worker claims messages still marked
MessageToEmbed, embeds a claimed batch in one call of the model, and writes the vectors in one
query per batch.

A claim is a marker set under the message's write lock in one query, so two tasks on the same
tenant (a batch's task and the sweep's, or a redelivered one) never embed a message twice: the
second waits on the lock, then sees the marker and skips the message. A claim whose worker died
lapses after CLAIM_LEASE_S and the message is claimed again.
"""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope

CLAIM_LEASE_S = 600
LISTED_PART = 250  # a batch append's messages are encoded and written in parts of this many
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
    many, whether more wait and, when it embedded any, where the time went (encode_s in the
    model, write_s waiting for writes after it). Idempotent, never embeds a message twice."""
    taken = 0

    def parts():
        nonlocal taken
        for _ in range(max_batches):
            claim, rows = _claimed(scope, batch=batch)
            if not rows:
                return
            taken += 1
            yield claim, rows

    spent: dict = {}
    done = _embedded_in_turn(scope, parts(), spent)
    # A full last part says nothing of what is left: ask, so no task is queued for nothing.
    more = taken == max_batches and messages_waiting(scope)
    return {"embedded": done, "more": more, **_rounded(spent)}


def messages_embed_listed(scope: Scope, *, uids: list[str]) -> dict:
    """Embed the listed messages that still wait and no other task holds (a batch append's),
    claimed at once, encoded and written in parts of LISTED_PART; the result as above."""
    claim, rows = _claimed(scope, batch=len(uids), uids=uids)
    spent: dict = {}
    parts = ((claim, rows[i : i + LISTED_PART]) for i in range(0, len(rows), LISTED_PART))
    done = _embedded_in_turn(scope, parts, spent)
    return {"embedded": done, **_rounded(spent)}


def _rounded(spent: dict) -> dict:
    return {key: round(value, 3) for key, value in spent.items()}


def _claimed(scope: Scope, *, batch: int, uids: list[str] | None = None):
    claim = uuid.uuid4().hex
    rows = cypher.write(scope, CLAIM, claim=claim, batch=batch, uids=uids, lease=CLAIM_LEASE_S)
    return claim, rows


def _embedded_in_turn(scope: Scope, parts, spent: dict) -> int:
    """Each claimed part encoded by the model, then written on a thread of its own while the
    model encodes the next part (and the next is claimed): Neo4j inserts a part's vectors into
    the HNSW graph at commit, and that work overlaps the model's instead of following it."""
    done, writing = 0, None
    embedder = get_embedder()
    with ThreadPoolExecutor(1, thread_name_prefix="embedding-write") as writer:
        for claim, rows in parts:
            started = time.perf_counter()
            vectors = embedder.embed([r["text"] for r in rows])
            encoded = time.perf_counter()
            spent["encode_s"] = spent.get("encode_s", 0.0) + encoded - started
            if writing is not None:
                done += writing.result()
                spent["write_s"] = spent.get("write_s", 0.0) + time.perf_counter() - encoded
            pairs = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors, strict=True)]
            writing = writer.submit(copy_context().run, _stored, scope, claim, pairs)
        if writing is not None:
            waited = time.perf_counter()
            done += writing.result()
            spent["write_s"] = spent.get("write_s", 0.0) + time.perf_counter() - waited
    return done


def _stored(scope: Scope, claim: str, pairs: list[dict]) -> int:
    return cypher.write(scope, STORE, rows=pairs, claim=claim)[0]["n"]


def messages_waiting(scope: Scope) -> bool:
    """Whether any message of the tenant still waits for its vector (one index probe)."""
    return cypher.read(scope, ANY_PENDING)[0]["waiting"]
