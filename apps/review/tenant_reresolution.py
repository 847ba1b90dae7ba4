"""The whole tenant re-resolved: every active entity's block searched again and its pairs
scored again as the graph has them now (review.collective_merges, which merges what the gate's
rule allows and proposes what it would have proposed), in passes until one merges nothing (at
most PASSES). After a bulk import, or once the tenant's model has changed, this is what makes
the end state depend on the evidence rather than on the order it arrived in: a pair scored
under the threshold when one side was new is scored again with everything both sides gained.

A job (`resolution.reresolve`, with progress: entities done of the pass's total), queued on
demand (`POST /api/v1/resolution/reresolve`); a second run over an unchanged graph merges
nothing."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.review.collective_merges import collective_merges
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run

JOB_KIND = "resolution.reresolve"
ACTOR = "system:resolution"
RIGHTS = frozenset({KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE, KeyScope.REVIEW})
BATCH = 64  # entities per round of collective_merges
PASSES = 3
MAX_ENTITIES = 50_000  # per pass (a bound: a larger tenant is re-resolved by the next run too)

ACTIVE = """
MATCH (e:Entity {tenant: $tenant}) WHERE e.status = 'active'
RETURN e.uid AS uid ORDER BY e.uid LIMIT $limit
"""


def tenant_reresolve(scope: Scope, *, progress=None) -> dict:
    """Re-resolve every active entity of the tenant (module docstring); how many passes, and
    the merges they made."""
    merges, passes, entities = [], 0, 0
    for _ in range(PASSES):
        uids = [r["uid"] for r in cypher.read(scope, ACTIVE, limit=MAX_ENTITIES)]
        passes += 1
        entities = len(uids)
        made = []
        for start in range(0, len(uids), BATCH):
            made += collective_merges(scope, entity_uids=uids[start : start + BATCH])
            if progress:
                progress(done=min(start + BATCH, len(uids)), total=len(uids))
        merges += made
        if not made:
            break
    return {"passes": passes, "entities": entities, "merges": len(merges),
            "merged": [{k: m[k] for k in ("survivor_name", "merged_name", "reason")}
                       for m in merges[:50]]}  # fmt: skip


def tenant_reresolve_queue(scope: Scope) -> Job:
    """A re-resolution job for the scope's tenant, queued for a worker."""
    from apps.review import tasks

    job = job_create(scope, kind=JOB_KIND, subject="entities")
    job_enqueue(job, tasks.tenant_reresolve, job.uid)
    return job


def tenant_reresolve_run(*, job_uid: str) -> dict | None:
    """What a worker does for one job."""
    return job_run(
        job_uid,
        lambda scope, progress: tenant_reresolve(scope, progress=progress),
        actor=ACTOR,
        permissions=RIGHTS,
        audit="resolution.reresolve",
        audit_details=lambda r: {k: r[k] for k in ("passes", "entities", "merges")},
    )
