"""Tools over agents' tasks: create one, the ready set, claim one with a lease, complete or fail
it, and the context for a task (Personalized PageRank over the work graph). The REST routes'
serializers and services, through tool_calls."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult

from apps.mcp_server.tool_calls import checked, tool_run
from apps.mcp_server.tools.memory import READ, WRITE, arg
from apps.tasks import context as task_context_module
from apps.tasks import selectors
from apps.tasks.api.tasks import ClaimIn, ContextIn, FinishIn, ReadyFilters, TaskCreateIn
from apps.tasks.services import claims
from apps.tasks.services.task_writes import TaskCreate, check_tasks_apply
from apps.tenants.models import KeyScope
from memoryproject.request_inputs import MAX_UID_CHARS


def create_task(
    ctx: Context,
    description: Annotated[str, arg("what is to be done", TaskCreateIn, "description")],
    kind: Annotated[
        str | None, arg("a queue name for claims (default: default)", TaskCreateIn, "kind")
    ] = None,
    parent: Annotated[
        str | None, arg("the task this is a subtask of (id)", TaskCreateIn, "parent")
    ] = None,
    depends_on: Annotated[
        list[str] | None, arg("tasks that must be DONE first (ids)", TaskCreateIn, "depends_on")
    ] = None,
    embed_text: Annotated[
        str | None,
        arg("text to compare tasks by, if not the description", TaskCreateIn, "embed_text"),
    ] = None,
) -> CallToolResult:
    """Create a task; it is ready once every task it depends on is done. Returns its short id."""

    def work(scope):
        data = checked(TaskCreateIn, description=description, kind=kind, parent=parent,
                       depends_on=depends_on, embed_text=embed_text)  # fmt: skip
        data["depends_on"] = tuple(data.get("depends_on", ()))
        return check_tasks_apply(scope, ops=[TaskCreate(**data)])[0]

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="tasks")


def ready_tasks(
    ctx: Context,
    kind: Annotated[str | None, arg("only this kind", ReadyFilters, "kind")] = None,
    limit: Annotated[int | None, arg("default 50", ReadyFilters, "limit")] = None,
) -> CallToolResult:
    """Pending tasks whose dependencies are all done, oldest first."""

    def work(scope):
        query = checked(ReadyFilters, kind=kind, limit=limit)
        rows = selectors.ready_set(scope, kind=query.get("kind"), limit=query.get("limit", 50))
        return {"results": rows}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def claim_task(
    ctx: Context,
    lease_seconds: Annotated[int, arg("how long the claim holds", ClaimIn, "lease_seconds")],
    kind: Annotated[str | None, arg("which queue (default: default)", ClaimIn, "kind")] = None,
) -> CallToolResult:
    """Claim the oldest free ready task of a kind, for a lease; `task` is null when none is free.
    Finish it before the lease runs out, or another agent may take it."""

    def work(scope):
        data = checked(ClaimIn, kind=kind, lease_seconds=lease_seconds)
        return {"task": claims.check_task_claim(scope, **data)}

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="task_claim")


def _finish(ctx, *, task: str, result_summary: str, status: str) -> CallToolResult:
    def work(scope):
        data = checked(FinishIn, result_summary=result_summary)
        return claims.check_task_finish(scope, task=task, status=status, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="task_finish")


def complete_task(
    ctx: Context,
    task: Annotated[str, arg("the claimed task's id", max_length=MAX_UID_CHARS)],
    result_summary: Annotated[str, arg("what was done", FinishIn, "result_summary")],
) -> CallToolResult:
    """Mark a task you hold as done, with what came of it."""
    return _finish(ctx, task=task, result_summary=result_summary, status="DONE")


def fail_task(
    ctx: Context,
    task: Annotated[str, arg("the claimed task's id", max_length=MAX_UID_CHARS)],
    result_summary: Annotated[str, arg("why it failed", FinishIn, "result_summary")],
) -> CallToolResult:
    """Mark a task you hold as failed, saying why."""
    return _finish(ctx, task=task, result_summary=result_summary, status="FAILED")


def task_context(
    ctx: Context,
    task: Annotated[str, arg("the task's id", max_length=MAX_UID_CHARS)],
    token_budget: Annotated[int | None, arg("default 4000", ContextIn, "token_budget")] = None,
    limit: Annotated[
        int | None, arg("at most this many items (default 30)", ContextIn, "limit")
    ] = None,
) -> CallToolResult:
    """What bears on a task: related tasks and evidence, best first within a token budget, each
    with why it was chosen."""

    def work(scope):
        data = checked(ContextIn, token_budget=token_budget, limit=limit)
        return task_context_module.task_context(scope, task=task, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def register(server: MCPServer) -> None:
    for fn in (create_task, claim_task, complete_task, fail_task):
        server.add_tool(fn, annotations=WRITE, structured_output=False)
    for fn in (ready_tasks, task_context):
        server.add_tool(fn, annotations=READ, structured_output=False)
