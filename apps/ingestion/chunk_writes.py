"""One chunk's changes in one transaction: the Chunk (PART_OF its document, NEXT from the chunk
before it) and the resolution gate's writes (entities, MENTIONS, RELATED_TO, SAME_AS) with their
provenance. The chunk's uid is derived from the document's uid and the chunk's position, and the
chunk is MERGEd on it: a job that died and is run again skips the chunks it had committed, so
mentions and weights are counted once."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.ingestion.chunking import TextChunk
from apps.resolution.candidates import EntityCandidate, Provenance, Receipt, RelationCandidate
from apps.resolution.entity_writes import do_resolve_and_write


def chunk_uid(document_uid: str, position: int) -> str:
    return hashlib.sha256(f"{document_uid}:{position}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class ChunkRecord:
    uid: str
    document_uid: str
    chunk: TextChunk
    text_hash: str
    embedding: list[float]


CHUNK_MERGE = """
MATCH (d:Document {tenant: $tenant, uid: $document})
MERGE (c:Chunk {uid: $uid})
ON CREATE SET c.tenant = $tenant, c.text = $text, c.content_hash = $hash, c.position = $position,
              c.start = $start, c.end = $end, c.section_path = $section_path,
              c.document_uid = $document, c.agent = $agent,
              c.created_at = datetime(), c.write_token = $token
WITH d, c, c.write_token = $token AS fresh
CALL (d, c, fresh) {
  WITH d, c WHERE fresh
  // Vectors are stored as float32 arrays (half of Cypher's float64 lists).
  CALL db.create.setNodeVectorProperty(c, 'embedding', $embedding)
  MERGE (c)-[:PART_OF]->(d)
  WITH c WHERE $position >= 0  // facts' chunks (position -1) stand outside the reading order
  // Insert into the NEXT chain between the nearest written neighbours, whatever order the
  // chunks were written in (a re-run may fill a gap left by a failed chunk).
  CALL (c) {
    OPTIONAL MATCH (p:Chunk {tenant: $tenant, document_uid: $document})
    WHERE p.position < $position
    RETURN p ORDER BY p.position DESC LIMIT 1
  }
  CALL (c) {
    OPTIONAL MATCH (n:Chunk {tenant: $tenant, document_uid: $document})
    WHERE n.position > $position
    RETURN n ORDER BY n.position ASC LIMIT 1
  }
  OPTIONAL MATCH (p)-[gap:NEXT]->(n)
  DELETE gap
  FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | MERGE (x)-[:NEXT]->(c))
  FOREACH (x IN CASE WHEN n IS NULL THEN [] ELSE [n] END | MERGE (c)-[:NEXT]->(x))
}
RETURN fresh
"""


def do_chunk_write(
    stx: ScopedTx,
    *,
    record: ChunkRecord,
    entities: list[EntityCandidate],
    relations: list[RelationCandidate],
) -> list[Receipt] | None:
    """Writes the chunk and its resolved candidates inside the caller's transaction; None when
    the chunk was already written (by an earlier run of the same job): then nothing changes."""
    # A token per attempt tells this transaction's MERGE from an earlier commit.
    token = uuid.uuid4().hex
    rows = stx.run(
        CHUNK_MERGE,
        document=record.document_uid,
        uid=record.uid,
        text=record.chunk.text,
        hash=record.text_hash,
        position=record.chunk.position,
        start=record.chunk.start,
        end=record.chunk.end,
        section_path=list(record.chunk.section_path),
        embedding=record.embedding,
        agent=stx.scope.actor,
        token=token,
    )
    if not rows:
        raise LookupError(f"document {record.document_uid} is gone")
    if not rows[0]["fresh"]:
        return None
    provenance = Provenance(
        agent=stx.scope.actor, document_uid=record.document_uid, chunk_uid=record.uid
    )
    return do_resolve_and_write(stx, entities=entities, relations=relations, provenance=provenance)


def chunk_write(
    scope: Scope,
    *,
    record: ChunkRecord,
    entities: list[EntityCandidate],
    relations: list[RelationCandidate],
) -> list[Receipt] | None:
    """`do_chunk_write` in a transaction of its own (one per chunk)."""
    return cypher.write_unit(
        scope,
        lambda stx: do_chunk_write(stx, record=record, entities=entities, relations=relations),
    )
