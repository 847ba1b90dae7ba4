"""Vectors for messages, off the request path: a worker reads the messages still marked
MessageToEmbed, embeds them in batches, and writes the vectors in one query per batch."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope

PENDING = """
MATCH (m:MessageToEmbed {tenant: $tenant})
RETURN m.uid AS uid, m.text AS text LIMIT $batch
"""
STORE = """
UNWIND $rows AS row
MATCH (m:Message {uid: row.uid}) WHERE m.tenant = $tenant
CALL db.create.setNodeVectorProperty(m, 'embedding', row.vector)  // float32: half of a list's
REMOVE m:MessageToEmbed
RETURN count(m) AS n
"""
LISTED = """
UNWIND $uids AS uid
MATCH (m:Message {uid: uid}) WHERE m.tenant = $tenant AND m:MessageToEmbed
RETURN m.uid AS uid, m.text AS text
"""
ANY_PENDING = """
RETURN EXISTS { MATCH (m:MessageToEmbed {tenant: $tenant}) } AS waiting
"""


def messages_embed_pending(scope: Scope, *, batch: int = 64, max_batches: int = 20) -> dict:
    """Embed up to `batch * max_batches` waiting messages; says how many and whether more wait.
    Idempotent: two workers on the same messages write the same vectors."""
    done = 0
    for _ in range(max_batches):
        rows = cypher.read(scope, PENDING, batch=batch)
        if not rows:
            return {"embedded": done, "more": False}
        done += _embedded(scope, rows)
    return {"embedded": done, "more": True}


def messages_embed_listed(scope: Scope, *, uids: list[str]) -> dict:
    """Embed the listed messages that still wait (a batch append's), in one call of the model's
    batch encode and one write. Idempotent like messages_embed_pending."""
    rows = cypher.read(scope, LISTED, uids=uids)
    return {"embedded": _embedded(scope, rows) if rows else 0}


def _embedded(scope: Scope, rows: list[dict]) -> int:
    vectors = get_embedder().embed([r["text"] for r in rows])
    pairs = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors, strict=True)]
    return cypher.write(scope, STORE, rows=pairs)[0]["n"]


def messages_waiting(scope: Scope) -> bool:
    """Whether any message of the tenant still waits for its vector (one index probe)."""
    return cypher.read(scope, ANY_PENDING)[0]["waiting"]
