"""Graph data for the resolution and review tests, written through the ingestion services as
the pipeline writes it: the document by `document_store`, each chunk with the resolution gate's
writes by `do_chunk_write` (in the caller's transaction) or `chunk_write` (in its own)."""

from __future__ import annotations

import uuid

from apps.graph.embeddings import get_embedder
from apps.ingestion.chunk_writes import ChunkRecord, chunk_write
from apps.ingestion.chunking import TextChunk
from apps.ingestion.dedup import content_hash
from apps.ingestion.services import document_store
from apps.resolution.gate import candidates_embed


def document_for(scope, text: str, *, title: str = "a document", source: str = "test") -> str:
    """The uid of the stored document holding `text` (the same one again for the same text)."""
    return document_store(scope, content=text, source=source, title=title,
                          size=len(text.encode())).uid  # fmt: skip


def chunk_record(document_uid: str, text: str) -> ChunkRecord:
    """A chunk of its own (outside the document's reading order, as agent-sent facts are)."""
    return ChunkRecord(
        uid=uuid.uuid4().hex,
        document_uid=document_uid,
        chunk=TextChunk(-1, text, 0, len(text), ()),
        text_hash=content_hash(text),
        embedding=get_embedder().embed([text])[0],
    )


def chunk_ingest(scope, text: str, candidates, relations=(), *, title: str = "a document",
                 source: str = "test") -> tuple[str, list]:  # fmt: skip
    """One chunk of `text` with its candidates, in one transaction; (document uid, receipts)."""
    document = document_for(scope, text, title=title, source=source)
    receipts = chunk_write(scope, record=chunk_record(document, text),
                           entities=candidates_embed(list(candidates)),
                           relations=list(relations))  # fmt: skip
    return document, receipts
