"""Background work of the work graph: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tasks.similarity_sync")
def similarity_sync(job_uid: str) -> dict | None:
    from apps.tasks.similarity import similarity_sync_run

    return similarity_sync_run(job_uid=job_uid)


@shared_task(name="tasks.pages_ingest")
def pages_ingest(job_uid: str) -> dict | None:
    from apps.tasks.services.page_ingest import pages_ingest_run

    return pages_ingest_run(job_uid=job_uid)
