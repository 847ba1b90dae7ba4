"""Vectors for episode entries, off the request path, as messages get theirs: an entry with text
is stored with the label EntryToEmbed; a worker claims a batch of them under each entry's write
lock (so two tasks never embed one entry twice), embeds the batch in one call of the model and
writes the vectors in one query. A claim whose worker died lapses after CLAIM_LEASE_S."""

from __future__ import annotations

import logging
import threading
import time
import uuid

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from memoryproject.thread_pools import thread_pool

logger = logging.getLogger(__name__)
CLAIM_LEASE_S = 600
# The lock is taken first (a property read after the write lock is the committed one), then the
# label and the claim are checked again and the claim is set.
CLAIM = """
MATCH (en:EntryToEmbed {tenant: $tenant})
WHERE en.embed_claim IS NULL OR en.embed_claimed_at < datetime() - duration({seconds: $lease})
WITH en LIMIT $batch
SET en._embed_lock = true
REMOVE en._embed_lock
WITH en
WHERE en:EntryToEmbed
  AND (en.embed_claim IS NULL OR en.embed_claimed_at < datetime() - duration({seconds: $lease}))
SET en.embed_claim = $claim, en.embed_claimed_at = datetime()
RETURN en.uid AS uid, en.text AS text
"""
STORE = """
UNWIND $rows AS row
MATCH (en:Entry {uid: row.uid}) WHERE en.tenant = $tenant AND en.embed_claim = $claim
CALL db.create.setNodeVectorProperty(en, 'embedding', row.vector)
REMOVE en:EntryToEmbed, en.embed_claim, en.embed_claimed_at
RETURN count(en) AS n
"""
ANY_PENDING = "RETURN EXISTS { MATCH (en:EntryToEmbed {tenant: $tenant}) } AS waiting"


def entries_embed_pending(scope: Scope, *, batch: int = 64, max_batches: int = 20) -> dict:
    """Embed up to `batch * max_batches` waiting entries no other task holds: {"embedded": n,
    "more": whether entries still wait after a full last batch}. Idempotent; the caller holds
    the tenant's scope with the right to write memory."""
    done = taken = 0
    embedder = get_embedder()
    for _ in range(max_batches):
        claim = uuid.uuid4().hex
        rows = cypher.write(scope, CLAIM, claim=claim, batch=batch, lease=CLAIM_LEASE_S)
        if not rows:
            break
        taken += 1
        vectors = embedder.embed([r["text"] or "" for r in rows])
        pairs = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors, strict=True)]
        done += cypher.write(scope, STORE, rows=pairs, claim=claim)[0]["n"]
    more = taken == max_batches and entries_waiting(scope)
    return {"embedded": done, "more": more}


def entries_waiting(scope: Scope) -> bool:
    """Whether any entry of the tenant still waits for its vector (one index probe)."""
    return cypher.read(scope, ANY_PENDING)[0]["waiting"]


# Queued at most once per half second per tenant and process, to run a second later, so the
# entries of a burst are embedded by one task (as messages are, conversations.services).
EMBED_DEBOUNCE_S = 0.5
EMBED_DELAY_S = 1.0
_last_queued: dict[str, float] = {}
_lock = threading.Lock()


def entries_embedding_queue(tenant: str) -> None:
    """Queue the tenant's entry embedding, off the request's thread: a broker that is down must
    not fail an entry that committed (beat's sweep queues the tenant again while entries wait)."""
    now = time.monotonic()
    with _lock:
        if now - _last_queued.get(tenant, -1e9) < EMBED_DEBOUNCE_S:
            return
        _last_queued[tenant] = now
    thread_pool("publish", 1).submit(_published, tenant)


def _published(tenant: str) -> None:
    from apps.lessons import tasks

    try:
        tasks.entries_embed.apply_async((tenant,), countdown=EMBED_DELAY_S)
    except Exception:  # noqa: BLE001 - any broker failure: the sweep retries
        logger.warning("lessons.entries_embed not queued", exc_info=True)
