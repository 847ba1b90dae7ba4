"""Background work of insights: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="insights.communities_refresh")
def communities_refresh(job_uid: str) -> dict | None:
    from apps.insights.communities import communities_refresh_run

    return communities_refresh_run(job_uid=job_uid)
