"""Background work of conversations: thin tasks that load a scope and call one service."""

from __future__ import annotations

import logging

from celery import shared_task

from apps.graph.scope import Scope

logger = logging.getLogger(__name__)
GONE = {"skipped": "the tenant no longer exists"}
# How much one embedding task takes on before it queues the next one for the rest (5,120: the
# hop to the next task took up to 4 s on the SQLite broker), in parts of EMBED_BATCH (one call
# of the model each: calls of 64 took about 10% longer than one call of all; 1 December).
EMBED_BATCH, EMBED_BATCHES = 256, 20


def _system_scope(tenant_uid: str, actor: str = "system:worker") -> Scope | None:
    """The worker's scope in the tenant, with the right to write memory (embeddings, summaries)
    and no more; None when the tenant was deleted after the task was queued (the task then has
    nothing to do)."""
    from apps.tenants.auth import scope_for_system
    from apps.tenants.models import KeyScope, Tenant

    tenant = Tenant.objects.filter(uid=tenant_uid).first()
    if tenant is None:
        return None
    return scope_for_system(tenant, actor, {KeyScope.MEMORY_WRITE})


@shared_task(name="conversations.messages_embed")
def messages_embed(tenant_uid: str) -> dict:
    from apps.conversations.embedding import messages_embed_pending

    scope = _system_scope(tenant_uid)
    if scope is None:
        return GONE
    result = messages_embed_pending(scope, batch=EMBED_BATCH, max_batches=EMBED_BATCHES)
    if result["more"]:
        result["next_queued"] = _embedding_queued(tenant_uid)
    return result


def _embedding_queued(tenant_uid: str) -> bool:
    """Queue an embedding task from a worker; False when the broker cannot be reached. That
    fails nothing (the work done is committed): it is logged, and beat's sweep below queues the
    tenant again while its messages wait."""
    from kombu.exceptions import OperationalError

    try:
        messages_embed.delay(tenant_uid)
    except (OperationalError, OSError):
        logger.warning("conversations.messages_embed not queued for tenant %s; the sweep "
                       "retries", tenant_uid, exc_info=True)  # fmt: skip
        return False
    return True


@shared_task(name="conversations.messages_embed_batch")
def messages_embed_batch(tenant_uid: str, uids: list[str]) -> dict:
    """One batch append's messages, embedded together; then, in the same task, the tenant's
    other waiting messages as messages_embed takes them. An import's later batches, committed
    while this one was encoded, are then embedded without a broker hop each (about a second a
    task on the SQLite broker), and their own tasks find nothing left."""
    from apps.conversations.embedding import messages_embed_listed, messages_embed_pending

    scope = _system_scope(tenant_uid)
    if scope is None:
        return GONE
    listed = messages_embed_listed(scope, uids=uids)
    rest = messages_embed_pending(scope, batch=EMBED_BATCH, max_batches=EMBED_BATCHES)
    result = {key: round(listed.get(key, 0) + rest.get(key, 0), 3)
              for key in ("embedded", "encode_s", "write_s") if key in listed or key in rest}  # fmt: skip
    result["listed"] = listed["embedded"]
    if rest["more"]:
        result["next_queued"] = _embedding_queued(tenant_uid)
    return result


@shared_task(name="conversations.messages_embed_sweep")
def messages_embed_sweep() -> dict:
    """Beat's safety net: a tenant with messages still waiting (their task was never queued, a
    broker was down, a worker died) gets an embedding task."""
    from apps.conversations.embedding import messages_waiting
    from apps.tenants.models import Tenant

    queued = not_queued = 0
    for uid in Tenant.objects.values_list("uid", flat=True):
        scope = _system_scope(uid)
        if scope is not None and messages_waiting(scope):
            if _embedding_queued(uid):
                queued += 1
            else:
                not_queued += 1
    return {"queued": queued, "not_queued": not_queued}


@shared_task(name="conversations.session_summarize")
def session_summarize(tenant_uid: str, user: str, sid: str) -> dict:
    from apps.conversations.summaries import session_summarize as summarize

    scope = _system_scope(tenant_uid, "system:summarizer")
    return GONE if scope is None else summarize(scope, user=user, sid=sid)


@shared_task(name="conversations.conversation_import")
def conversation_import(job_uid: str) -> dict:
    from apps.conversations.imports import import_run

    return import_run(job_uid=job_uid)


@shared_task(name="conversations.conversation_erase")
def conversation_erase(job_uid: str, user: str, sid: str | None) -> dict:
    # The user travels in the task's arguments only, never in the job row or the audit; the
    # broker's delivered copy of those arguments goes once the erasure is done.
    from apps.conversations.erasure import erasure_run
    from memoryproject.broker_rows import delivered_messages_purge

    try:
        return erasure_run(job_uid=job_uid, user=user, sid=sid)
    finally:
        delivered_messages_purge()
