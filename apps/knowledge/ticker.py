"""The promotion ticker: beat fires `knowledge_tick` every minute; each tenant whose interval
(`knowledge_promotion_minutes`, 30 by default) has passed since its last promotion job gets a new
Job, and a worker promotes its chains with progress on that row."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.utils import timezone

from apps.graph.scope import Scope
from apps.knowledge.services import knowledge_promote_chains
from apps.tenants.auth import scope_for_system
from apps.tenants.models import Job, JobStatus, KeyScope, Tenant
from apps.tenants.services import QUEUE_DOWN, job_create, job_enqueue, job_run
from memoryproject.api_errors import ApplicationError

logger = logging.getLogger(__name__)

JOB_KIND = "knowledge_promote"
MAX_RECEIPTS_KEPT = 100


ACTOR = "system:knowledge-promotion"
# Reads the conversations, writes the facts: nothing else.
RIGHTS = frozenset({KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE})


def knowledge_tenants_due(*, now: datetime | None = None) -> list[Tenant]:
    now = now or timezone.now()
    due = []
    for tenant in Tenant.objects.all():
        minutes = float(tenant.setting("knowledge_promotion_minutes"))
        # A job the queue never took does not count: the tenant is due at the next tick.
        jobs = Job.objects.filter(tenant=tenant, kind=JOB_KIND).exclude(
            status=JobStatus.FAILED, error=QUEUE_DOWN
        )
        last = jobs.order_by("-created_at").first()
        if last is None or last.created_at <= now - timedelta(minutes=minutes):
            due.append(tenant)
    return due


def knowledge_promotion_queue(scope: Scope) -> Job:
    """A promotion job for the scope's tenant, queued for a worker (the API's and the ticker's).
    A broker that cannot be reached records the job failed and raises the 503 of `job_enqueue`."""
    from apps.knowledge import tasks

    job = job_create(scope, kind=JOB_KIND, subject="conversation chains")
    job_enqueue(job, tasks.knowledge_promote, job.uid)
    return job


def knowledge_tick(*, now: datetime | None = None) -> list[str]:
    """Queue a promotion job for every tenant that is due; returns their job uids. With the
    broker down it stops at the first refusal (the rest would fail alike) and the tenants left
    are due again at the next tick."""
    queued = []
    for tenant in knowledge_tenants_due(now=now):
        try:
            queued.append(knowledge_promotion_queue(scope_for_system(tenant, ACTOR, RIGHTS)).uid)
        except ApplicationError as exc:
            if exc.code != "queue_unavailable":
                raise
            logger.warning("knowledge tick stopped: %s", exc)
            break
    return queued


def knowledge_promotion_run(*, job_uid: str) -> dict | None:
    """What a worker does for one job: promote the tenant's chains, progress on the row."""

    def work(scope: Scope, progress) -> dict:
        result = knowledge_promote_chains(scope, progress=progress)
        result["receipts"] = result["receipts"][:MAX_RECEIPTS_KEPT]
        return result

    return job_run(job_uid, work, actor=ACTOR, permissions=RIGHTS)
