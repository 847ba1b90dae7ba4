"""The ingestion of one document, window by window, with progress on its job:

chunk -> per window of WINDOW chunks: extract (the extractor reads the window at once,
`parse_window`, while the short-term state still moves chunk by chunk) -> embed the chunks (on
the model's thread, beside the parse) and the candidates' names and descriptions (each distinct
text once, from a cache when seen before: `text_vectors`) -> skip duplicates (two queries for
the window: content hash, then a near-identical chunk, and within the window; on the writer's
thread while the model encodes the names) -> one transaction for the window (chunks, then the
batched gate: each distinct name once, its lookups, creates and merges in a few queries for the
window). Extraction runs on every chunk, written or not, so the short-term state of a resumed
run is the state an uninterrupted run had at the same chunk. A window commits whole or not at
all: a killed job run again skips the windows it had committed and writes nothing twice; the
names a document has resolved (`seen`) are read back from its written chunks when a run starts.
The transaction runs on a thread of its own beside the next window's parse and encode; the next
window's extraction waits for it (the names it wrote are matched from then on)."""

from __future__ import annotations

import contextvars
import logging
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

from django.conf import settings

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record
from apps.ingestion.chunk_writes import (
    ChunkRecord,
    WindowChunk,
    chunk_uid,
    document_names,
    window_write,
)
from apps.ingestion.chunking import chunk_document, document_outline
from apps.ingestion.dedup import LAYER_WRITTEN, ChunkProbe, chunks_duplicate_layers, content_hash
from apps.ingestion.extraction import (
    Extraction,
    ExtractionFailed,
    Extractor,
    default_extractor,
)
from apps.ingestion.extraction.known_names import known_names_learn
from apps.ingestion.llm_state import LlmState
from apps.ingestion.text_boundaries import TextBoundaries
from apps.ingestion.text_vectors import TextVectors, text_vectors
from apps.ingestion.working_memory import WorkingMemory
from apps.resolution.gate import candidates_and_texts_embed
from apps.resolution.model_estimation import model_estimate_due
from apps.review.collective_merges import collective_merges

log = logging.getLogger(__name__)
# Chunks per window: one embedding batch, one parse batch, one write transaction (bounded: at
# most 500 characters a chunk and the extractor's candidates).
EMBED_BATCH = 32
MAX_RECEIPTS = 5000  # kept in the job's result; the counters stay exact beyond it
TEXT_BOUNDARIES = True  # episodes found in the text besides the sections (bench: off to compare)

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
    chunks = chunk_document(document["content"] or "")
    windows = [chunks[s : s + EMBED_BATCH] for s in range(0, len(chunks), EMBED_BATCH)]
    vectors = text_vectors()
    encoding = vectors.submit([c.text for c in windows[0]]) if windows else None
    extractor = extractor or default_extractor()
    bind = getattr(extractor, "for_scope", None)  # an extractor that reads the tenant's names
    reader = bind(scope) if bind else extractor
    counts: Counter = Counter()
    receipts: list[dict] = []
    report = progress or (lambda _: None)
    report(_progress(counts, len(chunks)))

    outline = document_outline(document["content"] or "")
    # An extractor that returns the state (the LLM's) gets one that adopts it; else the rules'.
    returns = getattr(extractor, "returns_state", False)
    state = LlmState(outline) if returns else WorkingMemory(outline)
    boundaries = TextBoundaries() if TEXT_BOUNDARIES else None
    # Window k is written on this thread while window k+1 is parsed here and its chunks encoded
    # on the model's; windows are still written one after the other, in order, and window
    # k+1 is read (extraction, duplicate checks) only after window k committed.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-write") as writer:
        # A resumed run's names so far, read on the writer's thread beside the first parse.
        seen = _on(writer, partial(document_names, scope, document_uid=document_uid))
        writing = None
        for k, window in enumerate(windows):
            parsed = _window_parse(reader, window)
            if writing is not None:
                _window_done(scope, writing.result(), counts, receipts)
                report(_progress(counts, len(chunks)))
            # The window's chunk vectors place its episode boundaries before it is read.
            shifts = (boundaries.feed([c.text for c in window], encoding.result())
                      if boundaries else [False] * len(window))  # fmt: skip
            extractions = _window_extract(
                scope, reader, state, document_uid, window, parsed, shifts
            )
            records = _window_records(document_uid, window, encoding.result())
            # The duplicate checks run on the writer's thread (after window k-1's commit)
            # while the model encodes the candidates' names.
            probing = _on(writer, chunks_duplicate_layers, scope, [_probe(r) for r in records])
            embedded = _candidates_embed(extractions, vectors)
            if k + 1 < len(windows):
                encoding = vectors.submit([c.text for c in windows[k + 1]])
            writing = _on(
                writer, _window_write, scope, records, extractions, embedded, probing, seen
            )
        if writing is not None:
            _window_done(scope, writing.result(), counts, receipts)
            report(_progress(counts, len(chunks)))
    # The entities the document named again have more neighbours now: their pending pairs
    # are scored again (collective resolution).
    named = [r.get("entity_uid") for r in receipts
             if r.get("kind") == "entity" and r.get("action") in ("merged", "unchanged")]  # fmt: skip
    collective = collective_merges(scope, entity_uids=named)
    estimated = model_estimate_due(scope)  # the tenant's model, when it has grown enough
    result = {
        "document": document_uid,
        "extractor": extractor.name,
        **_progress(counts, len(chunks)),
        "state": {"kind": "llm", "adopted": state.adopted, "fallbacks": state.fallbacks}
        if returns else {"kind": "rules"},
        "receipts": receipts,
        "receipts_truncated": len(receipts) >= MAX_RECEIPTS,
        "collective_merges": [{k: m[k] for k in ("merge_uid", "survivor_uid", "merged_uid",
                                                 "survivor_name", "merged_name", "reason")}
                              for m in collective],
        "model_estimated": estimated,
    }  # fmt: skip
    return result


def _candidates_embed(extractions, vectors: TextVectors) -> dict[int, list]:
    """Each readable chunk's candidates, embedded (names and descriptions from the cache when
    they were encoded before)."""
    readable = [i for i, x in enumerate(extractions) if not isinstance(x, str)]
    flat, _ = candidates_and_texts_embed(
        [e for i in readable for e in extractions[i].entities], [], embed=vectors.names_embed
    )
    embedded = {}
    for i in readable:
        embedded[i], flat = (
            flat[: len(extractions[i].entities)],
            flat[len(extractions[i].entities) :],
        )
    return embedded


def _on(writer: ThreadPoolExecutor, fn, *args) -> Future:
    """`fn(*args)` on the writer's thread, in this context (a caller's count_round_trips sees
    its queries)."""
    return writer.submit(contextvars.copy_context().run, fn, *args)


def _window_records(document_uid, window, embeddings) -> list[ChunkRecord]:
    return [ChunkRecord(chunk_uid(document_uid, c.position), document_uid, c, content_hash(c.text), e)
            for c, e in zip(window, embeddings, strict=True)]  # fmt: skip


def _probe(record: ChunkRecord) -> ChunkProbe:
    return ChunkProbe(record.uid, record.text_hash, record.embedding)


def _window_write(scope, records, extractions, embedded, probing, seen):
    """The window's transaction (on the writer's thread, after its duplicate checks); `seen`
    holds the document's names (one dict for all its windows, which learn theirs)."""
    seen = seen.result()
    readable = list(embedded)
    layers = probing.result()
    if len(readable) < len(records):  # a chunk that failed extraction is no earlier chunk
        layers = chunks_duplicate_layers(scope, [_probe(records[i]) for i in readable])
    layers = dict(zip(readable, layers, strict=True))
    todo = [i for i in readable if layers[i][0] is None]
    chunks = [WindowChunk(records[i], embedded[i], extractions[i].relations,
                          tuple(extractions[i].arguments)) for i in todo]  # fmt: skip
    step = settings.INGEST_COMMIT_CHUNKS  # chunks per transaction (1: each chunk committed)
    written = [r for s in range(0, len(chunks), step)
               for r in window_write(scope, chunks=chunks[s : s + step], seen=seen)]  # fmt: skip
    outcome = dict(zip(todo, written, strict=True))
    return records, extractions, embedded, layers, outcome


def _window_done(scope, written, counts, receipts) -> None:
    """A committed window's names learned by the extractor, its counters and receipts."""
    records, extractions, embedded, layers, outcome = written
    # A chunk's receipts are its entities' in order, then its relations'.
    # A firm's name a merge added ('Pelagos Shipping S.A.' into 'Pelagos') is the firm's alias,
    # and its name without the legal form is matched from the next window on, as a rebuilt cache
    # would (known_names).
    known_names_learn(scope.tenant, [
        (c.name, c.type, list(c.aliases)) if r.action != "merged"
        else (r.matched_name, c.type, [c.name, *c.aliases])
        for i in outcome for c, r in zip(embedded[i], outcome[i] or (), strict=False)
        if r.action in ("created", "pending")
        or r.action == "merged" and c.type == "Organization" and r.matched_name
    ])  # fmt: skip
    for i, record in enumerate(records):
        chunk_receipt = {
            "kind": "chunk",
            "chunk_uid": record.uid,
            "position": record.chunk.position,
        }
        if isinstance(extractions[i], str):
            counts["failures"] += 1
            _keep(receipts, {**chunk_receipt, "action": "refused", "reason": extractions[i]})
        elif layers[i][0] == LAYER_WRITTEN:
            counts["resumed"] += 1
            _keep(receipts, {**chunk_receipt, "action": "unchanged", "reason": "already written"})
        elif layers[i][0]:
            counts["duplicates"] += 1
            _keep(receipts, {**chunk_receipt, "action": "duplicate", "layer": layers[i][0],
                             "matched_uid": layers[i][1]})  # fmt: skip
        elif outcome[i] is None:  # another run of this job committed it in the meantime
            counts["resumed"] += 1
        else:
            _chunk_receipts(counts, receipts, chunk_receipt, extractions[i], outcome[i])


def _window_parse(extractor, window) -> list:
    """The window parsed in one batch when the extractor can (`parse_window`)."""
    parse = getattr(extractor, "parse_window", None)
    return parse([c.text for c in window]) if parse else [None] * len(window)


def _window_extract(
    scope, extractor, state, document_uid, window, parsed, shifts
) -> list[Extraction | str]:
    """Each chunk's candidates, or the reason extraction failed (recorded as a WriteFailure);
    the short-term state moves chunk by chunk."""
    out: list[Extraction | str] = []
    for chunk, doc, shift in zip(window, parsed, shifts, strict=True):
        state.begin_chunk(chunk.section_path, boundary=shift)
        try:
            if doc is None:
                out.append(extractor.extract(chunk.text, state=state))
            else:
                out.append(extractor.extract(chunk.text, state=state, parsed=doc))
        except ExtractionFailed as exc:
            uid = chunk_uid(document_uid, chunk.position)
            write_failure_record(scope, kind="extraction", reason=f"chunk {uid}: {exc}")
            out.append(str(exc)[:500])
    return out


def _chunk_receipts(counts, receipts, chunk_receipt, extraction, written) -> None:
    counts["chunks_written"] += 1
    _keep(receipts, {**chunk_receipt, "action": "created"})
    for receipt in written:
        _count(counts, receipt.kind, receipt.action)
        _keep(receipts, {**receipt.as_dict(), "chunk_uid": chunk_receipt["chunk_uid"]})
    for ref in extraction.references:
        if ref.target:
            _keep(receipts, {"kind": "reference", "chunk_uid": chunk_receipt["chunk_uid"],
                             "action": "resolved", "name": ref.phrase,
                             "matched_name": ref.target})  # fmt: skip


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
