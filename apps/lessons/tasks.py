"""Background work of episodes, lessons and knowledge: thin tasks that call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="apps.lessons.tasks.knowledge_tick")
def knowledge_tick() -> list[str]:
    from apps.lessons.knowledge.ticker import knowledge_tick as tick

    return tick()


@shared_task(name="apps.lessons.tasks.knowledge_promote")
def knowledge_promote(job_uid: str) -> dict:
    from apps.lessons.knowledge.ticker import knowledge_promotion_run

    return knowledge_promotion_run(job_uid=job_uid)
