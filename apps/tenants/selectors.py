"""Reads about a tenant: its memory counts, its jobs."""

from __future__ import annotations

from django.utils import timezone

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tenants.memory_parts import job_label, memory_counts_query
from apps.tenants.models import Job

# The graph's stamp (apps/graph/graph_version.py): another one is another graph, or the same one
# after a write that deleted.
STAMP = "COLLECT { MATCH (g:GraphStamp {tenant: $tenant}) RETURN g.id }[0] AS graph_stamp"


def tenant_stats(scope: Scope) -> dict:
    """Every memory app's counts of the tenant (apps/tenants/memory_parts.py) and the graph's
    stamp, in one round trip: each count uses its label's tenant index, never a scan of other
    tenants."""
    query = memory_counts_query()
    counts = cypher.read(scope, f"{query}, {STAMP}" if query else f"RETURN {STAMP}")[0]
    return {**counts, "read_at": timezone.now().isoformat()}


def job_get(scope: Scope, *, uid: str) -> Job | None:
    return Job.objects.filter(tenant__uid=scope.tenant, uid=uid).first()


UNFINISHED = ("queued", "running")


def recent_jobs(
    scope: Scope, *, limit: int = 10, exclude_kinds: tuple[str, ...] = ()
) -> list[dict]:
    """The tenant's newest jobs, each with its label and how far it got (done of total)."""
    jobs = Job.objects.filter(tenant__uid=scope.tenant).exclude(kind__in=exclude_kinds)
    rows = []
    for job in jobs.order_by("-created_at")[:limit]:
        progress = job.progress or {}
        total, done = int(progress.get("total") or 0), int(progress.get("done") or 0)
        percent = 100 if job.status == "done" else (min(100, 100 * done // total) if total else 0)
        rows.append({"job": job, "label": job_label(job.kind), "done": done,
                     "total": total, "percent": percent,
                     "unfinished": job.status in UNFINISHED})  # fmt: skip
    return rows
