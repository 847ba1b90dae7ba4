"""Found pages become evidence of a task (seed 000, Ingestion): the documents' chunking (100-500
characters), three duplicate layers, and strength from goal alignment.

- Layers, cheapest first: a page whose URL some evidence of the tenant already came from; a chunk
  whose normalized content hash is already evidence (or earlier in this request); a chunk whose
  embedding has a cosine of at least 0.95 to existing evidence (the `evidence_embedding` index,
  filtered to the tenant) or to a chunk earlier in this request. The same layers and constants
  as documents (apps/ingestion/dedup.py).
- Goal alignment (GA) is the cosine of the chunk to the task's own embedding, clamped to [0, 1]
  and softly gated: below the tenant's `evidence_ga_floor` it is scaled down by GA / floor rather
  than dropped. strength = 0.30 + GA x (0.95 - 0.30): weak chunks stay, near the floor.
"""

from __future__ import annotations

import numpy as np

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.ingestion.chunking import chunk_document
from apps.ingestion.dedup import (
    LAYER_HASH,
    LAYER_SEMANTIC,
    LAYER_URL,
    SEMANTIC_MIN_COSINE,
    content_hash,
)
from apps.tasks.services.evidence import (
    MAX_SOURCE_CHARS,
    MAX_URL_CHARS,
    do_evidence_write,
    similarity_soon,
)
from apps.tasks.services.task_writes import resolve_task_uid
from memoryproject.api_errors import ApplicationError
from memoryproject.refusals import refusal_recorded

MAX_PAGES = 20
MAX_PAGE_CHARS = 200_000
MAX_TOTAL_CHARS = 1_000_000
STRENGTH_FLOOR = 0.30
STRENGTH_CEILING = 0.95

GOAL = "MATCH (t:Task {tenant: $tenant, uid: $uid}) RETURN t.embedding AS embedding"
SEEN = """
RETURN [u IN $urls WHERE EXISTS { MATCH (:Evidence {tenant: $tenant, url: u}) }] AS urls,
       [h IN $hashes WHERE EXISTS { MATCH (:Evidence {tenant: $tenant, content_hash: h}) }]
         AS hashes
"""
NEAREST = """
CYPHER 25
UNWIND range(0, size($embeddings) - 1) AS i
WITH i, $embeddings[i] AS v
CALL (v) {
  MATCH (e:Evidence)
    SEARCH e IN (VECTOR INDEX evidence_embedding FOR v WHERE e.tenant = $tenant LIMIT 1)
    SCORE AS score
  RETURN e.uid AS uid, score
}
RETURN i, uid, score
"""


def soft_gate(alignment: float, floor: float) -> float:
    """1 at or above the floor; below it, down in proportion (never to zero before GA is)."""
    return 1.0 if floor <= 0 or alignment >= floor else alignment / floor


def alignment_strength(alignment: float, *, floor: float) -> float:
    """seed 000's linear rule: floor 0.30, ceiling 0.95, GA clamped and softly gated."""
    ga = min(max(alignment, 0.0), 1.0)
    ga *= soft_gate(ga, floor)
    return STRENGTH_FLOOR + ga * (STRENGTH_CEILING - STRENGTH_FLOOR)


def _pages(pages) -> list[dict]:
    if not isinstance(pages, list) or not 0 < len(pages) <= MAX_PAGES:
        raise ApplicationError(f"pages holds 1 to {MAX_PAGES} pages.", field="pages",
                               limit=MAX_PAGES)  # fmt: skip
    total = 0
    for page in pages:
        content, url = page.get("content"), page.get("url")
        if not isinstance(content, str) or not content.strip() or len(content) > MAX_PAGE_CHARS:
            raise ApplicationError(f"A page's content is 1 to {MAX_PAGE_CHARS} characters.",
                                   field="content", limit=MAX_PAGE_CHARS)  # fmt: skip
        if url is not None and (not isinstance(url, str) or not 0 < len(url) <= MAX_URL_CHARS):
            raise ApplicationError("url is too long.", field="url", limit=MAX_URL_CHARS)
        source = page.get("source")
        if source is not None and (not isinstance(source, str) or len(source) > MAX_SOURCE_CHARS):
            raise ApplicationError("source is too long.", field="source", limit=MAX_SOURCE_CHARS)
        total += len(content)
    if total > MAX_TOTAL_CHARS:
        raise ApplicationError(f"At most {MAX_TOTAL_CHARS} characters of pages per request.",
                               field="pages", limit=MAX_TOTAL_CHARS)  # fmt: skip
    return pages


@refusal_recorded("evidence_pages")
def check_pages_ingest(scope: Scope, *, task: str, pages: list[dict]) -> dict:
    """Chunk, deduplicate, score and store found pages as evidence PRODUCED by `task`:
    {created: [{id, uid, strength, url}], skipped: [{url, layer, position, duplicate_of}]}."""
    pages = _pages(pages)
    task_uid = resolve_task_uid(scope, task)
    floor = float(scope.setting("evidence_ga_floor"))
    skipped: list[dict] = []
    urls = [p["url"] for p in pages if p.get("url")]
    seen_urls = set(cypher.read(scope, SEEN, urls=urls, hashes=[])[0]["urls"]) if urls else set()
    chunks, batch_urls = [], set()
    for page in pages:
        url = page.get("url")
        if url and (url in seen_urls or url in batch_urls):
            skipped.append({"url": url, "layer": LAYER_URL, "position": None,
                            "duplicate_of": None})  # fmt: skip
            continue
        batch_urls.add(url)
        for piece in chunk_document(page["content"]):
            chunks.append({"url": url, "position": piece.position, "content": piece.text,
                           "content_hash": content_hash(piece.text),
                           "source": page.get("source") or url or "page"})  # fmt: skip
    hashes = [c["content_hash"] for c in chunks]
    known = set(cypher.read(scope, SEEN, urls=[], hashes=hashes)[0]["hashes"]) if hashes else set()
    fresh, batch_hashes = [], set()
    for chunk in chunks:
        if chunk["content_hash"] in known or chunk["content_hash"] in batch_hashes:
            skipped.append(_skip(chunk, LAYER_HASH))
            continue
        batch_hashes.add(chunk["content_hash"])
        fresh.append(chunk)
    vectors = np.array(get_embedder().embed([c["content"] for c in fresh]) or [], dtype=float)
    nearest = cypher.read(scope, NEAREST, embeddings=vectors.tolist()) if len(fresh) else []
    near = {r["i"]: r for r in nearest if r["uid"]}
    goal = np.array(cypher.read(scope, GOAL, uid=task_uid)[0]["embedding"] or [], dtype=float)
    rows, kept = [], []
    for i, chunk in enumerate(fresh):
        # Neo4j scores cosine similarity as (1 + cos) / 2.
        if i in near and 2 * near[i]["score"] - 1 >= SEMANTIC_MIN_COSINE:
            skipped.append({**_skip(chunk, LAYER_SEMANTIC), "duplicate_of": near[i]["uid"]})
            continue
        if kept and float(np.max(vectors[kept] @ vectors[i])) >= SEMANTIC_MIN_COSINE:
            skipped.append(_skip(chunk, LAYER_SEMANTIC))
            continue
        kept.append(i)
        alignment = float(goal @ vectors[i]) if goal.size else 0.0
        rows.append({**chunk, "embedding": vectors[i].tolist(),
                     "strength": round(alignment_strength(alignment, floor=floor), 4),
                     "alignment": alignment})  # fmt: skip
    made = []
    if rows:
        made = cypher.write_unit(
            scope, lambda stx: do_evidence_write(stx, scope, task_uid=task_uid, rows=rows)
        )
        similarity_soon(scope)
    created = [
        {**m, "strength": r["strength"], "alignment": round(r["alignment"], 4), "url": r["url"]}
        for m, r in zip(made, rows, strict=True)
    ]
    return {"created": created, "skipped": skipped}


def _skip(chunk: dict, layer: str) -> dict:
    return {"url": chunk["url"], "layer": layer, "position": chunk["position"],
            "duplicate_of": None}  # fmt: skip
