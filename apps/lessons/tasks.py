"""Background work of lessons: thin tasks that load a scope and call one service."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)
GONE = {"skipped": "the tenant no longer exists"}
EMBED_BATCH, EMBED_BATCHES = 128, 20


def _system_scope(tenant_uid: str):
    """The worker's scope in the tenant, with the right to write memory and no more; None when
    the tenant was deleted after the task was queued."""
    from apps.tenants.auth import scope_for_system
    from apps.tenants.models import KeyScope, Tenant

    tenant = Tenant.objects.filter(uid=tenant_uid).first()
    if tenant is None:
        return None
    return scope_for_system(tenant, "system:worker", {KeyScope.MEMORY_WRITE})


@shared_task(name="lessons.entries_embed")
def entries_embed(tenant_uid: str) -> dict:
    from apps.lessons.services.entry_embedding import entries_embed_pending

    scope = _system_scope(tenant_uid)
    if scope is None:
        return GONE
    result = entries_embed_pending(scope, batch=EMBED_BATCH, max_batches=EMBED_BATCHES)
    if result["more"]:
        result["next_queued"] = _queued(tenant_uid)
    return result


def _queued(tenant_uid: str) -> bool:
    from kombu.exceptions import OperationalError

    try:
        entries_embed.delay(tenant_uid)
    except (OperationalError, OSError):
        logger.warning("lessons.entries_embed not queued for tenant %s; the sweep retries",
                       tenant_uid, exc_info=True)  # fmt: skip
        return False
    return True


@shared_task(name="lessons.entries_embed_sweep")
def entries_embed_sweep() -> dict:
    """Beat's safety net: a tenant with entries still waiting gets an embedding task."""
    from apps.lessons.services.entry_embedding import entries_waiting
    from apps.tenants.models import Tenant

    queued = not_queued = 0
    for uid in Tenant.objects.values_list("uid", flat=True):
        scope = _system_scope(uid)
        if scope is not None and entries_waiting(scope):
            if _queued(uid):
                queued += 1
            else:
                not_queued += 1
    return {"queued": queued, "not_queued": not_queued}
