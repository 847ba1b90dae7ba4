"""Deletion of one document and of what only it taught, as a job.

The worker, every step one transaction that first takes the tenant's deletion lock
(apps/graph/deletion_lock.py), then the document's: two runs of the same deletion, or two
deletions that meet on the same entities (a shared relation, an entity both name, a merge of
one's mention into the other's entity), go one step at a time, each step deciding on what the
others committed:
1. relations observed from its chunks lose those observations and the weight each added; a
   relation nothing else observed (no other chunk, no agent's fact) is deleted;
2. the argument components stated in its chunks go (with their STATED_IN and ABOUT edges),
   and the communities drawing from it (apps/insights/communities.py); then its chunks, in batches, with their mentions;
3. what it taught entities that stay is taken back (apps/ingestion/document_unlearning.py): the
   gate's automatic merges of its mentions, and the values learned from its text;
4. entities it alone named go with their name keys and their pending SAME_AS pairs; an entity
   also named elsewhere, stated by an agent's facts, tied to anything else (an episode, a
   lesson, a merge) or decided on by a reviewer stays;
5. `tenant_residue` scans the tenant for its uid, its chunks' uids and the uids of the entities
   it removed (the document itself, which keeps those lists, left out): while anything holds
   one, the steps run again (up to SWEEPS times); once nothing does, the document goes.
A deletion that still finds residue keeps the document (marked deleting) and ends failed,
saying where; deleting it again runs the steps again. Running it again (a redelivered task, a
crash) finishes what is left; a document that is gone is a deletion with nothing left to do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.deletion_lock import do_deletion_lock
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.residue import tenant_residue
from apps.graph.scope import Scope
from apps.ingestion.document_unlearning import do_auto_merges_undo, do_learned_values_forget
from apps.insights.communities import communities_of_document_delete
from apps.tenants.models import Job, JobStatus, KeyScope
from apps.tenants.services import audit_record, job_create, job_enqueue, job_run
from memoryproject.api_errors import NotFoundError, PermissionDeniedError
from memoryproject.request_inputs import MAX_UID_CHARS

JOB_KIND = "document_delete"
CHUNK_BATCH = 200
SWEEPS = 3
T = TypeVar("T")

LOCKED = """
MATCH (d:Document {tenant: $tenant, uid: $uid}) USING INDEX SEEK d:Document(uid)
SET d.deleting = true, d._lock = true
REMOVE d._lock
"""
DOCUMENT_LOCKED = LOCKED + "RETURN d.uid AS uid"
# The entities and chunk uids to consider are kept on the document: a run that starts after
# another deleted the chunks (their MENTIONS gone) still unobserves the relations they observed
# and deletes the entities only they named; so are the entities it removed (`deleted_entities`,
# for the residue scan of a later run).
PLAN = (
    LOCKED
    + """
WITH d
OPTIONAL MATCH (c:Chunk {tenant: $tenant})-[:PART_OF]->(d)
OPTIONAL MATCH (c)-[:MENTIONS]->(e:Entity {tenant: $tenant})
WITH d, collect(DISTINCT c.uid) AS chunks, collect(DISTINCT e.uid) AS named
WITH d, chunks, named + [x IN coalesce(d.deleting_entities, []) WHERE NOT x IN named] AS entities,
     chunks + [x IN coalesce(d.deleting_chunks, []) WHERE NOT x IN chunks] AS observed
SET d.deleting_entities = entities, d.deleting_chunks = observed
RETURN d.uid AS uid, chunks, entities, observed, coalesce(d.deleted_entities, []) AS removed
"""
)
# Observations are chunk uids (or the document's uid for a write without a chunk); the weight
# counts one per observation, plus one per agent's fact that had none.
RELATIONS_UNOBSERVE = (
    LOCKED
    + """
WITH d
UNWIND $entities AS eu
MATCH (:Entity {tenant: $tenant, uid: eu})-[r:RELATED_TO]-(:Entity {tenant: $tenant})
WHERE any(x IN coalesce(r.observations, []) WHERE x IN $observations)
WITH DISTINCT r
SET r._lock = true
REMOVE r._lock
WITH r, size([x IN r.observations WHERE x IN $observations]) AS gone
SET r.observations = [x IN r.observations WHERE NOT x IN $observations],
    r.chunks = [x IN coalesce(r.chunks, []) WHERE NOT x IN $observations],
    r.via = [v IN coalesce(r.via, []) WHERE NOT split(v, '|')[1] IN $observations],
    r.weight = r.weight - gone
WITH r, gone, r.weight <= 0 AS orphan
CALL (r, orphan) { WITH r WHERE orphan DELETE r }
RETURN sum(gone) AS observations, sum(CASE WHEN orphan THEN 1 ELSE 0 END) AS deleted
"""
)
# Argument components stated in its chunks (they name its chunk and document uids).
ARGUMENTS_DELETE = (
    LOCKED
    + """
WITH d
MATCH (a:Argument {tenant: $tenant}) WHERE a.document_uid = $uid
DETACH DELETE a
RETURN count(*) AS arguments
"""
)
CHUNKS_DELETE = (
    LOCKED
    + """
WITH d
UNWIND $chunks AS cu
MATCH (c:Chunk {tenant: $tenant, uid: cu})-[:PART_OF]->(d)
WITH c, COUNT { (c)-[:MENTIONS]->() } AS mentions
DETACH DELETE c
RETURN count(*) AS chunks, sum(mentions) AS mentions
"""
)
# An entity goes only if nothing but this document ever named it: no mention left, no edge but
# its name keys and pending pairs, stated by no agent's facts (named_by_facts, or the gate's
# merge of a fact with no document), no reviewer's decision, no merge record naming it. The
# document keeps what it removed; another deletion's list stops naming it (nothing to plan).
ENTITIES_DELETE = (
    LOCKED
    + """
WITH d
UNWIND $entities AS eu
MATCH (e:Entity {tenant: $tenant, uid: eu}) USING INDEX SEEK e:Entity(uid)
WHERE e.status = 'active' AND e.named_by_facts IS NULL
  AND NOT EXISTS { (:Chunk)-[:MENTIONS]->(e) }
  AND NOT EXISTS { (e)-[x]-() WHERE NOT type(x) IN ['KEY_OF', 'SAME_AS'] }
  AND NOT EXISTS { (e)-[s:SAME_AS]-() WHERE s.status <> 'pending' }
  AND NOT EXISTS { MATCH (m:Merge {tenant: $tenant})
                   WHERE m.survivor_uid = e.uid OR m.merged_uid = e.uid }
  AND NOT EXISTS { MATCH (am:AutoMerge {tenant: $tenant, entity_uid: e.uid})
                   WHERE am.document_uid IS NULL OR am.document_uid <> $uid }
OPTIONAL MATCH (k:EntityKey {tenant: $tenant})-[:KEY_OF]->(e)
WITH e, collect(k) AS keys, COUNT { (e)-[s:SAME_AS]-() } AS pairs
OPTIONAL MATCH (am:AutoMerge {tenant: $tenant, entity_uid: e.uid})
WITH e, keys, pairs, collect(am) AS records
FOREACH (x IN keys + records | DETACH DELETE x)
WITH e, pairs, e.uid AS uid
DETACH DELETE e
WITH collect(uid) AS removed, sum(pairs) AS pairs
MATCH (d:Document {tenant: $tenant, uid: $uid}) USING INDEX SEEK d:Document(uid)
SET d.deleted_entities = coalesce(d.deleted_entities, []) + removed
WITH removed, pairs
CALL (removed) {
  MATCH (o:Document {tenant: $tenant}) WHERE o.deleting AND o.uid <> $uid
    AND any(x IN coalesce(o.deleting_entities, []) WHERE x IN removed)
  SET o.deleting_entities = [x IN o.deleting_entities WHERE NOT x IN removed]
}
RETURN removed, pairs
"""
)
DOCUMENT_DELETE = (
    LOCKED
    + """
WITH d WHERE NOT EXISTS { (:Chunk)-[:PART_OF]->(d) }
DETACH DELETE d
RETURN count(*) AS n
"""
)
EXISTS = """
MATCH (d:Document {tenant: $tenant, uid: $uid}) USING INDEX SEEK d:Document(uid)
RETURN COUNT { (:Chunk {tenant: $tenant})-[:PART_OF]->(d) } AS chunks
"""


def deletion_running(scope: Scope, *, uid: str) -> Job | None:
    return (Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND, subject=uid,
                               status__in=[JobStatus.QUEUED, JobStatus.RUNNING])
            .order_by("-created_at").first())  # fmt: skip


def check_document_delete(scope: Scope, *, uid: str) -> Job:
    """Queue the deletion of the tenant's document `uid` (the write scope, or a reviewer): audited, then
    run by a worker with progress. A deletion of it already under way is returned as it is; a
    document the tenant does not have (gone, never there, another tenant's) is a 404."""
    # An agent needs the right to write memory; a person, a reviewer's role (as other
    # destructive pages: merges, unmerges).
    reviewer = scope.actor_kind == "person" and scope.allows(KeyScope.REVIEW)
    if not (scope.allows(KeyScope.MEMORY_WRITE) or reviewer):
        raise PermissionDeniedError(
            "Deleting a document needs the memory:write scope, or a reviewer's role."
        )
    uid = uid[:MAX_UID_CHARS]
    running = deletion_running(scope, uid=uid)
    if running:
        return running
    rows = cypher.read(scope, EXISTS, uid=uid)
    if not rows:
        raise NotFoundError("No such document.", field="uid")
    job = job_create(scope, kind=JOB_KIND, subject=uid, total=rows[0]["chunks"])
    audit_record(scope, action="document.delete_requested", target=f"document:{uid}",
                 details={"job": job.uid, "chunks": rows[0]["chunks"]})  # fmt: skip
    from apps.ingestion import tasks

    job_enqueue(job, tasks.document_delete, job.uid)
    return job


def document_erase(scope: Scope, *, uid: str, progress=None) -> dict:
    """Delete the document and what only it taught (the module's steps). Caller holds a scope
    allowed to write memory and has audited the request. Safe to run again, and beside another
    run of itself or another deletion (every step takes the tenant's deletion lock). While the
    residue scan finds anything, or chunks an ingestion still running wrote meanwhile are there
    (its next write finds the document gone and fails), the steps run again, up to SWEEPS
    times; a document still held then is kept, counted in `residue` as `Document.uid`."""
    progress = progress or (lambda **_: None)
    counts = {"chunks": 0, "arguments": 0, "communities": 0, "mentions": 0, "observations": 0,
              "relations_deleted": 0, "merges_undone": 0, "values_forgotten": 0,
              "entities_deleted": 0, "pairs_deleted": 0, "documents": 0}  # fmt: skip
    residue: dict[str, int] = {}
    kept = False
    for _ in range(SWEEPS):
        plan = _step(scope, uid, lambda stx: stx.run(PLAN, uid=uid))
        if not plan:  # gone (a run before this one finished it)
            kept, residue = False, tenant_residue(scope, needles=[uid])
            break
        removed = _sweep(scope, uid=uid, plan=plan[0], counts=counts, progress=progress)
        needles = [uid, *plan[0]["observed"], *plan[0]["removed"], *removed]
        residue = tenant_residue(scope, needles=needles, besides=uid)
        kept = True
        if residue:
            continue  # what a step could not see then (a write since): the steps again
        row = _step(scope, uid, lambda stx: stx.run(DOCUMENT_DELETE, uid=uid))
        if row is None or row[0]["n"]:  # gone: by this run, or by another run of it meanwhile
            counts["documents"] += 1 if row else 0
            kept = False
            break
    if kept:
        residue = {**residue, "Document.uid": 1}
    cypher.write_unit(scope, do_graph_version_bump)  # kept whole-graph answers see it gone
    progress(done=counts["chunks"], total=counts["chunks"], step="done")
    return {**counts, "residue": residue, "left": sum(residue.values())}


def _step(scope: Scope, uid: str, work: Callable[[ScopedTx], T]) -> T | None:
    """One step in one transaction: the tenant's deletion lock, then the document's, then
    `work`; None when the document is gone."""

    def unit(stx: ScopedTx) -> T | None:
        do_deletion_lock(stx)
        if not stx.run(DOCUMENT_LOCKED, uid=uid):
            return None
        return work(stx)

    return cypher.write_unit(scope, unit)


def _sweep(scope: Scope, *, uid: str, plan: dict, counts: dict, progress) -> list[str]:
    """One pass of the steps over what the document has now; the entity uids it removed."""
    chunks, entities = plan["chunks"], plan["entities"]
    observations = [uid, *plan["observed"]]
    row = _step(scope, uid, lambda stx: stx.run(RELATIONS_UNOBSERVE, uid=uid, entities=entities,
                                                observations=observations))  # fmt: skip
    if row:
        counts["observations"] += row[0]["observations"]
        counts["relations_deleted"] += row[0]["deleted"]
    row = _step(scope, uid, lambda stx: stx.run(ARGUMENTS_DELETE, uid=uid))
    counts["arguments"] += row[0]["arguments"] if row else 0
    counts["communities"] += communities_of_document_delete(scope, uid=uid)
    total = counts["chunks"] + len(chunks)
    for start in range(0, len(chunks), CHUNK_BATCH):
        batch = chunks[start : start + CHUNK_BATCH]
        row = _step(scope, uid, lambda stx, batch=batch: stx.run(CHUNKS_DELETE, uid=uid,
                                                                 chunks=batch))  # fmt: skip
        if row:
            counts["chunks"] += row[0]["chunks"]
            counts["mentions"] += row[0]["mentions"]
        progress(done=counts["chunks"], total=total, step="chunks")
    while undone := _step(scope, uid, lambda stx: do_auto_merges_undo(stx, uid=uid)):
        counts["merges_undone"] += undone
    counts["values_forgotten"] += _step(scope, uid, lambda stx: do_learned_values_forget(
        stx, entities=entities, sources=observations)) or 0  # fmt: skip
    if not entities:
        return []
    row = _step(scope, uid, lambda stx: stx.run(ENTITIES_DELETE, uid=uid, entities=entities))
    if not row:
        return []
    counts["entities_deleted"] += len(row[0]["removed"])
    counts["pairs_deleted"] += row[0]["pairs"]
    return row[0]["removed"]


def residue_said(result: dict) -> str:
    """What a deletion's result leaves undone, in words for the job's error ("" when nothing):
    where the residue is (labels and properties, never a value)."""
    if not result["left"]:
        return ""
    places = ", ".join(f"{where}: {n}" for where, n in sorted(result["residue"].items()))
    kept = "Document.uid" in result["residue"]
    return (f"{result['left']} trace{'s' if result['left'] != 1 else ''} of the document left "
            f"in the graph ({places})"
            + ("; the document is kept, marked deleting" if kept else ""))  # fmt: skip


def document_delete_job_run(job: Job) -> dict | None:
    """The worker's side: delete with the right to write memory, progress on the job, the audit
    of how much (never any text) with the job's end; a deletion whose residue scan still finds
    something ends failed, saying where."""
    return job_run(
        job.uid,
        lambda scope, progress: document_erase(scope, uid=job.subject, progress=progress),
        actor="system:document-deletion",
        permissions={KeyScope.MEMORY_WRITE},
        audit="document.deleted",
        audit_details=lambda c: {k: v for k, v in c.items() if k != "residue"},
        unfinished=residue_said,
    )  # fmt: skip
