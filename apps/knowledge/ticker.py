"""The promotion ticker: beat fires `knowledge_tick` every minute; each tenant whose interval
(`knowledge_promotion_minutes`, 30 by default) has passed since its last promotion job gets a new
Job, and a worker promotes its chains with progress on that row."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from apps.graph.scope import Scope
from apps.knowledge.services import knowledge_promote_chains
from apps.tenants.models import Job, Tenant
from apps.tenants.services import job_create, job_fail, job_finish, job_progress

JOB_KIND = "knowledge-promotion"
MAX_RECEIPTS_KEPT = 100


def tenant_system_scope(tenant: Tenant) -> Scope:
    return Scope(
        tenant=tenant.uid,
        actor="system:knowledge-promotion",
        actor_kind="system",
        settings=tenant.effective_settings(),
    )


def knowledge_tenants_due(*, now: datetime | None = None) -> list[Tenant]:
    now = now or timezone.now()
    due = []
    for tenant in Tenant.objects.all():
        minutes = float(tenant.setting("knowledge_promotion_minutes"))
        last = Job.objects.filter(tenant=tenant, kind=JOB_KIND).order_by("-created_at").first()
        if last is None or last.created_at <= now - timedelta(minutes=minutes):
            due.append(tenant)
    return due


def knowledge_promotion_queue(scope: Scope) -> Job:
    """A promotion job for the scope's tenant, queued for a worker (the API's and the ticker's)."""
    from apps.knowledge import tasks

    job = job_create(scope, kind=JOB_KIND, subject="conversation chains")
    tasks.knowledge_promote.delay(job.uid)
    return job


def knowledge_tick(*, now: datetime | None = None) -> list[str]:
    """Queue a promotion job for every tenant that is due; returns their job uids."""
    return [
        knowledge_promotion_queue(tenant_system_scope(t)).uid
        for t in knowledge_tenants_due(now=now)
    ]


def knowledge_promotion_run(*, job_uid: str) -> dict:
    """What a worker does for one job: promote the tenant's chains, progress on the row."""
    job = Job.objects.select_related("tenant").get(uid=job_uid)
    scope = tenant_system_scope(job.tenant)
    job_progress(job, done=0)
    try:
        result = knowledge_promote_chains(
            scope, progress=lambda **counts: job_progress(job, **counts)
        )
    except Exception as exc:
        job_fail(job, exc)
        raise
    result["receipts"] = result["receipts"][:MAX_RECEIPTS_KEPT]
    job_finish(job, result=result)
    return result
