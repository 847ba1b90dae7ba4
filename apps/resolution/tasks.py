"""Background work of resolution: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="resolution.match_model_learn")
def match_model_learn(job_uid: str) -> dict | None:
    from apps.resolution.tenant_model import match_model_learn_run

    return match_model_learn_run(job_uid=job_uid)


@shared_task(name="resolution.auto_merges_rescore")
def auto_merges_rescore(job_uid: str) -> dict | None:
    from apps.resolution.auto_merges import auto_merges_rescore_run

    return auto_merges_rescore_run(job_uid=job_uid)
