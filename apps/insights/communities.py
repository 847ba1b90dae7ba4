"""Leiden communities written into the graph, for fusion and global summaries (seed 004,
phase 5: post-processing only; a community never replaces an entity's own definition, and
nothing of ingestion reads them).

A refresh (a job per tenant, `communities_refresh_start`) runs Leiden and PageRank on one
projection of the tenant's entity graph (apps/graph/algorithms.py, under the tenant's one
heavy-run mark), keeps the communities of at least MIN_SIZE entities, the MAX_COMMUNITIES
largest, and writes each as a `:Community` (see apps/graph/nodes/communities.py) with its
members IN_COMMUNITY (rank and score), the documents whose chunks name them (DRAWS_FROM), the
chunks its summary quotes (SUMMARISES), the relation types inside, and a summary
(apps/insights/community_summaries.py) with its vector for the global answer. Communities are
written `complete: false` in batches; the last step drops any whose quoted chunks went
meanwhile (a document deleted during the refresh), removes the previous run's and marks the
new run complete, in one transaction: reads see one whole run.

Erasure: a document's deletion removes the communities drawing from it
(`communities_of_document_delete`, from apps/ingestion/document_deletion.py); the next
refresh rebuilds them from what is left. A tenant's deletion removes them with every node."""

from __future__ import annotations

import uuid
from collections import Counter

from apps.graph import algorithms, cypher
from apps.graph.algorithms import GraphOutOfMemory, GraphTooLarge
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.insights.community_summaries import (
    community_name,
    extractive_summary,
    llm_summary,
    representative_passages,
    summary_endpoint,
)
from apps.insights.heavy_runs import GraphBusy, heavy_run
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run

JOB_KIND = "communities_refresh"
MIN_SIZE = 2  # a lone entity is no community (counted as `singletons`)
MAX_COMMUNITIES = 200  # per tenant: the global answer ranks all of them
TOP_RELATIONS = 5
CHUNKS_READ = 40  # per community: the chunks naming most of its members
WRITE_BATCH = 20

CONTENT = """
MATCH (e:Entity {tenant: $tenant}) WHERE e.uid IN $members
WITH collect(e) AS members
CALL (members) {
  UNWIND members AS a
  MATCH (a)-[r:RELATED_TO]->(b:Entity {tenant: $tenant}) WHERE b.uid IN $members
  WITH a, r, b ORDER BY coalesce(r.weight, 1.0) DESC, r.predicate, a.name, b.name
  RETURN collect(r.predicate) AS predicates,
         collect({s: a.name, p: r.predicate, o: b.name})[..$relations] AS relations
}
CALL (members) {
  UNWIND members AS e
  MATCH (ch:Chunk {tenant: $tenant})-[:MENTIONS]->(e)
  WITH ch, count(DISTINCT e) AS named ORDER BY named DESC, ch.uid
  WITH collect(ch.document_uid) AS documents, collect(ch)[..$chunks] AS top
  RETURN documents, [c IN top | {uid: c.uid, document: c.document_uid, text: c.text,
                                 embedding: c.embedding}] AS chunks
}
RETURN predicates, relations, documents, chunks
"""
WRITE = """
UNWIND $rows AS row
CREATE (c:Community {uid: row.uid, tenant: $tenant, run: $run, level: 0,
                     position: row.position, size: row.size, name: row.name,
                     summary: row.summary, summary_source: row.source,
                     relation_types: row.relation_types, passages: size(row.passages),
                     complete: false, embedding: row.embedding, created_at: datetime()})
WITH c, row
CALL (c, row) {
  UNWIND row.members AS m
  MATCH (e:Entity {tenant: $tenant, uid: m.uid}) USING INDEX SEEK e:Entity(uid)
  CREATE (e)-[:IN_COMMUNITY {tenant: $tenant, rank: m.rank, score: m.score}]->(c)
  RETURN count(*) AS members
}
CALL (c, row) {
  UNWIND row.documents AS x
  MATCH (d:Document {tenant: $tenant, uid: x.uid}) USING INDEX SEEK d:Document(uid)
  CREATE (c)-[:DRAWS_FROM {tenant: $tenant, chunks: x.chunks}]->(d)
  RETURN count(*) AS documents
}
CALL (c, row) {
  UNWIND row.passages AS p
  MATCH (ch:Chunk {tenant: $tenant, uid: p}) USING INDEX SEEK ch:Chunk(uid)
  CREATE (c)-[:SUMMARISES {tenant: $tenant}]->(ch)
  RETURN count(*) AS passages
}
RETURN count(c) AS written
"""
COMPLETE = """
CALL () {
  MATCH (c:Community {tenant: $tenant, run: $run})
  WHERE COUNT { (c)-[:SUMMARISES]->(:Chunk {tenant: $tenant}) } < c.passages
  DETACH DELETE c
  RETURN count(*) AS dropped
}
CALL () {
  MATCH (c:Community {tenant: $tenant}) WHERE c.run <> $run
  DETACH DELETE c
  RETURN count(*) AS replaced
}
CALL () {
  MATCH (c:Community {tenant: $tenant, run: $run})
  SET c.complete = true
  RETURN count(*) AS kept
}
RETURN dropped, replaced, kept
"""
OF_DOCUMENT_DELETE = """
MATCH (c:Community {tenant: $tenant})-[:DRAWS_FROM]->(:Document {tenant: $tenant, uid: $uid})
DETACH DELETE c
RETURN count(*) AS communities
"""


def communities_of_document_delete(scope: Scope, *, uid: str) -> int:
    """Remove the communities drawing from document `uid` (its chunks name their members, so
    their summaries may quote it); how many. Caller may write the tenant's memory."""
    rows = cypher.write(scope, OF_DOCUMENT_DELETE, uid=uid)
    return rows[0]["communities"] if rows else 0


def _grouped(scope: Scope) -> tuple[list[list[dict]], int]:
    """Leiden's communities of at least MIN_SIZE, largest first (then by their most central
    member's uid), each its members most central first; and how many lone entities."""
    groups, ranks = algorithms.ranked_communities(scope)
    by_group: dict[int, list[dict]] = {}
    for row in ranks:  # highest PageRank first
        if row["uid"] in groups:
            by_group.setdefault(groups[row["uid"]], []).append(row)
    found = [rows for rows in by_group.values() if len(rows) >= MIN_SIZE]
    found.sort(key=lambda rows: (-len(rows), rows[0]["uid"]))
    return found, len(by_group) - len(found)


def _community_row(scope: Scope, rows: list[dict], position: int, endpoint, counts: dict) -> dict:
    members = [{"uid": r["uid"], "name": r["name"] or "", "type": r["type"] or ""} for r in rows]
    content = cypher.read(scope, CONTENT, members=[m["uid"] for m in members],
                          relations=TOP_RELATIONS, chunks=CHUNKS_READ)[0]  # fmt: skip
    passages = representative_passages(content["chunks"], [m["name"] for m in members])
    relations = content["relations"]
    summary, name, source = extractive_summary(members, relations, passages), "", "extractive"
    if endpoint is not None:
        answer = llm_summary(endpoint, members[:20], relations, passages)
        if answer is None:
            counts["llm_fallbacks"] += 1
        else:
            summary, name, source = answer["summary"], answer["title"], "llm"
            counts["llm_summaries"] += 1
    documents = Counter(content["documents"])
    return {
        "uid": uuid.uuid4().hex, "position": position, "size": len(members),
        "name": name or community_name(members), "summary": summary, "source": source,
        "relation_types": sorted(set(content["predicates"])),
        "members": [{"uid": r["uid"], "rank": i, "score": round(r["score"], 9)}
                    for i, r in enumerate(rows)],
        "documents": [{"uid": d, "chunks": n} for d, n in sorted(documents.items()) if d],
        "passages": [p["uid"] for p in passages],
    }  # fmt: skip


def communities_refresh(scope: Scope, *, progress=None) -> dict:
    """Compute the tenant's communities afresh and replace the stored ones (the module's
    steps). Caller holds a scope allowed to write memory. Raises GraphBusy while another heavy
    graph run of the tenant holds its mark, GraphTooLarge over the bounds. Counts:
    {run, communities, members, singletons, documents, llm_summaries, llm_fallbacks, dropped,
    replaced}."""
    progress = progress or (lambda **_: None)
    endpoint = summary_endpoint()
    counts = {"llm_summaries": 0, "llm_fallbacks": 0}
    run = uuid.uuid4().hex
    with heavy_run(scope):
        found, singletons = _grouped(scope)
        kept = found[:MAX_COMMUNITIES]
        progress(done=0, total=len(kept), step="summaries")
        documents: set[str] = set()
        for start in range(0, len(kept), WRITE_BATCH):
            rows = [_community_row(scope, members, start + i, endpoint, counts)
                    for i, members in enumerate(kept[start : start + WRITE_BATCH])]  # fmt: skip
            vectors = get_embedder().embed([row["summary"] for row in rows])
            for row, vector in zip(rows, vectors, strict=True):
                row["embedding"] = vector
                documents.update(d["uid"] for d in row["documents"])
            cypher.write(scope, WRITE, run=run, rows=rows)
            progress(done=start + len(rows), total=len(kept), step="summaries")
        done = cypher.write(scope, COMPLETE, run=run)[0]
    return {"run": run, "communities": done["kept"], "members": sum(len(m) for m in kept),
            "singletons": singletons, "not_kept": len(found) - len(kept),
            "documents": len(documents), "dropped": done["dropped"],
            "replaced": done["replaced"], **counts}  # fmt: skip


def communities_refresh_start(scope: Scope) -> Job:
    """Queue a refresh of the tenant's communities (a broker down: 503); returns the Job."""
    from apps.insights import tasks

    job = job_create(scope, kind=JOB_KIND, subject="communities")
    job_enqueue(job, tasks.communities_refresh, job.uid)
    return job


def _refusal(exc: Exception) -> str:
    return getattr(exc, "message", None) or str(exc)


def communities_refresh_run(*, job_uid: str) -> dict | None:
    """The worker's side: refresh with the right to write memory, progress on the job; a busy
    graph, a graph over the bounds or short of memory ends the job failed with the reason."""
    return job_run(
        job_uid,
        lambda scope, progress: communities_refresh(scope, progress=progress),
        actor="system:communities",
        permissions={KeyScope.MEMORY_WRITE},
        refusals={GraphBusy: _refusal, GraphTooLarge: _refusal, GraphOutOfMemory: _refusal},
    )  # fmt: skip
