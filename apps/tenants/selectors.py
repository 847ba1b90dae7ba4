"""Reads about a tenant: its memory counts, its jobs."""

from __future__ import annotations

from django.utils import timezone

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tenants.models import Job

# One round trip: each count uses the label's tenant index, never a scan of other tenants.
STATS_QUERY = """
RETURN
  COUNT { MATCH (n:Document {tenant: $tenant}) } AS documents,
  COUNT { MATCH (n:Chunk {tenant: $tenant}) } AS chunks,
  COUNT { MATCH (n:Entity {tenant: $tenant}) WHERE n.status = 'active' } AS entities,
  COUNT { MATCH (:Entity {tenant: $tenant})-[r:RELATED_TO]->() } AS relations,
  COUNT { MATCH (n:Session {tenant: $tenant}) } AS conversations,
  COUNT { MATCH (n:Message {tenant: $tenant}) } AS messages,
  COUNT { MATCH (:Entity {tenant: $tenant})-[r:SAME_AS {status: 'pending'}]->() } AS pending_reviews,
  COUNT { MATCH (n:Episode {tenant: $tenant}) } AS episodes,
  COUNT { MATCH (n:Lesson {tenant: $tenant}) } AS lessons,
  COUNT { MATCH (n:Playbook {tenant: $tenant}) } AS playbooks
"""


def tenant_stats(scope: Scope) -> dict:
    counts = cypher.read(scope, STATS_QUERY)[0]
    return {**counts, "read_at": timezone.now().isoformat()}


def job_get(scope: Scope, *, uid: str) -> Job | None:
    return Job.objects.filter(tenant__uid=scope.tenant, uid=uid).first()


# What each kind of job is called on the pages (a kind missing here shows as it is stored).
JOB_LABELS = {
    "document_ingest": "Document ingestion",
    "document_delete": "Document deletion",
    "evidence_pages": "Pages read for a task",
    "similarity_sync": "Similarity links",
    "conversation_import": "Conversation import",
    "conversation_erase": "Conversation erasure",
    "rows_from_entries": "Rows from entries",
    "knowledge_promote": "Knowledge promotion",
    "match_model.learn": "Match model learning",
    "auto_merges.rescore": "Automatic merges re-scored",
    "tenant_export": "Tenant export",
    "tenant_import": "Tenant import",
}
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
        rows.append({"job": job, "label": JOB_LABELS.get(job.kind, job.kind), "done": done,
                     "total": total, "percent": percent,
                     "unfinished": job.status in UNFINISHED})  # fmt: skip
    return rows
