"""The ingestion of one document, chunk by chunk, with progress on its job:

chunk -> embed (batched) -> extract with the document's short-term state -> skip duplicates
(content hash, then a near-identical chunk) -> embed candidates -> one transaction per chunk
(chunk + resolution writes). Extraction runs on every chunk, written or not, so the short-term
state of a resumed run is the state an uninterrupted run had at the same chunk.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record
from apps.ingestion.chunk_writes import ChunkRecord, chunk_uid, chunk_write
from apps.ingestion.chunking import chunk_document, document_outline
from apps.ingestion.dedup import chunk_duplicate_layer, content_hash
from apps.ingestion.extraction import (
    Extraction,
    ExtractionFailed,
    Extractor,
    default_extractor,
)
from apps.ingestion.working_memory import WorkingMemory
from apps.resolution.gate import candidates_embed

log = logging.getLogger(__name__)
EMBED_BATCH = 32
MAX_RECEIPTS = 5000  # kept in the job's result; the counters stay exact beyond it

Progress = Callable[[dict], None]


def document_ingest(
    scope: Scope,
    *,
    document_uid: str,
    extractor: Extractor | None = None,
    progress: Progress | None = None,
) -> dict:
    """Ingests a stored document; idempotent (a second run, or a run after a crash, writes only
    the chunks not yet written). Returns the counters and the per-candidate receipts."""
    document = document_text(scope, uid=document_uid)
    if document is None:
        raise LookupError(f"No document {document_uid}")
    extractor = extractor or default_extractor()
    chunks = chunk_document(document["content"] or "")
    counts: Counter = Counter()
    receipts: list[dict] = []
    report = progress or (lambda _: None)
    report(_progress(counts, len(chunks)))

    state = WorkingMemory(document_outline(document["content"] or ""))
    for start in range(0, len(chunks), EMBED_BATCH):
        window = chunks[start : start + EMBED_BATCH]
        embeddings = get_embedder().embed([c.text for c in window])
        # Extraction runs in order over every chunk (it moves the short-term state); the
        # window's candidates are then embedded in one batch, outside any transaction.
        extractions = [_extract(scope, extractor, state, document_uid, c) for c in window]
        embedded = _candidates_embedded([e for e in extractions if not isinstance(e, str)])
        for chunk, embedding, extraction in zip(window, embeddings, extractions, strict=True):
            uid = chunk_uid(document_uid, chunk.position)
            chunk_receipt = {"kind": "chunk", "chunk_uid": uid, "position": chunk.position}
            if isinstance(extraction, str):
                counts["failures"] += 1
                _keep(receipts, {**chunk_receipt, "action": "refused", "reason": extraction})
            else:
                _chunk_ingest(
                    scope, counts, receipts, chunk_receipt,
                    ChunkRecord(uid, document_uid, chunk, content_hash(chunk.text), embedding),
                    extraction, embedded.pop(0),
                )  # fmt: skip
            report(_progress(counts, len(chunks)))
    result = {
        "document": document_uid,
        "extractor": extractor.name,
        **_progress(counts, len(chunks)),
        "receipts": receipts,
        "receipts_truncated": len(receipts) >= MAX_RECEIPTS,
    }
    return result


def _extract(scope, extractor, state, document_uid, chunk) -> Extraction | str:
    """The chunk's candidates, or the reason extraction failed (recorded as a WriteFailure)."""
    state.begin_chunk(chunk.section_path)
    try:
        return extractor.extract(chunk.text, state=state)
    except ExtractionFailed as exc:
        uid = chunk_uid(document_uid, chunk.position)
        write_failure_record(scope, kind="extraction", reason=f"chunk {uid}: {exc}")
        return str(exc)[:500]


def _candidates_embedded(extractions: list[Extraction]) -> list[list]:
    flat = candidates_embed([e for x in extractions for e in x.entities])
    out = []
    for extraction in extractions:
        out.append(flat[: len(extraction.entities)])
        flat = flat[len(extraction.entities) :]
    return out


def _chunk_ingest(scope, counts, receipts, chunk_receipt, record, extraction, entities) -> None:
    """Skip the chunk if written already or a duplicate; else write it with its candidates."""
    layer, existing = chunk_duplicate_layer(
        scope, uid=record.uid, text_hash=record.text_hash, embedding=record.embedding
    )
    if layer == "written":
        counts["resumed"] += 1
        _keep(receipts, {**chunk_receipt, "action": "unchanged", "reason": "already written"})
        return
    if layer:
        counts["duplicates"] += 1
        _keep(
            receipts,
            {**chunk_receipt, "action": "duplicate", "layer": layer, "matched_uid": existing},
        )
        return
    written = chunk_write(scope, record=record, entities=entities, relations=extraction.relations)
    if written is None:  # another run of this job committed it in the meantime
        counts["resumed"] += 1
        return
    counts["chunks_written"] += 1
    _keep(receipts, {**chunk_receipt, "action": "created"})
    for receipt in written:
        _count(counts, receipt.kind, receipt.action)
        _keep(receipts, {**receipt.as_dict(), "chunk_uid": record.uid})
    for ref in extraction.references:
        if ref.target:
            _keep(receipts, {"kind": "reference", "chunk_uid": record.uid, "action": "resolved",
                             "name": ref.phrase, "matched_name": ref.target})  # fmt: skip


def _count(counts: Counter, kind: str, action: str) -> None:
    if kind == "relation":
        counts["relations"] += 1
    elif action in ("created", "merged", "pending", "unchanged", "refused"):
        counts[f"entities_{action}"] += 1


def _keep(receipts: list[dict], receipt: dict) -> None:
    if len(receipts) < MAX_RECEIPTS:
        receipts.append(receipt)


def _progress(counts: Counter, total: int) -> dict:
    done = counts["chunks_written"] + counts["duplicates"] + counts["resumed"] + counts["failures"]
    return {
        "done": done,
        "total": total,
        "chunks_written": counts["chunks_written"],
        "entities_created": counts["entities_created"],
        "entities_merged": counts["entities_merged"],
        "entities_pending": counts["entities_pending"],
        "entities_unchanged": counts["entities_unchanged"],  # matched, nothing new to add
        "entities_refused": counts["entities_refused"],
        "relations": counts["relations"],
        "duplicates_skipped": counts["duplicates"],
        "resumed": counts["resumed"],
        "failures": counts["failures"],
    }


def document_text(scope: Scope, *, uid: str) -> dict | None:
    rows = cypher.read(
        scope,
        "MATCH (d:Document {tenant: $tenant, uid: $uid}) "
        "RETURN d.uid AS uid, d.content AS content, d.source AS source, d.agent AS agent",
        uid=uid,
    )
    return rows[0] if rows else None
