"""The three duplicate layers of ingestion: same URL and same content hash (checked when a
document is stored, and the hash again per chunk), then a chunk whose embedding has a cosine of
at least 0.95 to an existing chunk of the tenant (the `chunk_embedding` vector index).

A window of chunks is checked in two queries (its hashes, then its embeddings), and against
itself: a chunk repeating an earlier chunk of the same window is a duplicate too, as it would
have been had the earlier one been committed first."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass

import numpy as np

from apps.graph import cypher
from apps.graph.scope import Scope

SEMANTIC_MIN_COSINE = 0.95
LAYER_URL, LAYER_HASH, LAYER_SEMANTIC = "url", "content_hash", "semantic"
LAYER_WRITTEN = "written"


def content_hash(text: str) -> str:
    """Hash of the text with Unicode and whitespace normalized, so a re-sent copy matches."""
    normalized = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ChunkProbe:
    uid: str
    text_hash: str
    embedding: list[float]


CHUNKS_SEEN = """
UNWIND $rows AS row
OPTIONAL MATCH (own:Chunk {tenant: $tenant, uid: row.uid}) USING INDEX SEEK own:Chunk(uid)
CALL (own, row) {
  OPTIONAL MATCH (same:Chunk {tenant: $tenant, content_hash: row.hash})
  USING INDEX SEEK same:Chunk(content_hash)
  WHERE same.uid <> row.uid
  RETURN same.uid AS same_hash LIMIT 1
}
RETURN row.uid AS uid, own IS NOT NULL AS written, same_hash
"""

# The index keeps to the tenant's chunks itself; two, in case the nearest is this very chunk.
CHUNKS_NEAREST = """
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (c:Chunk)
    SEARCH c IN (VECTOR INDEX chunk_embedding FOR row.embedding WHERE c.tenant = $tenant LIMIT 2)
    SCORE AS score
  WITH c, score WHERE c.uid <> row.uid
  RETURN c.uid AS nearest, score ORDER BY score DESC LIMIT 1
}
RETURN row.uid AS uid, nearest, score
"""


def chunks_duplicate_layers(
    scope: Scope, probes: list[ChunkProbe]
) -> list[tuple[str | None, str | None]]:
    """Per probe, in order: ("written", uid) when this very chunk is already in the graph (a
    resumed job), a layer name and the earlier chunk's uid when it duplicates another chunk
    (of the graph, or earlier in `probes`), else (None, None). Two queries whatever the size."""
    if not probes:
        return []
    rows = [{"uid": p.uid, "hash": p.text_hash} for p in probes]
    seen = {row["uid"]: row for row in cypher.read(scope, CHUNKS_SEEN, rows=rows)}
    layers: list[tuple[str | None, str | None]] = []
    for probe in probes:
        row = seen[probe.uid]
        if row["written"]:
            layers.append((LAYER_WRITTEN, probe.uid))
        elif row["same_hash"]:
            layers.append((LAYER_HASH, row["same_hash"]))
        else:
            layers.append((None, None))
    open_ = [i for i, layer in enumerate(layers) if layer[0] is None]
    if open_:
        rows = [{"uid": probes[i].uid, "embedding": probes[i].embedding} for i in open_]
        nearest = {r["uid"]: r for r in cypher.read(scope, CHUNKS_NEAREST, rows=rows)}
        for i in open_:
            row = nearest.get(probes[i].uid)
            # Neo4j scores cosine similarity as (1 + cos) / 2.
            if row and 2 * row["score"] - 1 >= SEMANTIC_MIN_COSINE:
                layers[i] = (LAYER_SEMANTIC, row["nearest"])
    return _within_window(probes, layers)


def _within_window(probes, layers):
    """A chunk not yet caught that repeats an earlier kept chunk of the window (same hash, or
    a cosine >= SEMANTIC_MIN_COSINE; embeddings are unit length) is its duplicate."""
    kept: list[int] = []
    vectors = np.asarray([p.embedding for p in probes], dtype=np.float64)
    for i, (layer, _) in enumerate(layers):
        if layer is not None:
            continue
        same = next((k for k in kept if probes[k].text_hash == probes[i].text_hash), None)
        if same is not None:
            layers[i] = (LAYER_HASH, probes[same].uid)
            continue
        if kept:  # one product for the kept chunks (a window's pairs in Python took ~20 ms)
            cosines = vectors[kept] @ vectors[i]
            best = int(np.argmax(cosines))
            if cosines[best] >= SEMANTIC_MIN_COSINE:
                layers[i] = (LAYER_SEMANTIC, probes[kept[best]].uid)
                continue
        kept.append(i)
    return layers


def chunk_duplicate_layer(
    scope: Scope, *, uid: str, text_hash: str, embedding: list[float]
) -> tuple[str | None, str | None]:
    """`chunks_duplicate_layers` of one chunk."""
    return chunks_duplicate_layers(scope, [ChunkProbe(uid, text_hash, embedding)])[0]
