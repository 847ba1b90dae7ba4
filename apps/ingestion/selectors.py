"""Reads of the ingestion app: recent ingestion jobs with their progress and their document."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.ingestion.services import JOB_KIND
from apps.tenants.models import Job

# A job's subject is its document's uid; people know a document by its title or source.
DOCUMENT_NAMES = """
UNWIND $uids AS uid
MATCH (d:Document {tenant: $tenant, uid: uid})
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
