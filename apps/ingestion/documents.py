"""Storing a document an agent sends: checked, kept whole with its source, and unique per tenant
by URL and by content hash, so a re-sent page or a copy under another URL changes nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass

from neo4j.exceptions import ConstraintError

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.ingestion.dedup import LAYER_HASH, LAYER_URL, content_hash
from memoryproject.api_errors import ApplicationError

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
                      metadata: $metadata, agent: $agent, created_at: datetime()})
  RETURN d.uid AS created_uid
  UNION
  WITH by_url, by_hash WHERE by_url IS NOT NULL OR by_hash IS NOT NULL
  RETURN null AS created_uid
}
RETURN created_uid, by_url.uid AS url_uid, by_hash.uid AS hash_uid
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
) -> StoredDocument:
    """Stores the document unless one with the same URL or content hash exists (then returns
    that one). Caller has checked the fields (`validate_document_fields`)."""
    params = dict(
        source=source,
        title=title,
        url=url or None,
        content=content,
        hash=content_hash(content),
        metadata=json.dumps(metadata or {}),
        agent=scope.actor,
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


def document_text(scope: Scope, *, uid: str) -> dict | None:
    rows = cypher.read(
        scope,
        "MATCH (d:Document {tenant: $tenant, uid: $uid}) "
        "RETURN d.uid AS uid, d.content AS content, d.source AS source, d.agent AS agent",
        uid=uid,
    )
    return rows[0] if rows else None
