"""Deletion of a whole tenant, as a job, by site staff or one of the tenant's admins who types
the tenant's slug to confirm.

The worker removes, each in batches of TENANT_DELETE_BATCH: the API keys and memberships first
(nobody acts for the tenant any more), then the graph (every label the tenant has nodes under,
then relationships that carry the tenant between other nodes), then the rows of every table that
refers to the tenant (jobs, audit, anything an app adds), then the tenant itself, then its
archives on disk (exports, uploaded imports). Then it scans
(apps/tenant_data/selectors.py: every node, relationship and row that could hold the tenant); a
worker of another job that wrote meanwhile is swept again, up to SWEEPS times. The
TenantDeletion row is the site-level record: who asked, when, and the final scan."""

from __future__ import annotations

import logging
import shutil

from django.conf import settings
from django.utils import timezone

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tenant_data.selectors import tenant_models, tenant_scan
from apps.tenant_data.services.tenant_archive import archive_dir
from apps.tenants.models import JobStatus, Tenant, TenantAPIKey, TenantDeletion
from memoryproject.api_errors import ApplicationError, ConflictError

logger = logging.getLogger(__name__)
SWEEPS = 3

LABELS = """
CALL db.labels() YIELD label
CALL (label) { MATCH (n:$(label)) WHERE n.tenant = $tenant RETURN count(n) AS n }
WITH label, n WHERE n > 0
RETURN label
"""
NODES_DELETE = """
MATCH (n:$($label)) WHERE n.tenant = $tenant
WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS n
"""
# Nodes with no label at all are not in any label's list: found by a scan.
UNLABELLED_DELETE = """
MATCH (n) WHERE n.tenant = $tenant AND size(labels(n)) = 0
WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS n
"""
RELATIONSHIPS_DELETE = """
MATCH ()-[r]->() WHERE r.tenant = $tenant
WITH r LIMIT $batch DELETE r RETURN count(*) AS n
"""


def check_tenant_delete(*, actor: str, tenant: Tenant, confirm: str) -> TenantDeletion:
    """Queue the deletion of `tenant` once `confirm` is its slug. The caller has decided that
    `actor` may (site staff, or an admin of the tenant: the console's access rule)."""
    if confirm.strip() != tenant.slug:
        raise ApplicationError("Type the tenant's slug to confirm its deletion.", field="confirm")
    running = TenantDeletion.objects.filter(
        tenant_uid=tenant.uid, status__in=[JobStatus.QUEUED, JobStatus.RUNNING]
    )
    if running.exists():
        raise ConflictError("This tenant's deletion is already under way.", field="tenant")
    deletion = TenantDeletion.objects.create(
        tenant_uid=tenant.uid, tenant_slug=tenant.slug, requested_by=actor[:200]
    )
    from kombu.exceptions import OperationalError

    from apps.tenant_data import tasks
    from apps.tenants.services import QUEUE_DOWN

    try:
        tasks.tenant_delete.delay(deletion.uid)
    except (OperationalError, OSError) as exc:
        # Not a Job, so job_enqueue does not fit; the same refusal: recorded failed, a 503.
        TenantDeletion.objects.filter(uid=deletion.uid).update(
            status=JobStatus.FAILED, error=QUEUE_DOWN
        )
        raise ApplicationError(QUEUE_DOWN, code="queue_unavailable", status=503,
                               extra={"deletion": deletion.uid}) from exc  # fmt: skip
    return deletion


def deletion_get(*, uid: str) -> TenantDeletion | None:
    return TenantDeletion.objects.filter(uid=uid).first()


def deletion_run(*, deletion_uid: str) -> dict | None:
    """The worker's side; running it again (a redelivered task) deletes what is left."""
    deletion = TenantDeletion.objects.filter(uid=deletion_uid).first()
    if deletion is None:
        return None
    scope = Scope(tenant=deletion.tenant_uid, actor=f"system:delete:{deletion.uid}",
                  actor_kind="system")  # fmt: skip
    deleted = {"nodes": 0, "relationships": 0, "rows": 0}

    def step(name: str) -> None:
        TenantDeletion.objects.filter(pk=deletion.pk).update(
            status=JobStatus.RUNNING, progress={"step": name, **deleted},
            updated_at=timezone.now(),
        )  # fmt: skip

    try:
        step("keys and memberships")
        from apps.tenants.models import Membership

        for model in (TenantAPIKey, Membership):
            deleted["rows"] += _rows_delete(model, deletion.tenant_uid)
        scan = {}
        for _ in range(SWEEPS):
            step("graph")
            _graph_delete(scope, deleted, step)
            step("relational rows")
            for model in tenant_models():
                deleted["rows"] += _rows_delete(model, deletion.tenant_uid)
            Tenant.objects.filter(uid=deletion.tenant_uid).delete()
            step("archives")
            shutil.rmtree(archive_dir() / deletion.tenant_uid, ignore_errors=True)
            step("scan")
            scan = tenant_scan(tenant_uid=deletion.tenant_uid)
            if scan["left"] == 0 and not scan["rows"]["tenants.tenant"]:
                break
    except Exception as exc:
        logger.error("tenant deletion %s failed", deletion.uid, exc_info=exc)
        TenantDeletion.objects.filter(pk=deletion.pk).update(
            status=JobStatus.FAILED, error=f"{type(exc).__name__} (the detail is in the log)",
            progress={"step": "failed", **deleted}, finished_at=timezone.now(),
        )  # fmt: skip
        raise
    clean = scan["left"] == 0
    TenantDeletion.objects.filter(pk=deletion.pk).update(
        status=JobStatus.DONE if clean else JobStatus.FAILED, scan=scan,
        progress={"step": "done", **deleted}, finished_at=timezone.now(),
        error="" if clean else "Something of the tenant was left; see the scan.",
    )  # fmt: skip
    return {**deleted, "left": scan["left"]}


def _rows_delete(model, tenant_uid: str) -> int:
    field = next(f.name for f in model._meta.get_fields()
                 if getattr(f, "related_model", None) is Tenant and f.many_to_one)  # fmt: skip
    rows = model._default_manager.filter(**{f"{field}__uid": tenant_uid})
    total = 0
    while ids := list(rows.values_list("pk", flat=True)[: settings.TENANT_DELETE_BATCH]):
        total += model._default_manager.filter(pk__in=ids).delete()[1].get(
            model._meta.label, 0
        )  # fmt: skip
    return total


def _graph_delete(scope: Scope, deleted: dict, step) -> None:
    batch = settings.TENANT_DELETE_BATCH
    for row in cypher.read(scope, LABELS):
        while n := cypher.write(scope, NODES_DELETE, label=row["label"], batch=batch)[0]["n"]:
            deleted["nodes"] += n
            step(f"graph: {row['label']}")
    while n := cypher.write(scope, UNLABELLED_DELETE, batch=batch)[0]["n"]:
        deleted["nodes"] += n
    while n := cypher.write(scope, RELATIONSHIPS_DELETE, batch=batch)[0]["n"]:
        deleted["relationships"] += n
