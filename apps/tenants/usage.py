"""A tenant's usage: its memory counts and the state of its background jobs now, and the same
counts over time (one sample per tenant per hour, taken by a beat task)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
    memory = tenant_stats(scope)
    history = usage_history(tenant=tenant)
    if not history and any(memory.get(name) for name in SAMPLED):
        history = _first_reading(tenant)
    return {
        "memory": memory,
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
        "history": history,
        "throughput": ingest_throughput(tenant=tenant),
    }


def _first_reading(tenant: Tenant) -> list[UsageSample]:
    """No sample yet (the beat task has not run for this tenant) but there is data: take this
    hour's now, so the page shows the counts there are instead of "no reading"."""
    sample = usage_sample_record(tenant=tenant)
    return [sample] if sample is not None else []


INGEST_JOB_KIND = "document_ingest"  # apps/ingestion/services.py JOB_KIND
THROUGHPUT_DAYS = 14


def ingest_throughput(*, tenant: Tenant, days: int = THROUGHPUT_DAYS,
                      now: datetime | None = None) -> list[dict]:  # fmt: skip
    """Documents ingested (and ingestions failed) per day for the last `days` days, oldest
    first: [{day, done, failed}], by the day each ingestion job finished (UTC)."""
    today = (now or timezone.now()).astimezone(UTC).date()
    first = today - timedelta(days=days - 1)
    by_day = {first + timedelta(days=i): {"done": 0, "failed": 0} for i in range(days)}
    finished = Job.objects.filter(
        tenant=tenant, kind=INGEST_JOB_KIND, status__in=[JobStatus.DONE, JobStatus.FAILED],
        finished_at__gte=datetime(first.year, first.month, first.day, tzinfo=UTC),
    ).values_list("status", "finished_at")  # fmt: skip
    for status, at in finished:
        day = at.astimezone(UTC).date()
        if day in by_day:
            by_day[day][status] += 1
    return [{"day": day.isoformat(), **counts} for day, counts in by_day.items()]


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
