"""A tenant's usage at a glance: its memory counts and the state of its background jobs."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from apps.graph.scope import Scope
from apps.tenants.models import Job, JobStatus, Membership, Tenant, TenantAPIKey
from apps.tenants.selectors import tenant_stats

FAILED_SHOWN = 10


def tenant_usage(scope: Scope, *, tenant: Tenant) -> dict:
    jobs = dict(
        Job.objects.filter(tenant=tenant)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    day_ago = timezone.now() - timedelta(days=1)
    return {
        "memory": tenant_stats(scope),
        "jobs": {status: jobs.get(status, 0) for status in JobStatus.values},
        "jobs_failed_today": Job.objects.filter(
            tenant=tenant, status=JobStatus.FAILED, updated_at__gte=day_ago
        ).count(),
        "failed": list(
            Job.objects.filter(tenant=tenant, status=JobStatus.FAILED).order_by("-updated_at")[
                :FAILED_SHOWN
            ]
        ),
        "members": Membership.objects.filter(tenant=tenant).count(),
        "active_keys": TenantAPIKey.objects.filter(tenant=tenant, revoked=False).count(),
    }
