"""Found pages become evidence of a task (seed 000, Ingestion), as a job with progress: the
documents' chunking (100-500 characters), three duplicate layers, and strength from goal
alignment.

- The request checks the pages, stages them in the graph (a PageStage node each, in order) and
  queues the job (202); the worker takes them one at a time: a page is written, and its stage
  deleted, in one transaction, so a redelivered job only does the pages left, and the job's
  progress counts pages (its created and skipped lists grow as it goes).
- Layers, cheapest first: a page whose URL some evidence of the tenant already came from, or
  another ingest already took; a chunk whose normalized content hash is already evidence (or
  earlier in the page); a chunk whose embedding has a cosine of at least 0.95 to existing
  evidence (the `evidence_embedding` index, filtered to the tenant) or to a chunk earlier in
  the page. Pages of one job go in order, each committed before the next, so a later page meets
  an earlier one's chunks in the graph. The same layers and constants as documents
  (apps/ingestion/dedup.py).
- Two ingests of one URL at once (two jobs, two workers): the write claims the URL first with a
  MERGE on an EvidenceUrl node, unique per tenant and URL (constraint `evidence_url_claim`):
  the second waits for the first to commit, finds the URL taken and skips the page; the
  content hashes are read again under that claim, so a chunk committed meanwhile is skipped
  too.
- Goal alignment (GA) is the cosine of the chunk to the task's own embedding, clamped to [0, 1]
  and softly gated by the page's GA: below the tenant's `evidence_ga_floor` it is scaled down by
  page GA / floor rather than dropped. strength = 0.30 + GA x (0.95 - 0.30): weak chunks stay,
  near the floor. The page's embedding (seed 000) is the position-weighted mean of its chunks'
  (w_i = 1 / sqrt(i + 1), i the chunk's position, L2-normalised), so the opening counts most;
  it is kept on the page's first written chunk, and a page whose embedding has a cosine of at
  least 0.95 to one the task already has is skipped whole (layer `page`): a paraphrase of a
  page already read.
"""

from __future__ import annotations

import uuid

import numpy as np

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
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
from apps.tasks.services.short_ids import short_id_write
from apps.tasks.services.task_writes import resolve_task_uid
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run
from memoryproject.api_errors import ApplicationError
from memoryproject.refusals import refusal_recorded

MAX_PAGES = 20
MAX_PAGE_CHARS = 200_000
MAX_TOTAL_CHARS = 1_000_000
STRENGTH_FLOOR = 0.30
STRENGTH_CEILING = 0.95

JOB_KIND = "evidence_pages"
GOAL = "MATCH (t:Task {tenant: $tenant, uid: $uid}) RETURN t.embedding AS embedding"
SEEN = """
RETURN [u IN $urls WHERE EXISTS { MATCH (:Evidence {tenant: $tenant, url: u}) }] AS urls,
       [h IN $hashes WHERE EXISTS { MATCH (:Evidence {tenant: $tenant, content_hash: h}) }]
         AS hashes
"""
STAGE = """
UNWIND $pages AS p
CREATE (:PageStage {uid: randomUUID(), tenant: $tenant, job: $job, task_uid: $task, seq: p.seq,
                    url: p.url, source: p.source, content: p.content, created_at: datetime()})
"""
NEXT_PAGE = """
MATCH (s:PageStage {tenant: $tenant, job: $job})
RETURN s.uid AS uid, s.seq AS seq, s.task_uid AS task, s.url AS url, s.source AS source,
       s.content AS content
ORDER BY s.seq LIMIT 1
"""
UNSTAGE = "MATCH (s:PageStage {tenant: $tenant, job: $job}) DETACH DELETE s"
# Deleting the stage first locks it: a second worker on the same page waits, then finds it gone.
TAKE = """
OPTIONAL MATCH (s:PageStage {uid: $uid}) WHERE s.tenant = $tenant
DETACH DELETE s
RETURN count(s) AS taken
"""
# The URL's claim: MERGE under the unique constraint waits for a concurrent claim to commit.
# Ours when this transaction made it and no evidence (a single finding) came from it before.
CLAIM_URL = """
MERGE (u:EvidenceUrl {tenant: $tenant, url: $url})
ON CREATE SET u.uid = randomUUID(), u.claim = $claim, u.created_at = datetime()
RETURN u.claim = $claim AND NOT EXISTS { MATCH (:Evidence {tenant: $tenant, url: $url}) } AS ours
"""
LAYER_PAGE = "page"
PAGES_OF_TASK = """
MATCH (e:Evidence {tenant: $tenant, task_uid: $task}) WHERE e.page_embedding IS NOT NULL
RETURN e.uid AS uid, e.page_embedding AS embedding
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


def alignment_strength(alignment: float, *, floor: float, gate: float | None = None) -> float:
    """seed 000's linear rule: floor 0.30, ceiling 0.95, GA clamped and softly gated (by
    `gate`, the page's GA, when given; else by the chunk's own)."""
    ga = min(max(alignment, 0.0), 1.0)
    ga *= soft_gate(ga if gate is None else min(max(gate, 0.0), 1.0), floor)
    return STRENGTH_FLOOR + ga * (STRENGTH_CEILING - STRENGTH_FLOOR)


def page_embedding(vectors: np.ndarray, positions: list[int]) -> np.ndarray:
    """seed 000's page vector: sum of w_i v_i, w_i = 1 / sqrt(position + 1), L2-normalised."""
    weights = 1.0 / np.sqrt(np.asarray(positions, dtype=float) + 1.0)
    total = weights @ vectors
    return total / (np.linalg.norm(total) or 1.0)


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
def check_pages_ingest_start(scope: Scope, *, task: str, pages: list[dict]) -> Job:
    """Check the pages, stage them and queue the job that ingests them as evidence PRODUCED by
    `task`. The job's result (and its progress as it goes): {created: [{id, uid, strength,
    alignment, url}], skipped: [{url, layer, position, duplicate_of}]}. A work queue that cannot
    be reached leaves nothing staged (503, job_enqueue)."""
    pages = _pages(pages)
    task_uid = resolve_task_uid(scope, task)
    job = job_create(scope, kind=JOB_KIND, subject=task_uid, total=len(pages))
    staged = [{"seq": i, "url": p.get("url"), "source": p.get("source"), "content": p["content"]}
              for i, p in enumerate(pages)]  # fmt: skip
    cypher.write(scope, STAGE, pages=staged, job=job.uid, task=task_uid)
    from apps.tasks import tasks

    job_enqueue(job, tasks.pages_ingest, job.uid,
                undo=lambda: cypher.write(scope, UNSTAGE, job=job.uid))  # fmt: skip
    return job


def pages_ingest_run(*, job_uid: str) -> dict | None:
    """The worker's side: the job's staged pages in order, progress after each. A task that
    finished (or went) meanwhile ends the job failed, its pages left unstaged."""

    def work(scope: Scope, progress) -> dict:
        so_far = Job.objects.get(uid=job_uid).progress
        created, skipped = so_far.get("created", []), so_far.get("skipped", [])
        while found := cypher.read(scope, NEXT_PAGE, job=job_uid):
            page = found[0]
            try:
                out = page_ingest(scope, task_uid=page["task"], page=page, stage=page["uid"])
            except ApplicationError:
                cypher.write(scope, UNSTAGE, job=job_uid)
                raise
            created, skipped = created + out["created"], skipped + out["skipped"]
            progress(done=page["seq"] + 1, created=created, skipped=skipped)
        return {"created": created, "skipped": skipped}

    return job_run(job_uid, work, actor="system:pages", permissions={KeyScope.MEMORY_WRITE},
                   refusals={ApplicationError: "The task is finished or gone: a finished task "
                             "produces no more evidence; its pages were not ingested."})  # fmt: skip


def page_ingest(scope: Scope, *, task_uid: str, page: dict, stage: str | None = None) -> dict:
    """One page through the three layers into evidence of the task (and its stage, when
    given, deleted in the same transaction): {created, skipped} as in the job's result."""
    url = page.get("url")
    if url and cypher.read(scope, SEEN, urls=[url], hashes=[])[0]["urls"]:
        chunks, skipped = [], [{"url": url, "layer": LAYER_URL, "position": None,
                                "duplicate_of": None}]  # fmt: skip
    else:
        chunks, skipped = _chunks(page), []
    rows, late = _scored_rows(scope, task_uid, chunks, skipped), []

    def work(stx: ScopedTx):
        late.clear()
        if stage and not stx.run(TAKE, uid=stage)[0]["taken"]:
            return None  # another worker wrote this page
        if url and chunks and not stx.run(CLAIM_URL, url=url, claim=uuid.uuid4().hex)[0]["ours"]:
            late.append({"url": url, "layer": LAYER_URL, "position": None, "duplicate_of": None})
            return []
        hashes = [r["content_hash"] for r in rows]
        known = set(stx.run(SEEN, urls=[], hashes=hashes)[0]["hashes"]) if hashes else set()
        late.extend(_skip(r, LAYER_HASH) for r in rows if r["content_hash"] in known)
        keep = [r for r in rows if r["content_hash"] not in known]
        made = do_evidence_write(stx, scope, task_uid=task_uid, rows=keep) if keep else []
        return list(zip(made, keep, strict=True))

    written = short_id_write(scope, work)
    if written is None:
        return {"created": [], "skipped": []}
    if written:
        similarity_soon(scope)
    if late and late[0]["layer"] == LAYER_URL:
        skipped = late  # the whole page went to the ingest that claimed its URL first
    else:
        skipped += late
    created = [{**m, "strength": r["strength"], "alignment": round(r["alignment"], 4),
                "url": r["url"]} for m, r in written]  # fmt: skip
    return {"created": created, "skipped": skipped}


def _chunks(page: dict) -> list[dict]:
    url = page.get("url")
    return [{"url": url, "position": piece.position, "content": piece.text,
             "content_hash": content_hash(piece.text),
             "source": page.get("source") or url or "page"}
            for piece in chunk_document(page["content"])]  # fmt: skip


def _scored_rows(scope: Scope, task_uid: str, chunks: list[dict], skipped: list) -> list[dict]:
    """The chunks past the hash and meaning layers (the rest added to `skipped`), embedded and
    scored by goal alignment."""
    floor = float(scope.setting("evidence_ga_floor"))
    hashes = [c["content_hash"] for c in chunks]
    known = set(cypher.read(scope, SEEN, urls=[], hashes=hashes)[0]["hashes"]) if hashes else set()
    fresh, page_hashes = [], set()
    for chunk in chunks:
        if chunk["content_hash"] in known or chunk["content_hash"] in page_hashes:
            skipped.append(_skip(chunk, LAYER_HASH))
            continue
        page_hashes.add(chunk["content_hash"])
        fresh.append(chunk)
    if not fresh:
        return []
    vectors = np.array(get_embedder().embed([c["content"] for c in fresh]), dtype=float)
    page = page_embedding(vectors, [c["position"] for c in fresh])
    near = {r["i"]: r for r in cypher.read(scope, NEAREST, embeddings=vectors.tolist())
            if r["uid"]}  # fmt: skip
    goal = np.array(cypher.read(scope, GOAL, uid=task_uid)[0]["embedding"] or [], dtype=float)
    page_alignment = float(goal @ page) if goal.size else 0.0
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
        strength = alignment_strength(alignment, floor=floor, gate=page_alignment)
        rows.append({**chunk, "embedding": vectors[i].tolist(), "strength": round(strength, 4),
                     "alignment": alignment})  # fmt: skip
    if not rows:
        return rows
    # The chunks each layer left: dropped whole when the page is a paraphrase of one read before.
    for known in cypher.read(scope, PAGES_OF_TASK, task=task_uid):
        if float(np.asarray(known["embedding"]) @ page) >= SEMANTIC_MIN_COSINE:
            skipped.extend({**_skip(r, LAYER_PAGE), "duplicate_of": known["uid"]} for r in rows)
            return []
    rows[0]["page_embedding"] = page.tolist()  # the page's vector, on its first chunk
    return rows


def _skip(chunk: dict, layer: str) -> dict:
    return {"url": chunk["url"], "layer": layer, "position": chunk["position"],
            "duplicate_of": None}  # fmt: skip
