"""A chunk's changes, or a window of chunks' changes, in one transaction: the Chunk (PART_OF its
document, NEXT from the chunk before it) and the resolution gate's writes (entities, MENTIONS,
RELATED_TO, SAME_AS) with their provenance. The chunk's uid is derived from the document's uid
and the chunk's position, and the chunk is MERGEd on it: a job that died and is run again skips
the chunks it had committed, so mentions and weights are counted once.

In a window, the chunks are written in one query, each distinct (type, normalized name) goes
through the gate once for all its chunks (within one document one name is one entity), and the
mentions of every chunk are written in one query."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.ingestion.argument_writes import do_arguments_write
from apps.ingestion.arguments import ArgumentSpan
from apps.ingestion.chunking import TextChunk
from apps.resolution.candidates import (
    EntityCandidate,
    MentionSpan,
    Provenance,
    Receipt,
    RelationCandidate,
)
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.mention_writes import NO_OFFSET
from apps.resolution.relation_writes import do_relations_write_many
from apps.resolution.text_evidence import candidates_with_context, candidates_with_text_evidence
from apps.resolution.window_resolution import do_window_resolve


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
MATCH (d:Document {tenant: $tenant, uid: $document}) USING INDEX SEEK d:Document(uid)
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
    USING INDEX SEEK p:Chunk(document_uid)
    WHERE p.position < $position
    RETURN p ORDER BY p.position DESC LIMIT 1
  }
  CALL (c) {
    OPTIONAL MATCH (n:Chunk {tenant: $tenant, document_uid: $document})
    USING INDEX SEEK n:Chunk(document_uid)
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


def do_chunk_merge(stx: ScopedTx, record: ChunkRecord) -> bool:
    """MERGE the chunk into its document's reading order; False when it was already written
    (by an earlier or concurrent run of the same job): then nothing changed."""
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
    return bool(rows[0]["fresh"])


# A window's chunks in one query: each MERGEd on its uid as above; then, when any was new, the
# reading order over the window's span (from the nearest written chunk before it to the nearest
# after it) is relinked from the chunks that exist, so chunks skipped in the window (duplicates,
# failed extractions) and gaps left by an earlier run are bridged, and a replay changes nothing.
WINDOW_CHUNKS_MERGE = """
MATCH (d:Document {tenant: $tenant, uid: $document}) USING INDEX SEEK d:Document(uid)
UNWIND $chunks AS k
MERGE (c:Chunk {uid: k.uid})
ON CREATE SET c.tenant = $tenant, c.text = k.text, c.content_hash = k.hash,
              c.position = k.position, c.start = k.start, c.end = k.end,
              c.section_path = k.section_path, c.document_uid = $document, c.agent = $agent,
              c.created_at = datetime(), c.write_token = $token
WITH d, c, k, c.write_token = $token AS fresh
CALL (d, c, k, fresh) {
  WITH d, c, k WHERE fresh
  CALL db.create.setNodeVectorProperty(c, 'embedding', k.embedding)
  MERGE (c)-[:PART_OF]->(d)
}
WITH collect({uid: k.uid, fresh: fresh, placed: fresh AND k.position >= 0}) AS rows
CALL (rows) {
  WITH rows WHERE any(r IN rows WHERE r.placed)
  CALL () {
    OPTIONAL MATCH (p:Chunk {tenant: $tenant, document_uid: $document})
    USING INDEX SEEK p:Chunk(document_uid)
    WHERE 0 <= p.position < $lo
    RETURN p.position AS below ORDER BY below DESC LIMIT 1
  }
  CALL () {
    OPTIONAL MATCH (n:Chunk {tenant: $tenant, document_uid: $document})
    USING INDEX SEEK n:Chunk(document_uid)
    WHERE n.position > $hi
    RETURN n.position AS above ORDER BY above ASC LIMIT 1
  }
  MATCH (x:Chunk {tenant: $tenant, document_uid: $document}) USING INDEX SEEK x:Chunk(document_uid)
  WHERE coalesce(below, $lo) <= x.position <= coalesce(above, $hi)
  WITH x ORDER BY x.position
  WITH collect(x) AS line
  UNWIND range(0, size(line) - 2) AS i
  WITH line[i] AS a, line[i + 1] AS b
  MERGE (a)-[:NEXT]->(b)
  WITH a, b
  OPTIONAL MATCH (a)-[stray:NEXT]->(y) WHERE y <> b
  DELETE stray
}
RETURN rows
"""


def do_window_chunks_merge(stx: ScopedTx, records: list[ChunkRecord]) -> list[bool]:
    """MERGE one document's chunks into its reading order in one round trip; per chunk, False
    when it was already written (by an earlier or concurrent run of the same job)."""
    if not records:
        return []
    placed = [r.chunk.position for r in records if r.chunk.position >= 0]
    rows = stx.run(
        WINDOW_CHUNKS_MERGE,
        document=records[0].document_uid,
        agent=stx.scope.actor,
        token=uuid.uuid4().hex,  # tells this transaction's MERGEs from an earlier commit
        lo=min(placed, default=0),
        hi=max(placed, default=-1),
        chunks=[{"uid": r.uid, "text": r.chunk.text, "hash": r.text_hash,
                 "position": r.chunk.position, "start": r.chunk.start, "end": r.chunk.end,
                 "section_path": list(r.chunk.section_path), "embedding": r.embedding}
                for r in records],
    )  # fmt: skip
    if not rows or not rows[0]["rows"]:  # no Document of this tenant: nothing was written
        raise LookupError(f"document {records[0].document_uid} is gone")
    fresh = {row["uid"]: row["fresh"] for row in rows[0]["rows"]}
    return [bool(fresh[r.uid]) for r in records]


def do_chunk_write(
    stx: ScopedTx,
    *,
    record: ChunkRecord,
    entities: list[EntityCandidate],
    relations: list[RelationCandidate],
) -> list[Receipt] | None:
    """Writes the chunk and its resolved candidates inside the caller's transaction; None when
    the chunk was already written (by an earlier run of the same job): then nothing changes."""
    if not do_chunk_merge(stx, record):
        return None
    provenance = Provenance(
        agent=stx.scope.actor, document_uid=record.document_uid, chunk_uid=record.uid
    )
    return do_resolve_and_write(stx, entities=candidates_with_context(entities),
                                relations=relations, provenance=provenance,
                                text=record.chunk.text)  # fmt: skip


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


@dataclass(frozen=True)
class WindowChunk:
    """A chunk of a window with its candidates (embedded, offsets relative to the chunk)."""

    record: ChunkRecord
    entities: list[EntityCandidate]
    relations: list[RelationCandidate]
    arguments: tuple[ArgumentSpan, ...] = ()


WINDOW_MENTIONS = """
UNWIND $mentions AS m
MATCH (c:Chunk {tenant: $tenant, uid: m.chunk}) USING INDEX SEEK c:Chunk(uid)
MATCH (e:Entity {tenant: $tenant, uid: m.entity}) USING INDEX SEEK e:Entity(uid)
MERGE (c)-[r:MENTIONS {surface: m.surface, start: m.start, end: m.end}]->(e)
ON CREATE SET r.tenant = $tenant, r.created_at = datetime(), r.moved_by = m.moved_by
// An entity a dated document mentions existed by the document's date (apps.timeline).
WITH r, e, COLLECT { MATCH (d:Document {tenant: $tenant, uid: c.document_uid})
                     RETURN d.date }[0] AS dated
SET e.created_at = CASE WHEN dated < e.created_at THEN dated ELSE e.created_at END
RETURN count(r) AS n
"""


# The entities a document's written chunks already mention, by (type, normalized name or
# alias): a resumed run starts from them (within one document one name is one entity).
DOCUMENT_NAMES = """
MATCH (c:Chunk {tenant: $tenant, document_uid: $document})-[:MENTIONS]->(e)
USING INDEX SEEK c:Chunk(document_uid)
WHERE 'Entity' IN labels(e) AND e.tenant = $tenant AND e.status = 'active'
RETURN DISTINCT e.uid AS uid, e.type AS type, e.norm_name AS norm,
       coalesce(e.norm_aliases, []) AS norm_aliases
"""


def document_names(scope: Scope, *, document_uid: str) -> dict[tuple[str, str], str]:
    names: dict[tuple[str, str], str] = {}
    for row in cypher.read(scope, DOCUMENT_NAMES, document=document_uid):
        for norm in (row["norm"], *row["norm_aliases"]):
            names.setdefault((row["type"], norm), row["uid"])
    return names


def do_window_write(
    stx: ScopedTx, *, chunks: list[WindowChunk], seen: dict | None = None
) -> list[list[Receipt] | None]:
    """Writes the chunks of one document's window and their resolved candidates inside the
    caller's transaction; per chunk, its receipts (entities in input order, then relations),
    or None when it was already written. `seen` (document_names) learns the names resolved.
    Round trips: one for the chunks, then the window's gate (two lookups, one create, one absorb),
    one for all mentions, one for all relations, one graph-version bump."""
    seen = {} if seen is None else seen
    fresh = do_window_chunks_merge(stx, [c.record for c in chunks])
    # Each chunk's sentences give its candidates evidence: values, and the names beside them.
    flat = [(i, e) for i, c in enumerate(chunks) if fresh[i]
            for e in candidates_with_text_evidence(list(c.entities), c.record.chunk.text,
                                                   source=c.record.uid)]  # fmt: skip
    provenance = Provenance(agent=stx.scope.actor,
                            document_uid=chunks[0].record.document_uid if chunks else None)  # fmt: skip
    auto_merges: dict[int, str] = {}  # a mention the gate merged is marked as moved by it
    resolved, _ = do_window_resolve(
        stx, entities=[e for _, e in flat], provenance=provenance, seen=seen,
        auto_merges=auto_merges,
    )  # fmt: skip
    per_chunk: list[list[Receipt]] = [[] for _ in chunks]
    merged_by: list[dict[int, str]] = [{} for _ in chunks]  # per chunk, its candidate's merge
    mentions = []
    for n, ((i, candidate), receipt) in enumerate(zip(flat, resolved, strict=True)):
        if n in auto_merges:
            merged_by[i][len(per_chunk[i])] = auto_merges[n]
        per_chunk[i].append(receipt)
        if receipt.entity_uid is None:
            continue
        spans = candidate.mentions or (MentionSpan(candidate.name, NO_OFFSET, NO_OFFSET),)
        moved_by = [auto_merges[n]] if n in auto_merges else None
        mentions += [{"chunk": chunks[i].record.uid, "entity": receipt.entity_uid,
                      "surface": s.surface, "start": s.start, "end": s.end, "moved_by": moved_by}
                     for s in dict.fromkeys(spans)]  # fmt: skip
    if mentions:
        stx.run(WINDOW_MENTIONS, mentions=mentions)
    do_arguments_write(stx, [(c.record.uid, list(c.arguments))
                             for i, c in enumerate(chunks) if fresh[i] and c.arguments])  # fmt: skip
    related = [i for i, chunk in enumerate(chunks) if fresh[i] and chunk.relations]
    batches = [
        (chunks[i].relations, chunks[i].entities,
         {j: r.entity_uid for j, r in enumerate(per_chunk[i]) if r.entity_uid},
         Provenance(stx.scope.actor, chunks[i].record.document_uid, chunks[i].record.uid))
        for i in related
    ]  # fmt: skip
    merged = [merged_by[i] for i in related]
    written = do_relations_write_many(stx, batches, auto_merged=merged)
    for i, receipts in zip(related, written, strict=True):
        per_chunk[i] += receipts
    return [receipts if fresh[i] else None for i, receipts in enumerate(per_chunk)]


def window_write(
    scope: Scope, *, chunks: list[WindowChunk], seen: dict | None = None
) -> list[list[Receipt] | None]:
    """`do_window_write` in a transaction of its own (one per window, bounded by its caller);
    `seen` learns the window's names only once it committed (a retried attempt starts over)."""
    learned: dict = {}

    def work(stx: ScopedTx):
        learned.clear()
        learned.update(seen or {})
        return do_window_write(stx, chunks=chunks, seen=learned)

    written = cypher.write_unit(scope, work)
    if seen is not None:
        seen.update(learned)
    return written
