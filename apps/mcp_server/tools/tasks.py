"""Tools over agents' tasks: create one, the ready set, claim one with a lease, complete or fail
it, and the context for a task (Personalized PageRank over the work graph). The REST routes'
serializers and services, through tool_calls."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from apps.mcp_server.output_schemas import OBJECT, ROWS, obj, serializer_schema
from apps.mcp_server.tool_calls import checked, tool_run
from apps.mcp_server.tools.memory import READ, WRITE, arg
from apps.tasks import context as task_context_module
from apps.tasks import selectors
from apps.tasks.api.answers import EvidenceDetailOut, TaskDetailOut
from apps.tasks.api.evidence import EvidenceIn, EvidenceOut
from apps.tasks.api.tasks import (
    ClaimIn,
    ContextIn,
    ContextOut,
    FinishIn,
    ReadyFilters,
    ReceiptOut,
    StatusOut,
    TaskCreateIn,
)
from apps.tasks.services import claims, evidence
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
    prepared_prompt: Annotated[
        str | None,
        arg(
            "the prompt prepared for the agent that takes the task", TaskCreateIn, "prepared_prompt"
        ),
    ] = None,
    antifocus: Annotated[
        str | None,
        arg("what the task's context leaves out, by meaning", TaskCreateIn, "antifocus"),
    ] = None,
) -> CallToolResult:
    """Create a task; it is ready once every task it depends on is done. Returns its short id."""

    def work(scope):
        data = checked(TaskCreateIn, description=description, kind=kind, parent=parent,
                       depends_on=depends_on, embed_text=embed_text,
                       prepared_prompt=prepared_prompt, antifocus=antifocus)  # fmt: skip
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


def release_task(
    ctx: Context, task: Annotated[str, arg("the claimed task's id", max_length=MAX_UID_CHARS)]
) -> CallToolResult:
    """Give a task you hold back: pending again, free for the next claim."""

    def work(scope):
        return claims.check_task_release(scope, task=task[:MAX_UID_CHARS])

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="task_release")


def get_task(
    ctx: Context, task: Annotated[str, arg("the task's id or uid", max_length=MAX_UID_CHARS)]
) -> CallToolResult:
    """One task with its edges, claims and evidence."""

    def work(scope):
        return selectors.task_detail(scope, task=task[:MAX_UID_CHARS])

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def add_evidence(
    ctx: Context,
    task: Annotated[str, arg("the open task that produced it", max_length=MAX_UID_CHARS)],
    content: Annotated[str, arg("the finding, kept whole", EvidenceIn, "content")],
    source: Annotated[str, arg("where it was found", EvidenceIn, "source")],
    strength: Annotated[float, arg("how strongly it holds, 0-1", EvidenceIn, "strength")],
    url: Annotated[str | None, arg("its URL", EvidenceIn, "url")] = None,
    mentions: Annotated[
        list[str] | None, arg("entity uids it names", EvidenceIn, "mentions")
    ] = None,
) -> CallToolResult:
    """Add a finding produced by an open task: immutable evidence, linked to what it names."""

    def work(scope):
        data = checked(EvidenceIn, content=content, source=source, strength=strength, url=url,
                       mentions=mentions)  # fmt: skip
        return evidence.check_evidence_add(scope, task=task[:MAX_UID_CHARS], **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="evidence")


def get_evidence(
    ctx: Context, evidence_id: Annotated[str, arg("an evidence id", max_length=MAX_UID_CHARS)]
) -> CallToolResult:
    """One evidence node with its provenance and what is similar to it."""

    def work(scope):
        return selectors.evidence_detail(scope, evidence=evidence_id[:MAX_UID_CHARS])

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def register(server) -> None:
    W, R = KeyScope.MEMORY_WRITE, KeyScope.MEMORY_READ
    receipt = serializer_schema(ReceiptOut)
    for fn, needs, output, hints in (
        (create_task, W, receipt, WRITE),
        (claim_task, W, obj(task={"type": ["object", "null"]}), WRITE),
        (complete_task, W, serializer_schema(StatusOut), WRITE),
        (fail_task, W, serializer_schema(StatusOut), WRITE),
        (release_task, W, serializer_schema(StatusOut), WRITE),
        (add_evidence, W, serializer_schema(EvidenceOut), WRITE),
        (ready_tasks, R, ROWS, READ),
        (task_context, R, serializer_schema(ContextOut), READ),
        (get_task, R, serializer_schema(TaskDetailOut), READ),
        (get_evidence, R, serializer_schema(EvidenceDetailOut), READ),
    ):
        server.tool_add(fn, needs=needs, output=output or OBJECT, annotations=hints)
