"""Background work of review: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="resolution.reresolve")
def tenant_reresolve(job_uid: str) -> dict | None:
    from apps.review.tenant_reresolution import tenant_reresolve_run

    return tenant_reresolve_run(job_uid=job_uid)
