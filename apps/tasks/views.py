"""Pages of the work graph: a tenant's task DAG (one level at a time, collapsed by parent), a
task with its evidence, supersession and claims, a task's context (what the walk ranked, why,
with its scores), and the ready set."""

from __future__ import annotations

from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.tasks import context as task_context
from apps.tasks import selectors
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError, NotFoundError
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import MAX_UID_CHARS


@require_GET
@role_required(Role.VIEWER)
def dag_page(request):
    parent = request.GET.get("parent") or None
    if parent is not None and len(parent) > MAX_UID_CHARS:
        raise Http404
    try:
        level = selectors.dag_level(request.scope, parent=parent, limit=500)
    except NotFoundError as exc:
        raise Http404 from exc
    context = {"level": level, "parent": parent}
    return render_page_or_fragment(request, "tasks/dag.html", "tasks/partials/dag.html", context)


@require_GET
@role_required(Role.VIEWER)
def task_page(request, task: str):
    try:
        detail = selectors.task_detail(request.scope, task=task)
    except NotFoundError as exc:
        raise Http404 from exc
    ingests = selectors.page_ingests(request.scope, task_uid=detail["uid"])
    return render(request, "tasks/task.html", {"task": detail, **_ingests(ingests)})


@require_GET
@role_required(Role.VIEWER)
def task_ingests(request, task: str):
    """The task's page-ingest jobs (a fragment htmx polls while one runs)."""
    try:
        uid = selectors.resolve_task_uid(request.scope, task)
    except (NotFoundError, ApplicationError) as exc:
        raise Http404 from exc
    ingests = selectors.page_ingests(request.scope, task_uid=uid)
    context = {"task": {"id": task}, **_ingests(ingests)}
    return render(request, "tasks/partials/ingests.html", context)


@require_GET
@role_required(Role.VIEWER)
def task_context_page(request, task: str):
    """The context an agent gets for the task: each item's rank, score, tokens and why."""
    raw = request.GET.get("token_budget") or "4000"
    if not raw.isdigit() or len(raw) > 7:
        return HttpResponseBadRequest(
            f"token_budget is a whole number, 1 to {task_context.MAX_TOKEN_BUDGET}."
        )
    try:
        got = task_context.task_context(request.scope, task=task, token_budget=int(raw),
                                        limit=task_context.MAX_ITEMS)  # fmt: skip
    except NotFoundError as exc:
        raise Http404 from exc
    except ApplicationError as exc:
        return HttpResponseBadRequest(str(exc))
    detail = selectors.task_detail(request.scope, task=got["task"])
    return render(request, "tasks/context.html", {"task": detail, "context": got})


def _ingests(rows: list[dict]) -> dict:
    return {"ingests": rows, "ingests_running": any(r["running"] for r in rows)}


@require_GET
@role_required(Role.VIEWER)
def ready_page(request):
    rows = selectors.ready_set(request.scope, limit=selectors.MAX_READY)
    return render(request, "tasks/ready.html", {"tasks": rows})
