"""Writes of the ingestion app: documents (checked, stored once per tenant by URL and by content
hash, their ingestion queued or run inline) and agent-sent facts. The API and any page call
these; the Celery task calls `document_ingest_job_run`."""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from neo4j.exceptions import ConstraintError

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.ingestion.chunk_writes import ChunkRecord, chunk_write
from apps.ingestion.chunking import TextChunk
from apps.ingestion.dedup import LAYER_HASH, LAYER_URL, content_hash
from apps.ingestion.extraction import Extractor
from apps.ingestion.extraction.agent_facts import facts_extraction, validate_facts
from apps.ingestion.pipeline import document_ingest
from apps.resolution.candidates import Provenance
from apps.resolution.gate import candidates_embed
from apps.resolution.model_estimation import model_estimate_due
from apps.resolution.services import entities_resolve
from apps.review.collective_merges import collective_merges
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run
from memoryproject.api_errors import ApplicationError

JOB_KIND = "document_ingest"

MAX_SOURCE_CHARS = 200
MAX_TITLE_CHARS = 500
MAX_URL_CHARS = 2000
MAX_METADATA_BYTES = 10_000


@dataclass(frozen=True)
class StoredDocument:
    uid: str
    created: bool
    duplicate_layer: str | None  # url | content_hash when an existing document was found
    size: int  # bytes of UTF-8 content


STORE = """
OPTIONAL MATCH (by_url:Document {tenant: $tenant, url: $url})
OPTIONAL MATCH (by_hash:Document {tenant: $tenant, content_hash: $hash})
WITH by_url, by_hash
CALL (by_url, by_hash) {
  WITH by_url, by_hash WHERE by_url IS NULL AND by_hash IS NULL
  CREATE (d:Document {uid: randomUUID(), tenant: $tenant, source: $source, title: $title,
                      url: $url, content: $content, content_hash: $hash,
                      metadata: $metadata, agent: $agent, date: $date,
                      created_at: datetime()})
  RETURN d.uid AS created_uid
  UNION
  WITH by_url, by_hash WHERE by_url IS NOT NULL OR by_hash IS NOT NULL
  RETURN null AS created_uid
}
RETURN created_uid, by_url.uid AS url_uid, by_hash.uid AS hash_uid
"""


# Undoes a store whose ingestion could not be queued (nothing of it was read yet).
DROP_UNREAD = """
MATCH (d:Document {tenant: $tenant, uid: $uid}) USING INDEX SEEK d:Document(uid)
WHERE NOT EXISTS { (:Chunk)-[:PART_OF]->(d) }
DETACH DELETE d
"""


def validate_document_fields(scope: Scope, *, content: str, source: str, url: str | None) -> int:
    """Refuses what cannot be ingested; returns the content's size in bytes."""
    try:
        size = len(content.encode("utf-8"))
    except UnicodeEncodeError as exc:  # lone surrogates from a JSON \\ud800 escape
        raise ApplicationError(
            f"content is not valid Unicode at character {exc.start}.", field="content"
        ) from None
    if not content.strip():
        raise ApplicationError("content is empty.", field="content", code="empty")
    limit = scope.setting("max_document_bytes")
    if size > limit:
        raise ApplicationError(
            f"content is {size} bytes; the limit is {limit}.",
            field="content",
            limit=limit,
            code="too_large",
        )
    if not source.strip():
        raise ApplicationError("source is empty.", field="source", code="empty")
    return size


def document_store(
    scope: Scope,
    *,
    content: str,
    source: str,
    title: str | None = None,
    url: str | None = None,
    metadata: dict | None = None,
    size: int = 0,
    date: datetime.datetime | None = None,
) -> StoredDocument:
    """Stores the document unless one with the same URL or content hash exists (then returns
    that one). Caller has checked the fields (`validate_document_fields`); `date` (when what it
    says was true, apps.timeline.document_dates) is where its relations start."""
    params = dict(
        source=source,
        title=title,
        url=url or None,
        content=content,
        hash=content_hash(content),
        metadata=json.dumps(metadata or {}),
        agent=scope.actor,
        date=date,
    )
    for _ in range(3):  # a concurrent writer may take the URL or hash between match and create
        try:
            row = cypher.write(scope, STORE, **params)[0]
            break
        except ConstraintError:
            continue
    else:
        raise ApplicationError("The document could not be stored; retry.", status=409)
    if row["created_uid"]:
        return StoredDocument(row["created_uid"], True, None, size)
    if row["url_uid"]:
        return StoredDocument(row["url_uid"], False, LAYER_URL, size)
    return StoredDocument(row["hash_uid"], False, LAYER_HASH, size)


def check_document_submit(
    scope: Scope,
    *,
    content: str,
    source: str,
    title: str | None = None,
    url: str | None = None,
    metadata: dict | None = None,
    wait: bool = False,
    date: datetime.datetime | None = None,
) -> dict:
    """Stores the document and queues its ingestion (or, with `wait`, ingests it now if it is
    small enough). A document already stored under the same URL or content answers as a
    duplicate and changes nothing. With the broker down the document is not kept: a 503."""
    size = validate_document_fields(scope, content=content, source=source, url=url)
    inline_limit = scope.setting("max_inline_document_bytes")
    if wait and size > inline_limit:
        raise ApplicationError(
            f"wait=true ingests at most {inline_limit} bytes inline; send it without wait.",
            field="wait",
            limit=inline_limit,
            code="too_large_inline",
        )
    stored = document_store(
        scope, content=content, source=source, title=title, url=url, metadata=metadata,
        size=size, date=date,
    )  # fmt: skip
    if not stored.created:
        return {
            "document": stored.uid,
            "status": "duplicate",
            "job": None,
            "receipts": [
                {"kind": "document", "name": title or source, "action": "duplicate",
                 "layer": stored.duplicate_layer, "matched_uid": stored.uid}
            ],
        }  # fmt: skip
    job = job_create(scope, kind=JOB_KIND, subject=stored.uid)
    if wait:
        document_ingest_job_run(job)
        job.refresh_from_db()
        return {"document": stored.uid, "status": job.status, "job": job.uid, "result": job.result}
    from apps.ingestion.tasks import document_ingest

    def unstore() -> None:
        # Kept, the document would make its resend a "duplicate" that no worker ever reads.
        cypher.write(scope, DROP_UNREAD, uid=stored.uid)

    # A broker that cannot be reached: the document is dropped, the job recorded failed, and
    # the caller gets a 503 (job_enqueue).
    transaction.on_commit(lambda: job_enqueue(job, document_ingest, job.uid, undo=unstore))
    return {"document": stored.uid, "status": job.status, "job": job.uid}


def document_ingest_job_run(job: Job, *, extractor: Extractor | None = None) -> dict | None:
    """Runs (or re-runs) a document's ingestion job, progress and result on the job row, as the
    agent that sent it with the right to write memory (no more). Running it again after a crash
    finishes what is missing; a document that is gone fails the job."""
    return job_run(
        job.uid,
        lambda scope, progress: document_ingest(
            scope, document_uid=job.subject, extractor=extractor,
            progress=lambda counters: progress(**counters),
        ),
        actor="system:ingestion",
        permissions={KeyScope.MEMORY_WRITE},
        refusals={LookupError: "The document is gone."},
    )  # fmt: skip


# Entities an agent stated with no text: a document's deletion keeps them.
FACTS_NAMED = """
UNWIND $uids AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid}) USING INDEX SEEK e:Entity(uid)
SET e.named_by_facts = true
"""


def check_facts_submit(
    scope: Scope,
    *,
    entities: list[dict],
    relations: list[dict],
    source_text: str = "",
    source: str = "facts",
    title: str | None = None,
) -> dict:
    """Agent-sent entities and relations through the same resolution gate as extracted ones,
    all in one transaction. With a source text, it is kept as a document with one chunk that
    the mentions point into (under `source` and `title`); re-sending the same facts with the
    same text changes nothing."""
    validate_facts(entities, relations, limit=scope.setting("max_facts_per_request"))
    if source_text:
        size = validate_document_fields(scope, content=source_text, source=source, url=None)
    extraction = facts_extraction(entities, relations, source_text=source_text)
    if not source_text:
        receipts = entities_resolve(
            scope,
            entities=extraction.entities,
            relations=extraction.relations,
            provenance=Provenance(agent=scope.actor),
        )
        named = [r.entity_uid for r in receipts if r.kind == "entity" and r.entity_uid]
        if named:  # no document names them: deleting one that also does keeps them
            cypher.write(scope, FACTS_NAMED, uids=named)
        return {"document": None, "receipts": [r.as_dict() for r in receipts],
                "collective_merges": _collective(scope, receipts)}  # fmt: skip
    stored = document_store(scope, content=source_text, source=source, title=title, size=size)
    fingerprint = hashlib.sha256(
        json.dumps([entities, relations], sort_keys=True, default=str).encode()
    ).hexdigest()[:32]
    chunk = TextChunk(-1, source_text, 0, len(source_text), ())
    record = ChunkRecord(
        uid=hashlib.sha256(f"{stored.uid}:facts:{fingerprint}".encode()).hexdigest()[:32],
        document_uid=stored.uid,
        chunk=chunk,
        text_hash=content_hash(source_text),
        embedding=get_embedder().embed([source_text])[0],
    )
    receipts = chunk_write(
        scope,
        record=record,
        entities=candidates_embed(extraction.entities),
        relations=extraction.relations,
    )
    if receipts is None:
        return {
            "document": stored.uid,
            "receipts": [{"kind": "facts", "action": "duplicate", "layer": "content_hash",
                          "chunk_uid": record.uid}],
        }  # fmt: skip
    return {"document": stored.uid, "receipts": [r.as_dict() for r in receipts],
            "collective_merges": _collective(scope, receipts)}  # fmt: skip


def _collective(scope: Scope, receipts) -> list[dict]:
    """The pending pairs of the entities the call named again, scored again (collective
    resolution); the merges that made."""
    named = [r.entity_uid for r in receipts
             if r.kind == "entity" and r.action in ("merged", "unchanged")]  # fmt: skip
    merged = collective_merges(scope, entity_uids=named)
    model_estimate_due(scope)  # the tenant's model, when it has grown enough
    return [{k: m[k] for k in ("merge_uid", "survivor_uid", "merged_uid", "survivor_name",
                               "merged_name", "reason")} for m in merged]  # fmt: skip
