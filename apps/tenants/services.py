"""Writes about tenants, people's roles and agents' keys."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from neo4j.exceptions import DriverError, Neo4jError

from apps.graph.graph_version import graph_stamp_make
from apps.graph.scope import Scope
from apps.tenants.auth import scope_for_system
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
    """The tenant, and its graph's stamp (apps/graph/graph_version.py). A graph that is down
    now gets its stamp at its first kept answer instead."""
    tenant = Tenant.objects.create(slug=slug, name=name, settings=settings or {})
    try:
        graph_stamp_make(scope_for_system(tenant, "system:tenant"))
    except (Neo4jError, DriverError, OSError) as exc:
        logger.warning("tenant %s: no graph stamp yet (%s)", tenant.slug, type(exc).__name__)
    return tenant


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


def job_run(
    job_uid: str,
    work: Callable[..., dict],
    *,
    actor: str,
    permissions=frozenset(),
    audit: str = "",
    audit_details: Callable[[dict], dict] | None = None,
    refusals: dict[type[Exception], str | Callable[[Exception], str]] | None = None,
    unfinished: Callable[[dict], str] | None = None,
) -> dict | None:
    """The one way a worker runs a Job: `work(scope, progress=...)` with the rights it needs
    (`permissions`; `actor` when the job names none), progress on the row, then the result.

    - An exception of a type in `refusals` ends the job failed with that type's message (or
      what the callable given makes of the exception: for a refusal whose own text quotes no
      data, such as an archive line's), and is not raised.
    - Any other exception ends it failed with the exception's class only (`job_fail`: its text
      may quote data, an erased user's words among them; the detail goes to the log), and is
      raised for the worker.
    - With `audit`, the audit row and the job marked done are one transaction: a job reads done
      only once its audit exists.
    - With `unfinished`, a result of which it says what is left undone (a message, "" when
      nothing is) ends the job failed with that message, its result kept: a job never reads
      done while its own check says otherwise.
    Returns the result, or None for a job that no longer exists (its tenant was deleted) or was
    refused. Running a job again (a redelivered task) runs its work again: work is idempotent."""
    job = Job.objects.select_related("tenant").filter(uid=job_uid).first()
    if job is None:
        return None
    scope = scope_for_system(job.tenant, job.actor or actor, permissions)
    Job.objects.filter(pk=job.pk).update(
        attempts=F("attempts") + 1, status=JobStatus.RUNNING, updated_at=timezone.now()
    )
    try:
        result = work(scope, progress=lambda **counters: job_progress(job, **counters))
    except Exception as exc:
        refused = next((m for t, m in (refusals or {}).items() if isinstance(exc, t)), None)
        if callable(refused):
            refused = refused(exc)
        job_fail(job, exc, message=refused or "")
        if refused is None:
            raise
        return None
    left = unfinished(result) if unfinished else ""
    with transaction.atomic():
        if audit:
            details = audit_details(result) if audit_details else result
            audit_record(scope, action=audit, target=f"job:{job.uid}", details=details)
        job_finish(job, result=result, error=left)
    if left:
        logger.warning("job %s (%s) ended unfinished: %s", job.uid, job.kind, left)
    return result


def job_fail(job: Job, exc: BaseException, *, message: str = "") -> None:
    """Mark the job failed with a short message a caller may see (the failure's class, never
    its text, which may quote data or internals); the detail goes to the log."""
    logger.error("job %s (%s) failed", job.uid, job.kind, exc_info=exc)
    job_finish(job, error=message or f"{type(exc).__name__} (the detail is in the worker's log)")


QUEUE_DOWN = "The work queue could not be reached; nothing was done. Try again later."


def job_enqueue(job: Job, task, *args, undo: Callable[[], None] | None = None,
                countdown: float | None = None) -> None:  # fmt: skip
    """Queue the task that runs `job` (after `countdown` seconds, if given). A broker that
    cannot be reached leaves nothing half-done: `undo` drops what was prepared for the task,
    the job is recorded failed with the reason, and the caller is refused with a 503 (code
    `queue_unavailable`)."""
    from kombu.exceptions import OperationalError

    try:
        if countdown:
            task.apply_async(args, countdown=countdown)
        else:
            task.delay(*args)
    except (OperationalError, OSError) as exc:
        if undo is not None:
            undo()
        job_fail(job, exc, message=QUEUE_DOWN)
        raise ApplicationError(QUEUE_DOWN, code="queue_unavailable", status=503,
                               extra={"job": job.uid}) from exc  # fmt: skip


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
