"""Meaning search over kinds' text values (seed 001's embed() and nearest()).

A kind names in `embed` which of its text values are embedded. The text of an entity is those
values, in the order of their names, one per line. The write that changes that text (ENTITIES_SET
in state_writes.py) takes the vector out of the index and gives the entity the label
KindTextToEmbed in the same query, so nearest() never answers from text that is gone, and a
change of another value keeps the vector. embed() reads only the entities that wait, at most
`limit` a call: it costs what waits, not what the kind holds. It is the one place where the model
is asked about the text of entities; the name of the model is stored with each vector, and
vectors of another model are never compared. After a change of model (or of `embed`), the first
embed() marks every entity of the kind that has values once, a page at a time.
"""

from __future__ import annotations

import hashlib
import json

from apps.graph import cypher
from apps.graph.embeddings import Embedder, get_embedder
from apps.graph.scope import Scope
from apps.tenants.models import Job, JobStatus, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run
from apps.timeline.kinds import KindSpec, kind_get
from memoryproject.api_errors import ApplicationError
from memoryproject.refusals import refusal_recorded

MAX_EMBED = 500
MAX_NEAREST = 100
MARK_PAGE = 2000


def embed_text(embed: tuple[str, ...], values: dict) -> str:
    return "\n".join(str(values[n]) for n in sorted(embed) if values.get(n))


def text_hash(embed: tuple[str, ...], values: dict) -> str:
    """What the embedded text is, as a short digest ('' when there is none)."""
    parts = [[n, values[n]] for n in sorted(embed) if values.get(n)]
    if not parts:
        return ""
    return hashlib.sha1(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:20]


MARK_READ = "MATCH (k:Kind {tenant: $tenant, name: $kind}) RETURN k.vector_mark AS mark"
MARK_PAGE_SET = """
MATCH (e:Entity {tenant: $tenant, kind: $kind})
WHERE e.values_json IS NOT NULL AND coalesce(e.vector_mark, '') <> $mark
WITH e LIMIT $page
SET e:KindTextToEmbed, e.vector_mark = $mark
RETURN count(e) AS n
"""
MARK_SET = "MATCH (k:Kind {tenant: $tenant, name: $kind}) SET k.vector_mark = $mark"
WAITING = """
MATCH (e:KindTextToEmbed {tenant: $tenant, kind: $kind})
RETURN e.uid AS uid, e.values_json AS values_json ORDER BY e.uid LIMIT $limit
"""
WAITING_COUNT = "MATCH (e:KindTextToEmbed {tenant: $tenant, kind: $kind}) RETURN count(e) AS n"
# Guarded by the values read: a write that changed them in between keeps the entity waiting.
VECTORS_SET = """
UNWIND $vectors AS v
MATCH (e:KindTextToEmbed {tenant: $tenant, kind: $kind, uid: v.uid})
WHERE e.values_json = v.values_json
SET e.text_vector = v.vector, e.text_vector_model = $model, e.embed_hash = v.hash
REMOVE e:KindTextToEmbed
"""
NO_TEXT = """
UNWIND $empty AS v
MATCH (e:KindTextToEmbed {tenant: $tenant, kind: $kind, uid: v.uid})
WHERE e.values_json = v.values_json
SET e.embed_hash = ''
REMOVE e:KindTextToEmbed, e.text_vector, e.text_vector_model
"""


def _embedding_kind(scope: Scope, kind: str) -> KindSpec:
    spec = kind_get(scope, name=kind)
    if not spec.embed:
        raise ApplicationError(f"Kind {kind} embeds no text values; declare it with `embed`.",
                               field="embed", code="not_embedded")  # fmt: skip
    return spec


@refusal_recorded("embed")
def check_kind_embed(
    scope: Scope, *, kind: str, limit: int = 100, embedder: Embedder | None = None
) -> dict:
    """Give a vector to the entities of `kind` whose text waits, at most `limit`:
    {kind, model, embedded, waiting}. A kind without `embed` is a 400 naming `embed`."""
    spec = _embedding_kind(scope, kind)
    embedder = embedder or get_embedder()
    mark = f"{embedder.name}|{','.join(spec.embed)}"
    if cypher.read(scope, MARK_READ, kind=kind)[0]["mark"] != mark:
        while cypher.write(scope, MARK_PAGE_SET, kind=kind, mark=mark, page=MARK_PAGE)[0]["n"]:
            pass
        cypher.write(scope, MARK_SET, kind=kind, mark=mark)
    waiting = cypher.read(scope, WAITING, kind=kind, limit=max(1, min(limit, MAX_EMBED)))
    texts, vectors, empty = [], [], []
    for row in waiting:
        values = json.loads(row["values_json"] or "{}")
        text = embed_text(spec.embed, values)
        item = {"uid": row["uid"], "values_json": row["values_json"],
                "hash": text_hash(spec.embed, values)}  # fmt: skip
        (vectors if text else empty).append(item)
        if text:
            texts.append(text)
    for item, vector in zip(vectors, embedder.embed(texts), strict=True):
        item["vector"] = vector
    if vectors:
        cypher.write(scope, VECTORS_SET, kind=kind, vectors=vectors, model=embedder.name)
    if empty:
        cypher.write(scope, NO_TEXT, kind=kind, empty=empty)
    left = cypher.read(scope, WAITING_COUNT, kind=kind)[0]["n"]
    return {"kind": kind, "model": embedder.name, "embedded": len(vectors), "waiting": left}


# A SEARCH binds a name used nowhere else in the query (Neo4j 2026.01 fails otherwise).
NEAREST = """
CYPHER 25
MATCH (hit:Entity)
  SEARCH hit IN (VECTOR INDEX kind_text_embedding FOR $vector
                 WHERE hit.tenant = $tenant AND hit.kind = $kind AND hit.text_vector_model = $model
                 LIMIT $limit)
  SCORE AS score
RETURN hit.key AS key, hit.values_json AS values_json, score
ORDER BY score DESC, key
"""


def nearest(
    scope: Scope, *, kind: str, q: str, limit: int = 10, embedder: Embedder | None = None
) -> dict:
    """The entities of `kind` whose embedded text is nearest in meaning to `q`, by vectors of
    the current model only: {kind, model, results: [{key, score, text}]}. The search filters by
    tenant, kind and model inside the index and stops after the 5 s of searches (counted from
    the search itself: a cold process loads the model first)."""
    spec = _embedding_kind(scope, kind)
    embedder = embedder or get_embedder()
    vector = embedder.embed([q])[0]
    rows = _nearest_read(scope, kind=kind, vector=vector, model=embedder.name,
                         limit=max(1, min(limit, MAX_NEAREST)))  # fmt: skip
    results = [
        {"key": r["key"], "score": round(r["score"], 4),
         "text": embed_text(spec.embed, json.loads(r["values_json"] or "{}"))}
        for r in rows
    ]  # fmt: skip
    return {"kind": kind, "model": embedder.name, "results": results}


@cypher.bounded_read("nearest")
def _nearest_read(scope: Scope, **params) -> list[dict]:
    return cypher.read(scope, NEAREST, **params)


# embed() off the request: a job gives vectors to everything of the kind that waits, `limit` a
# round, with its progress on the job's row (the jobs page and GET /api/v1/jobs/{uid}).
JOB_KIND = "kind_embed"
ACTOR = "system:kind-embed"
RIGHTS = frozenset({KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE})
MAX_ROUNDS = 1000


def check_kind_embed_queue(scope: Scope, *, kind: str, limit: int = 100) -> Job:
    """The job that embeds what waits of `kind`: the one already queued or running for the kind
    when there is one (asking twice queues one job), else a new one (404 for no such kind, 400
    naming `embed` for a kind without it, 503 when the broker cannot be reached)."""
    from apps.timeline import tasks

    spec = _embedding_kind(scope, kind)
    unfinished = Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND, subject=spec.name,
                                    status__in=[JobStatus.QUEUED, JobStatus.RUNNING])  # fmt: skip
    job = unfinished.order_by("created_at").first()
    if job is not None:
        return job
    waiting = cypher.read(scope, WAITING_COUNT, kind=spec.name)[0]["n"]
    job = job_create(scope, kind=JOB_KIND, subject=spec.name, total=waiting)
    job_enqueue(job, tasks.kind_embed, job.uid, max(1, min(limit, MAX_EMBED)))
    return job


def kind_embed_run(*, job_uid: str, limit: int = 100, embedder: Embedder | None = None):
    """A worker's side: embed() a round at a time until nothing waits (or a round moves
    nothing: a writer changing the text meanwhile keeps it waiting for the next job). Progress
    and result count for the job, not the delivery: what waited when it was queued (and came
    since) less what waits now. Two workers on one job (a task delivered twice) give each entity
    one vector, since each write is guarded by the text it read, and report the same counts."""
    row = Job.objects.filter(uid=job_uid).values("subject", "progress").first() or {}
    kind, queued = row.get("subject", ""), int((row.get("progress") or {}).get("total") or 0)

    def work(scope: Scope, progress) -> dict:
        total, done, got, before = queued, 0, {}, None
        for _ in range(MAX_ROUNDS):
            got = check_kind_embed(scope, kind=kind, limit=limit, embedder=embedder)
            total = max(total, done + got["waiting"])
            done = max(done, total - got["waiting"])
            progress(done=done, total=total)
            if not got["waiting"] or (got["embedded"] == 0 and got["waiting"] == before):
                break
            before = got["waiting"]
        return {"kind": kind, "model": got.get("model"), "embedded": done,
                "waiting": got.get("waiting", 0)}  # fmt: skip

    return job_run(job_uid, work, actor=ACTOR, permissions=RIGHTS,
                   refusals={ApplicationError: "The kind no longer embeds text, or is gone."})  # fmt: skip
