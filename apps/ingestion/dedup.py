"""The three duplicate layers of ingestion: same URL and same content hash (checked when a
document is stored, and the hash again per chunk), then a chunk whose embedding has a cosine of
at least 0.95 to an existing chunk of the tenant (the `chunk_embedding` vector index)."""

from __future__ import annotations

import hashlib
import unicodedata

from apps.graph import cypher
from apps.graph.scope import Scope

SEMANTIC_MIN_COSINE = 0.95
LAYER_URL, LAYER_HASH, LAYER_SEMANTIC = "url", "content_hash", "semantic"


def content_hash(text: str) -> str:
    """Hash of the text with Unicode and whitespace normalized, so a re-sent copy matches."""
    normalized = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()


CHUNK_SEEN = """
OPTIONAL MATCH (own:Chunk {tenant: $tenant, uid: $uid})
CALL (own) {
  OPTIONAL MATCH (same:Chunk {tenant: $tenant, content_hash: $hash})
  WHERE same.uid <> $uid
  RETURN same.uid AS same_hash LIMIT 1
}
RETURN own IS NOT NULL AS written, same_hash
"""

# The index keeps to the tenant's chunks itself; two, in case the nearest is this very chunk.
CHUNK_NEAREST = """
CYPHER 25
MATCH (c:Chunk)
  SEARCH c IN (VECTOR INDEX chunk_embedding FOR $embedding WHERE c.tenant = $tenant LIMIT 2)
  SCORE AS score
WITH c, score WHERE c.uid <> $uid
RETURN c.uid AS uid, score ORDER BY score DESC LIMIT 1
"""


def chunk_duplicate_layer(
    scope: Scope, *, uid: str, text_hash: str, embedding: list[float]
) -> tuple[str | None, str | None]:
    """("written", uid) when this very chunk is already in the graph (a resumed job), a layer
    name and the existing chunk's uid when it duplicates another chunk, else (None, None)."""
    seen = cypher.read(scope, CHUNK_SEEN, uid=uid, hash=text_hash)[0]
    if seen["written"]:
        return "written", uid
    if seen["same_hash"]:
        return LAYER_HASH, seen["same_hash"]
    rows = cypher.read(scope, CHUNK_NEAREST, embedding=embedding, uid=uid)
    # Neo4j scores cosine similarity as (1 + cos) / 2.
    if rows and 2 * rows[0]["score"] - 1 >= SEMANTIC_MIN_COSINE:
        return LAYER_SEMANTIC, rows[0]["uid"]
    return None, None
