"""What an import writes to the relational database: the archive's settings, memberships, jobs
and audit trail, in one transaction, once.

Nothing in an archive is trusted for being in it. Its settings pass the console's own checks
(apps/tenants/tenant_settings.py) in the import's first pass, so a bad value refuses the import
before anything is written. A membership row grants a role only to an account that was the
archive's: a member of the exported tenant, on this site, whose member list the importing admin
could see (they are an admin of that tenant too). Any other row (an account of another tenant,
an account of another site that happens to share a username, a tenant deleted since its
export) is skipped and named in the job's result, never granted silently: the admin invites
those people, who then accept."""

from __future__ import annotations

import re
import uuid
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from apps.graph.scope import Scope
from apps.tenant_data.services.tenant_archive import ArchiveRefused
from apps.tenants.models import AuditEvent, Job, JobStatus, Membership, Role, Tenant
from apps.tenants.services import audit_record
from apps.tenants.tenant_settings import settings_parse
from memoryproject.api_errors import ApplicationError

ROWS_DONE = "tenant.import_rows_written"
UID_TOKEN = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}")
NAMES_REPORTED = 100  # usernames named in a job's result, at most
USERNAME_CHARS = 150


def archive_settings_check(archived: dict, *, line: int, current: dict) -> dict:
    """The archive's settings as the console would store them: each known setting parsed and
    bounded by its rule (review below merge), refused with the setting named; settings this
    site does not know (a newer site's) are left out. Returns {"values", "unknown"}."""
    known = {k: v for k, v in archived.items() if k in settings.TENANT_DEFAULTS}
    try:
        values = settings_parse(known, current=current)
    except ApplicationError as refused:
        message = refused.message.rstrip(".")
        raise ArchiveRefused(line, f"the setting {message}", field=refused.field) from None
    return {"values": values, "unknown": sorted(str(k)[:100] for k in archived if k not in known)}


def import_rows_write(
    scope: Scope, records, mapping: dict, job_uid: str, *, source: str, own_settings: dict
) -> dict:
    """The relational rows and the checked settings in one transaction, once (a rerun finds its
    marker). `source` is the exported tenant's uid (the archive's header)."""
    tenant = Tenant.objects.get(uid=scope.tenant)
    if AuditEvent.objects.filter(tenant=tenant, action=ROWS_DONE, target=f"job:{job_uid}").exists():
        return {}
    counts = {"memberships": 0, "memberships_skipped": 0, "jobs": 0, "audit_events": 0}
    not_granted: list[str] = []
    own = archive_accounts(source=source, importer=scope.actor)
    users = get_user_model().objects
    with transaction.atomic():
        overrides = {k: v for k, v in own_settings.items() if v != settings.TENANT_DEFAULTS[k]}
        tenant.settings = {**tenant.settings, **overrides}
        tenant.save(update_fields=["settings"])
        for record in records:
            if record["kind"] != "row":
                continue
            fields = uids_remapped(record["fields"], mapping)
            if record["table"] == "tenants.membership":
                username = str(fields.get("username", ""))[:USERNAME_CHARS]
                user = users.filter(username=username).first()
                role = fields.get("role")
                member = Membership.objects.filter(user=user, tenant=tenant).exists()
                if user is None or role not in Role.values or not (username in own or member):
                    counts["memberships_skipped"] += 1  # no such person here, or not the archive's
                    not_granted.append(username)
                    continue
                Membership.objects.get_or_create(user=user, tenant=tenant,
                                                 defaults={"role": role})  # fmt: skip
                counts["memberships"] += 1
            elif record["table"] == "tenants.job":
                _job_copy(tenant, fields)
                counts["jobs"] += 1
            else:
                _audit_copy(tenant, fields)
                counts["audit_events"] += 1
        audit_record(scope, action=ROWS_DONE, target=f"job:{job_uid}", details=counts)
    # Why each person was left out is not said: that would tell who has an account here.
    return {**counts, "memberships_not_granted": sorted(set(not_granted))[:NAMES_REPORTED]}


def archive_accounts(*, source: str, importer: str) -> set[str]:
    """Usernames a membership row may grant a role to: the members of the exported tenant when it
    still exists on this site and the importing person is one of its admins; else none."""
    tenant = Tenant.objects.filter(uid=source).first() if source else None
    if tenant is None or not importer.startswith("user:"):
        return set()
    admin = Membership.objects.filter(
        tenant=tenant, role=Role.ADMIN, user__username=importer.removeprefix("user:")
    )
    if not admin.exists():
        return set()
    return set(Membership.objects.filter(tenant=tenant).values_list("user__username", flat=True))


def uids_remapped(value, mapping: dict[str, str]):
    """`value` with every old uid in its strings (lists and objects too) replaced by its new."""
    if isinstance(value, str):
        return UID_TOKEN.sub(lambda m: mapping.get(m.group(0), m.group(0)), value)
    if isinstance(value, list):
        return [uids_remapped(v, mapping) for v in value]
    if isinstance(value, dict):
        return {k: uids_remapped(v, mapping) for k, v in value.items()}
    return value


def _when(value) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _text(value, limit: int) -> str:
    return str(value or "")[:limit]


def _job_copy(tenant: Tenant, fields: dict) -> None:
    status = fields.get("status")
    error = _text(fields.get("error"), 4000)
    if status not in (JobStatus.DONE, JobStatus.FAILED):  # it will never run here
        status, error = JobStatus.FAILED, "Not finished when its tenant was exported."
    attempts = fields.get("attempts")
    uid = fields.get("uid")
    job = Job.objects.create(
        uid=uid if isinstance(uid, str) and UID_TOKEN.fullmatch(uid) else uuid.uuid4().hex,
        tenant=tenant, kind=_text(fields.get("kind"), 40), subject=_text(fields.get("subject"), 200),
        status=status, error=error, actor=_text(fields.get("actor"), 200),
        progress=fields.get("progress") if isinstance(fields.get("progress"), dict) else {},
        result=fields.get("result") if isinstance(fields.get("result"), dict) else {},
        attempts=attempts if isinstance(attempts, int) and 0 <= attempts < 2**31 else 0,
        finished_at=_when(fields.get("finished_at")),
    )  # fmt: skip
    created = _when(fields.get("created_at"))
    if created:  # auto_now_add set it to now; the archive's time is the true one
        Job.objects.filter(pk=job.pk).update(created_at=created)


def _audit_copy(tenant: Tenant, fields: dict) -> None:
    event = AuditEvent.objects.create(
        tenant=tenant, actor=_text(fields.get("actor"), 200),
        actor_kind=_text(fields.get("actor_kind"), 10), action=_text(fields.get("action"), 60),
        target=_text(fields.get("target"), 200),
        details=fields.get("details") if isinstance(fields.get("details"), dict) else {},
    )  # fmt: skip
    at = _when(fields.get("at"))
    if at:
        AuditEvent.objects.filter(pk=event.pk).update(at=at)
