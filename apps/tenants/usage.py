"""A tenant's usage: its memory counts and the state of its background jobs now, and the same
counts over time (one sample per tenant per hour, taken by a beat task)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from apps.graph.scope import Scope
from apps.tenants.auth import scope_for_system
from apps.tenants.models import Job, JobStatus, Membership, Tenant, TenantAPIKey, UsageSample
from apps.tenants.selectors import tenant_stats

FAILED_SHOWN = 10
HISTORY_SHOWN = 48  # hours on the usage page
USAGE_KEEP_DAYS = 90
SAMPLED = ("documents", "entities", "messages", "pending_reviews")


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
        "history": usage_history(tenant=tenant),
    }


def usage_history(*, tenant: Tenant, limit: int = HISTORY_SHOWN) -> list[UsageSample]:
    """The tenant's latest hourly samples, newest first."""
    return list(UsageSample.objects.filter(tenant=tenant).order_by("-hour")[:limit])


def usage_sample_record(*, tenant: Tenant, now: datetime | None = None) -> UsageSample | None:
    """Read the tenant's counts and keep them as its sample of this hour (a later reading in
    the same hour replaces it, so running twice is harmless). None if the tenant is gone."""
    now = now or timezone.now()
    hour = now.replace(minute=0, second=0, microsecond=0)
    counts = tenant_stats(scope_for_system(tenant, "system:usage"))
    jobs = Job.objects.filter(tenant=tenant)
    values = {
        **{name: counts.get(name, 0) for name in SAMPLED},  # an app not installed counts 0
        "jobs_running": jobs.filter(status=JobStatus.RUNNING).count(),
        "jobs_failed": jobs.filter(status=JobStatus.FAILED).count(),
        "taken_at": now,
    }
    try:
        with transaction.atomic():
            # One statement (INSERT ... ON CONFLICT UPDATE): two workers sampling the same hour
            # at once leave one row, never an IntegrityError.
            UsageSample.objects.bulk_create(
                [UsageSample(tenant=tenant, hour=hour, **values)],
                update_conflicts=True, unique_fields=["tenant", "hour"],
                update_fields=list(values),
            )  # fmt: skip
    except IntegrityError:  # the tenant was deleted meanwhile
        return None
    return UsageSample.objects.filter(tenant=tenant, hour=hour).first()


def usage_samples_record(*, now: datetime | None = None) -> int:
    """A sample of every tenant, and samples past USAGE_KEEP_DAYS dropped. Returns how many
    tenants were sampled."""
    now = now or timezone.now()
    sampled = sum(
        usage_sample_record(tenant=tenant, now=now) is not None
        for tenant in Tenant.objects.order_by("pk").iterator()
    )
    UsageSample.objects.filter(hour__lt=now - timedelta(days=USAGE_KEEP_DAYS)).delete()
    return sampled
