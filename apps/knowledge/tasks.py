"""Background work of promoted knowledge: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="knowledge.knowledge_tick")
def knowledge_tick() -> list[str]:
    from apps.knowledge.ticker import knowledge_tick as tick

    return tick()


@shared_task(name="knowledge.knowledge_promote")
def knowledge_promote(job_uid: str) -> dict:
    from apps.knowledge.ticker import knowledge_promotion_run

    return knowledge_promotion_run(job_uid=job_uid)
