"""Background work of the console's data page: thin tasks that call one service each. The task
names keep their `tenants.` prefix from before this app existed, so a message queued by an older
process still finds its task."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tenants.tenant_export")
def tenant_export(job_uid: str) -> dict | None:
    from apps.tenant_data.services.tenant_export import export_run

    return export_run(job_uid=job_uid)


@shared_task(name="tenants.tenant_import")
def tenant_import(job_uid: str) -> dict | None:
    from apps.tenant_data.services.tenant_import import import_run

    return import_run(job_uid=job_uid)


@shared_task(name="tenants.tenant_delete")
def tenant_delete(deletion_uid: str) -> dict | None:
    from apps.tenant_data.services.tenant_deletion import deletion_run

    return deletion_run(deletion_uid=deletion_uid)
