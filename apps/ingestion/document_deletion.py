"""Deletion of one document and of what only it taught, as a job.

The worker, every step one transaction that first takes the document's lock (so two workers of
the same deletion, or two deletions, run one after the other and the second finds the work done):
1. relations observed from its chunks lose those observations and the weight each added; a
   relation nothing else observed (no other chunk, no agent's fact) is deleted;
2. the argument components stated in its chunks go (with their STATED_IN and ABOUT edges),
   and the communities drawing from it (apps/insights/communities.py); then its chunks, in batches, with their mentions;
3. the gate's automatic merges of its mentions into entities that stay are taken back (the
   aliases, description and values they brought), and their records go;
4. entities it alone named go with their name keys and their pending SAME_AS pairs; an entity
   also named elsewhere, stated by an agent's facts, tied to anything else (an episode, a
   lesson, a merge) or decided on by a reviewer stays;
5. the document itself; then `tenant_residue` proves that nothing of the tenant holds its uid,
   its chunks' uids or the removed entities' uids.
Running it again (a redelivered task, a crash) finishes what is left; a document that is gone
is a deletion with nothing left to do.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.residue import tenant_residue
from apps.graph.scope import Scope
from apps.insights.communities import communities_of_document_delete
from apps.resolution.entity_values import values_dump, values_load, values_uncombined
from apps.tenants.models import Job, JobStatus, KeyScope
from apps.tenants.services import audit_record, job_create, job_enqueue, job_run
from memoryproject.api_errors import NotFoundError, PermissionDeniedError
from memoryproject.request_inputs import MAX_UID_CHARS

JOB_KIND = "document_delete"
CHUNK_BATCH = 200
SWEEPS = 3

LOCKED = """
MATCH (d:Document {tenant: $tenant, uid: $uid})
SET d.deleting = true, d._lock = true
REMOVE d._lock
"""
# The entities and chunk uids to consider are kept on the document: a run that starts after
# another deleted the chunks (their MENTIONS gone) still unobserves the relations they observed
# and deletes the entities only they named.
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
RETURN d.uid AS uid, chunks, entities, observed
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
AUTO_MERGES_OF = """
MATCH (am:AutoMerge {tenant: $tenant}) WHERE am.document_uid = $uid
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: am.entity_uid})
RETURN am {.uid, .absorbed_aliases, .absorbed_norm_aliases, .absorbed_description,
           .filled_description, .values_json, .before_values_json,
           .before_conflicts_json} AS merge,
       e {.uid, .aliases, .norm_aliases, .description, .absorbed_descriptions, .values_json,
          .value_conflicts_json, .name} AS entity
"""
AUTO_MERGE_UNDO = (
    LOCKED
    + """
WITH d
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: $entity})
FOREACH (x IN CASE WHEN e IS NULL THEN [] ELSE [e] END |
  SET x.aliases = [a IN coalesce(x.aliases, []) WHERE NOT a IN $aliases],
      x.norm_aliases = [a IN coalesce(x.norm_aliases, []) WHERE NOT a IN $norm_aliases],
      x.absorbed_descriptions = [a IN coalesce(x.absorbed_descriptions, [])
                                 WHERE a <> coalesce($description, '')],
      x.description = CASE WHEN $filled THEN '' ELSE x.description END,
      x.description_embedding = CASE WHEN $filled THEN null ELSE x.description_embedding END,
      x.values_json = $values_json, x.value_conflicts_json = $conflicts_json,
      x.updated_at = datetime())
WITH d
MATCH (am:AutoMerge {tenant: $tenant, uid: $merge})
DETACH DELETE am
"""
)
# An entity goes only if nothing but this document ever named it: no mention left, no edge but
# its name keys and pending pairs, stated by no agent's facts (named_by_facts, or the gate's
# merge of a fact with no document), no reviewer's decision, no merge record naming it.
ENTITIES_DELETE = (
    LOCKED
    + """
WITH d
UNWIND $entities AS eu
MATCH (e:Entity {tenant: $tenant, uid: eu})
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
RETURN collect(uid) AS removed, sum(pairs) AS pairs
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
MATCH (d:Document {tenant: $tenant, uid: $uid})
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
    run of itself (every step waits on the document's lock). Chunks an ingestion still running
    wrote meanwhile are swept again, up to SWEEPS times (its next write finds the document gone
    and fails)."""
    progress = progress or (lambda **_: None)
    counts = {"chunks": 0, "arguments": 0, "communities": 0, "mentions": 0, "observations": 0, "relations_deleted": 0,
              "merges_undone": 0, "entities_deleted": 0, "pairs_deleted": 0, "documents": 0}  # fmt: skip
    needles: list[str] = [uid]
    for _ in range(SWEEPS):
        plan = cypher.write(scope, PLAN, uid=uid)
        if not plan:  # gone (a run before this one finished it)
            break
        needles += _sweep(scope, uid=uid, plan=plan[0], counts=counts, progress=progress)
        if counts["documents"]:
            break
    cypher.write_unit(scope, do_graph_version_bump)  # kept whole-graph answers see it gone
    residue = tenant_residue(scope, needles=needles)
    progress(done=counts["chunks"], total=counts["chunks"], step="done")
    return {**counts, "residue": residue, "left": sum(residue.values())}


def _sweep(scope: Scope, *, uid: str, plan: dict, counts: dict, progress) -> list[str]:
    """One pass of the steps over what the document has now; the uids it removed."""
    chunks, entities = plan["chunks"], plan["entities"]
    observations = [uid, *plan["observed"]]
    row = cypher.write(scope, RELATIONS_UNOBSERVE, uid=uid, entities=entities,
                       observations=observations)  # fmt: skip
    if row:
        counts["observations"] += row[0]["observations"]
        counts["relations_deleted"] += row[0]["deleted"]
    row = cypher.write(scope, ARGUMENTS_DELETE, uid=uid)
    counts["arguments"] += row[0]["arguments"] if row else 0
    counts["communities"] += communities_of_document_delete(scope, uid=uid)
    total = counts["chunks"] + len(chunks)
    for start in range(0, len(chunks), CHUNK_BATCH):
        batch = chunks[start : start + CHUNK_BATCH]
        row = cypher.write(scope, CHUNKS_DELETE, uid=uid, chunks=batch)
        if row:
            counts["chunks"] += row[0]["chunks"]
            counts["mentions"] += row[0]["mentions"]
        progress(done=counts["chunks"], total=total, step="chunks")
    counts["merges_undone"] += _auto_merges_undo(scope, uid=uid)
    removed: list[str] = []
    if entities:
        row = cypher.write(scope, ENTITIES_DELETE, uid=uid, entities=entities)
        if row:
            removed = row[0]["removed"]
            counts["entities_deleted"] += len(removed)
            counts["pairs_deleted"] += row[0]["pairs"]
    row = cypher.write(scope, DOCUMENT_DELETE, uid=uid)
    counts["documents"] += row[0]["n"] if row else 0
    return plan["observed"] + removed


def _auto_merges_undo(scope: Scope, *, uid: str) -> int:
    """The gate's merges of this document's mentions into entities: what each brought (aliases,
    a description, values) is taken out of the entity, and its record goes."""
    undone = 0
    for row in cypher.read(scope, AUTO_MERGES_OF, uid=uid):
        merge, entity = row["merge"], row["entity"] or {}
        before = (values_load(merge.get("before_values_json")),
                  values_load(merge.get("before_conflicts_json")))  # fmt: skip
        values, conflicts = values_uncombined(
            values_load(entity.get("values_json")), values_load(entity.get("value_conflicts_json")),
            before=before, taken=values_load(merge.get("values_json")), taken_conflicts={},
        )  # fmt: skip
        cypher.write(
            scope, AUTO_MERGE_UNDO, uid=uid, merge=merge["uid"], entity=entity.get("uid"),
            aliases=merge.get("absorbed_aliases") or [],
            norm_aliases=merge.get("absorbed_norm_aliases") or [],
            description=merge.get("absorbed_description"),
            filled=bool(merge.get("filled_description")),
            values_json=values_dump(values), conflicts_json=values_dump(conflicts),
        )  # fmt: skip
        undone += 1
    return undone


def document_delete_job_run(job: Job) -> dict | None:
    """The worker's side: delete with the right to write memory, progress on the job, the audit
    of how much (never any text) with the job's end."""
    return job_run(
        job.uid,
        lambda scope, progress: document_erase(scope, uid=job.subject, progress=progress),
        actor="system:document-deletion",
        permissions={KeyScope.MEMORY_WRITE},
        audit="document.deleted",
        audit_details=lambda c: {k: v for k, v in c.items() if k != "residue"},
    )  # fmt: skip
