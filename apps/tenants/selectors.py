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


def recent_jobs(scope: Scope, *, limit: int = 10) -> list[Job]:
    return list(Job.objects.filter(tenant__uid=scope.tenant).order_by("-created_at")[:limit])
