"""Writes about tenants, people's roles and agents' keys."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from apps.graph.scope import Scope
from apps.tenants.models import (
    AuditEvent,
    Job,
    JobStatus,
    KeyScope,
    Membership,
    Role,
    Tenant,
    TenantAPIKey,
)
from memoryproject.api_errors import ApplicationError

ALL_KEY_SCOPES = [s.value for s in KeyScope]
logger = logging.getLogger(__name__)


def tenant_create(*, slug: str, name: str, settings: dict | None = None) -> Tenant:
    return Tenant.objects.create(slug=slug, name=name, settings=settings or {})


def api_key_issue(
    *, tenant: Tenant, name: str, scopes: list[str] | None = None
) -> tuple[TenantAPIKey, str]:
    """Returns the key row and the raw key, which is shown once and never stored."""
    scopes = list(scopes if scopes is not None else ALL_KEY_SCOPES)
    unknown = sorted(set(scopes) - set(ALL_KEY_SCOPES))
    if unknown:
        raise ApplicationError(f"Unknown key scopes: {unknown}", field="scopes")
    api_key, raw = TenantAPIKey.objects.create_key(name=name, tenant=tenant, scopes=scopes)
    return api_key, raw


def api_key_revoke(*, api_key: TenantAPIKey) -> None:
    TenantAPIKey.objects.filter(pk=api_key.pk).update(revoked=True)


def membership_grant(*, user, tenant: Tenant, role: str) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        user=user, tenant=tenant, defaults={"role": role}
    )
    return membership


def audit_record(
    scope: Scope, *, action: str, target: str = "", details: dict | None = None
) -> AuditEvent:
    return AuditEvent.objects.create(
        tenant=Tenant.objects.get(uid=scope.tenant),
        actor=scope.actor,
        actor_kind=scope.actor_kind,
        action=action,
        target=target,
        details=details or {},
    )


def job_create(scope: Scope, *, kind: str, subject: str = "", total: int = 0) -> Job:
    return Job.objects.create(
        tenant=Tenant.objects.get(uid=scope.tenant),
        kind=kind,
        subject=subject,
        actor=scope.actor,
        progress={"done": 0, "total": total},
    )


def job_progress(job: Job, **progress) -> None:
    """Merge counters into the job's progress and mark it running (one UPDATE)."""
    with transaction.atomic():
        current = Job.objects.select_for_update().get(pk=job.pk)
        current.progress = {**current.progress, **progress}
        current.status = JobStatus.RUNNING
        current.save(update_fields=["progress", "status", "updated_at"])
    job.progress = current.progress
    job.status = current.status


def job_finish(job: Job, *, result: dict | None = None, error: str = "") -> None:
    job.status = JobStatus.FAILED if error else JobStatus.DONE
    job.result = result or job.result
    job.error = error[:4000]
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "result", "error", "finished_at", "updated_at"])


def job_fail(job: Job, exc: BaseException, *, message: str = "") -> None:
    """Mark the job failed with a short message a caller may see (the failure's class, never
    its text, which may quote data or internals); the detail goes to the log."""
    logger.error("job %s (%s) failed", job.uid, job.kind, exc_info=exc)
    job_finish(job, error=message or f"{type(exc).__name__} (the detail is in the worker's log)")


@dataclass(frozen=True)
class DemoSetup:
    tenant: Tenant
    username: str
    password: str | None  # None when the account existed already
    api_key: str | None  # None when a key existed already


def demo_setup(*, slug: str = "demo", username: str = "admin") -> DemoSetup:
    """A demo tenant with an admin account and an API key; reuses what exists."""
    tenant, _ = Tenant.objects.get_or_create(slug=slug, defaults={"name": "Demo tenant"})
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    password = None
    if user is None:
        password = secrets.token_urlsafe(12)
        user = user_model.objects.create_superuser(username=username, password=password, email="")
    membership_grant(user=user, tenant=tenant, role=Role.ADMIN)
    raw_key = None
    if not TenantAPIKey.objects.filter(tenant=tenant, revoked=False).exists():
        _, raw_key = api_key_issue(tenant=tenant, name="demo agent")
    return DemoSetup(tenant=tenant, username=username, password=password, api_key=raw_key)
