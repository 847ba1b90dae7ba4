"""Reads of the ingestion app: recent ingestion jobs with their progress and their document;
the tenant's documents, listed with filters and read one by one."""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.ingestion.services import JOB_KIND
from apps.tenants.models import Job

# A job's subject is its document's uid; people know a document by its title or source.
DOCUMENT_NAMES = """
UNWIND $uids AS uid
MATCH (d:Document {tenant: $tenant, uid: uid}) USING INDEX SEEK d:Document(uid)
RETURN d.uid AS uid, coalesce(d.title, d.source) AS name
"""


def ingestion_jobs_recent(scope: Scope, *, limit: int = 10) -> list[dict]:
    jobs = list(Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND)
                .order_by("-created_at")[:limit])  # fmt: skip
    names = {}
    if jobs:
        found = cypher.read(scope, DOCUMENT_NAMES, uids=[job.subject for job in jobs])
        names = {row["uid"]: row["name"] for row in found}
    rows = []
    for job in jobs:
        progress = job.progress or {}
        total, done = progress.get("total", 0) or 0, progress.get("done", 0) or 0
        percent = 100 if job.status == "done" else (int(100 * done / total) if total else 0)
        rows.append({"job": job, "document": names.get(job.subject), "done": done,
                     "total": total, "percent": percent, "progress": progress})  # fmt: skip
    return rows


MAX_DOCUMENTS_PAGE = 100

# The filters of the list, the same for its count and its page (constants joined, no input).
DOCUMENT_FILTERS = """
MATCH (d:Document {tenant: $tenant})
WHERE ($source IS NULL OR d.source = $source)
  AND ($title IS NULL OR toLower(coalesce(d.title, '')) CONTAINS toLower($title))
  AND ($after IS NULL OR d.created_at >= $after)
  AND ($before IS NULL OR d.created_at < $before)
  AND ($agent IS NULL OR d.agent = $agent)
"""
DOCUMENTS_PAGE = (
    "CALL () {"
    + DOCUMENT_FILTERS
    + """ RETURN count(d) AS total }
CALL () {"""
    + DOCUMENT_FILTERS
    + """
  WITH d ORDER BY d.created_at DESC, d.uid SKIP $offset LIMIT $limit
  RETURN collect(d {.uid, .title, .source, .agent, .url, created: d.created_at,
                    deleting: coalesce(d.deleting, false),
                    chunks: COUNT { (:Chunk {tenant: $tenant})-[:PART_OF]->(d) }}) AS page
}
RETURN total, page
"""
)


def ingest_jobs_of(scope: Scope, uids: list[str]) -> dict[str, Job]:
    """The latest ingestion job of each document (one relational query)."""
    jobs = Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND, subject__in=uids)
    latest: dict[str, Job] = {}
    for job in jobs.order_by("created_at"):
        latest[job.subject] = job
    return latest


def documents_list(
    scope: Scope,
    *,
    source: str | None = None,
    title: str | None = None,
    created_after=None,
    created_before=None,
    agent: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> dict:
    """The tenant's documents, newest first, filtered (source and agent exactly, title as a
    case-insensitive substring, created in [after, before)), one page of `limit` from
    `offset`, each with its chunk count and its ingestion job's state. One round trip."""
    row = cypher.read(
        scope, DOCUMENTS_PAGE, source=source or None, title=title or None,
        after=created_after, before=created_before, agent=agent or None,
        limit=min(limit, MAX_DOCUMENTS_PAGE), offset=offset,
    )[0]  # fmt: skip
    page = row["page"]
    jobs = ingest_jobs_of(scope, [d["uid"] for d in page])
    for doc in page:
        job = jobs.get(doc["uid"])
        doc["created"] = doc["created"].to_native() if doc["created"] is not None else None
        doc["job"] = {"uid": job.uid, "status": job.status} if job else None
    more = offset + len(page) < row["total"]
    return {"total": row["total"], "offset": offset, "limit": limit, "results": page,
            "next_offset": offset + len(page) if more else None}  # fmt: skip


# Relations it supports: those observed from one of its chunks (or from it, for a write with
# no chunk), found from the entities its chunks mention (index-bound, no scan of all edges).
DOCUMENT_DETAIL = """
MATCH (d:Document {tenant: $tenant, uid: $uid}) USING INDEX SEEK d:Document(uid)
CALL (d) {
  OPTIONAL MATCH (c:Chunk {tenant: $tenant})-[:PART_OF]->(d)
  WITH c ORDER BY c.position
  RETURN collect(c {.uid, .position, .start, .end, .section_path, .text}) AS chunks,
         collect(c.uid) AS chunk_uids
}
CALL (d) {
  OPTIONAL MATCH (c:Chunk {tenant: $tenant})-[:PART_OF]->(d)
  OPTIONAL MATCH (c)-[m:MENTIONS]->(e:Entity {tenant: $tenant})
  WITH c, m, e WHERE e IS NOT NULL
  RETURN collect({chunk: c.uid, chunk_start: c.start, entity: e.uid, name: e.name,
                  type: e.type, surface: m.surface, start: m.start, end: m.end}) AS mentions,
         collect(DISTINCT e) AS named
}
CALL (d, chunk_uids, named) {
  UNWIND named AS e
  MATCH (e)-[r:RELATED_TO]-(:Entity {tenant: $tenant})
  WHERE any(x IN coalesce(r.observations, []) WHERE x IN chunk_uids OR x = d.uid)
  WITH DISTINCT r
  MATCH (s)-[r]->(o)
  RETURN collect({uid: r.uid, subject: s.uid, subject_name: s.name, predicate: r.predicate,
                  object: o.uid, object_name: o.name, weight: r.weight,
                  confidence: r.confidence,
                  observed_here: size([x IN r.observations WHERE x IN chunk_uids OR x = d.uid]),
                  observed_elsewhere: r.weight - size([x IN r.observations
                                                       WHERE x IN chunk_uids OR x = d.uid])})
         AS relations
}
CALL (d) {
  OPTIONAL MATCH (a:Argument {tenant: $tenant, document_uid: d.uid})
  WITH a WHERE a IS NOT NULL ORDER BY a.position, a.start
  RETURN collect(a {.uid, .kind, .text, .chunk_uid, .position, .start, .end, .agent,
                    about: COLLECT { MATCH (a)-[:ABOUT]->(e:Entity {tenant: $tenant})
                                     RETURN e {.uid, .name, .type} }}) AS arguments
}
RETURN d {.uid, .title, .source, .agent, .url, .content, .metadata, created: d.created_at,
          date: d.date, deleting: coalesce(d.deleting, false)} AS document,
       chunks, mentions, relations, arguments
"""


def document_detail(scope: Scope, *, uid: str) -> dict | None:
    """A document of the tenant with its text, chunks (reading order), the entities its chunks
    name (with mention counts), the relations it supports, the argument components it states,
    and its ingestion job; None when the
    tenant has no such document (another tenant's uid reads the same). One round trip."""
    rows = cypher.read(scope, DOCUMENT_DETAIL, uid=uid)
    if not rows:
        return None
    row = rows[0]
    doc = dict(row["document"])
    for key in ("created", "date"):
        doc[key] = doc[key].to_native() if doc.get(key) is not None else None
    doc["metadata"] = json.loads(doc["metadata"]) if doc.get("metadata") else {}
    entities: dict[str, dict] = {}
    for m in row["mentions"]:
        entity = entities.setdefault(
            m["entity"], {"uid": m["entity"], "name": m["name"], "type": m["type"], "mentions": 0}
        )
        entity["mentions"] += 1
    job = ingest_jobs_of(scope, [uid]).get(uid)
    return {
        **doc,
        "chunks": [c for c in row["chunks"] if c.get("uid")],
        "mentions": row["mentions"],
        "entities": sorted(entities.values(), key=lambda e: (-e["mentions"], e["name"])),
        "relations": sorted(row["relations"], key=lambda r: -(r["weight"] or 0)),
        "arguments": row["arguments"],  # claims, premises, assumptions in reading order
        "job": {"uid": job.uid, "status": job.status, "progress": job.progress,
                "error": job.error} if job else None,
    }  # fmt: skip
