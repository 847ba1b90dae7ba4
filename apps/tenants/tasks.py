"""Background work of the tenant console: thin tasks that call one service each."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tenants.tenant_export")
def tenant_export(job_uid: str) -> dict | None:
    from apps.tenants.tenant_export import export_run

    return export_run(job_uid=job_uid)


@shared_task(name="tenants.tenant_import")
def tenant_import(job_uid: str) -> dict | None:
    from apps.tenants.tenant_import import import_run

    return import_run(job_uid=job_uid)


@shared_task(name="tenants.tenant_delete")
def tenant_delete(deletion_uid: str) -> dict | None:
    from apps.tenants.tenant_deletion import deletion_run

    return deletion_run(deletion_uid=deletion_uid)


@shared_task(name="tenants.usage_sample")
def usage_sample() -> int:
    from apps.tenants.usage import usage_samples_record

    return usage_samples_record()
