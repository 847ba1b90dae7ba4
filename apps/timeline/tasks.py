"""Background work of versioned entities: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="timeline.rows_from_entries")
def rows_from_entries(job_uid: str) -> dict | None:
    from apps.timeline.entry_rows import rows_from_entries_run

    return rows_from_entries_run(job_uid=job_uid)


@shared_task(name="timeline.kind_embed")
def kind_embed(job_uid: str, limit: int = 100) -> dict | None:
    from apps.timeline.meaning import kind_embed_run

    return kind_embed_run(job_uid=job_uid, limit=limit)
