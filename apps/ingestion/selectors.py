"""Reads of the ingestion app: recent ingestion jobs with their progress."""

from __future__ import annotations

from apps.graph.scope import Scope
from apps.ingestion.services import JOB_KIND
from apps.tenants.models import Job


def ingestion_jobs_recent(scope: Scope, *, limit: int = 10) -> list[dict]:
    jobs = Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND).order_by("-created_at")
    rows = []
    for job in jobs[:limit]:
        progress = job.progress or {}
        total, done = progress.get("total", 0) or 0, progress.get("done", 0) or 0
        rows.append(
            {
                "job": job,
                "done": done,
                "total": total,
                "percent": 100
                if job.status == "done"
                else (int(100 * done / total) if total else 0),
                "progress": progress,
            }
        )
    return rows
