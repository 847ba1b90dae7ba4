"""Tools over what agents learn and hand on: episodes (open, record, close), lessons and
playbooks for a situation, handoffs between agents, and the caller's own agent name. The REST
routes' serializers and services, through tool_calls."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from apps.lessons import selectors
from apps.lessons.api.episodes import CloseIn, EntryIn, EpisodeOpenIn
from apps.lessons.api.handoffs import HandoffIn
from apps.lessons.api.lessons import LessonsQuery
from apps.lessons.api.playbooks import MAX_SITUATION_CHARS
from apps.lessons.filters import HandoffFilters
from apps.lessons.services import episodes as episode_services
from apps.lessons.services import handoffs as handoff_services
from apps.lessons.services.references import MAX_ID_CHARS, REF_KINDS
from apps.mcp_server.output_schemas import OBJECT, ROWS, obj
from apps.mcp_server.tool_calls import checked, tool_run
from apps.mcp_server.tools.memory import READ, WRITE, arg
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError
from memoryproject.json_values import FREE_FORM, json_loads


class Ref(BaseModel):
    # As EntityFact: the service refuses an unknown kind or key in REST's words; the schema
    # says so beforehand.
    model_config = ConfigDict(extra="allow", json_schema_extra={"additionalProperties": False})
    kind: Annotated[str, arg("what it points at"), Field(json_schema_extra={"enum": REF_KINDS})]
    id: Annotated[
        str, arg("its id (entry and episode ids come from their receipts)", max_length=MAX_ID_CHARS)
    ]


def _refs(refs: list[Ref] | None) -> list[dict] | None:
    return None if refs is None else [ref.model_dump() for ref in refs]


def open_episode(
    ctx: Context,
    key: Annotated[
        str | None, arg("your id for it; opening it again is a no-op", EpisodeOpenIn, "key")
    ] = None,
    title: Annotated[str | None, arg("what the episode is about", EpisodeOpenIn, "title")] = None,
    about: Annotated[
        list[str] | None, arg("entity uids it concerns", EpisodeOpenIn, "about")
    ] = None,
) -> CallToolResult:
    """Open an episode: one attempt at a task, whose entries (observations, actions, the outcome)
    become evidence for lessons. Returns its id."""

    def work(scope):
        return episode_services.check_episode_open(
            scope, **checked(EpisodeOpenIn, key=key, title=title, about=about)
        )

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="episode")


def record_entry(
    ctx: Context,
    episode: Annotated[str, arg("the episode's id", max_length=MAX_ID_CHARS)],
    type: Annotated[str, arg("e.g. observation, action, decision", EntryIn, "type")],
    text: Annotated[str | None, arg("what happened", EntryIn, "text")] = None,
    values: Annotated[dict[str, Any] | None, arg("attributes: name -> scalar value")] = None,
    cites: Annotated[list[Ref] | None, arg("what it relies on", EntryIn, "cites")] = None,
) -> CallToolResult:
    """Append an entry to an open episode, citing what it relies on."""

    def work(scope):
        data = checked(EntryIn, type=type, text=text, values=values, cites=_refs(cites))
        return episode_services.check_entry_record(scope, episode=episode, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="entry")


def close_episode(
    ctx: Context,
    episode: Annotated[str, arg("the episode's id", max_length=MAX_ID_CHARS)],
    outcome: Annotated[dict[str, Any], arg('how it ended, e.g. {"success": true}')],
    text: Annotated[str | None, arg("a last word", CloseIn, "text")] = None,
    cites: Annotated[list[Ref] | None, arg("what the outcome relies on", CloseIn, "cites")] = None,
) -> CallToolResult:
    """Close an episode with its outcome entry."""

    def work(scope):
        data = checked(CloseIn, outcome=outcome, text=text, cites=_refs(cites))
        return episode_services.check_episode_close(scope, episode=episode, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="entry")


def lessons(
    ctx: Context,
    about: Annotated[
        str | None, arg("an entity uid the lessons concern", LessonsQuery, "about")
    ] = None,
    at_least: Annotated[
        int | None,
        arg("minimum weight (default: the tenant's threshold)", LessonsQuery, "at_least"),
    ] = None,
    limit: Annotated[int | None, arg("at most this many", LessonsQuery, "limit")] = None,
) -> CallToolResult:
    """Lessons learned from past episodes, weighed by their evidence, heaviest first."""

    def work(scope):
        data = checked(LessonsQuery, about=about, at_least=at_least, limit=limit)
        return {"results": selectors.lessons_list(scope, **data)}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def playbooks_for(
    ctx: Context,
    situation: Annotated[
        dict[str, Any], arg('the situation\'s attributes, e.g. {"task": "refund"}')
    ],
) -> CallToolResult:
    """Switched-on playbooks whose trigger fits the situation, with their steps."""

    def work(scope):
        # The REST route takes the situation as JSON text: the same text, the same checks.
        text = json.dumps(situation, ensure_ascii=False)
        if len(text) > MAX_SITUATION_CHARS:
            raise ApplicationError(
                "situation is too long.", field="situation", limit=MAX_SITUATION_CHARS
            )
        found = json_loads(text, field="situation", limits=FREE_FORM)
        return {"results": selectors.playbooks_for(scope, situation=found)}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def handoffs(
    ctx: Context,
    status: Annotated[Literal["given", "accepted"] | None, arg("given or accepted")] = None,
    agent: Annotated[
        str | None, arg("to or from this agent (default: you)", HandoffFilters, "agent")
    ] = None,
) -> CallToolResult:
    """Handoffs given to or by an agent (by default the caller): work passed between agents."""

    def work(scope):
        data = checked(HandoffFilters, status=status, agent=agent)
        rows = selectors.handoffs_for(
            scope, agent=data.get("agent") or scope.actor, status=data.get("status")
        )
        return {"agent": scope.actor, "results": rows}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def hand_off(
    ctx: Context,
    key: Annotated[str, arg("your id for the handoff", HandoffIn, "key")],
    to: Annotated[str, arg("the receiving agent's name (see `whoami`)", HandoffIn, "to")],
    points_to: Annotated[list[Ref], arg("what the work is about", HandoffIn, "points_to")],
    note: Annotated[str | None, arg("what to do next", HandoffIn, "note")] = None,
) -> CallToolResult:
    """Hand work to another agent, pointing at the episodes, entities or lessons it concerns."""

    def work(scope):
        data = checked(HandoffIn, key=key, to=to, points_to=_refs(points_to), note=note)
        return handoff_services.check_handoff_give(scope, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="handoff")


def accept_handoff(
    ctx: Context, key: Annotated[str, arg("the handoff's key", HandoffIn, "key")]
) -> CallToolResult:
    """Accept a handoff given to you."""

    def work(scope):
        return handoff_services.check_handoff_accept(scope, key=key)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="handoff_accept")


def whoami(ctx: Context) -> CallToolResult:
    """Your agent name (what handoffs to you are given `to`) and your key's scopes."""

    def work(scope):
        return {"agent": scope.actor, "scopes": sorted(scope.permissions)}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def register(server) -> None:
    W, R = KeyScope.MEMORY_WRITE, KeyScope.MEMORY_READ
    for fn in (open_episode, record_entry, close_episode, hand_off, accept_handoff):
        server.tool_add(fn, needs=W, output=OBJECT, annotations=WRITE)
    for fn in (lessons, playbooks_for):
        server.tool_add(fn, needs=R, output=ROWS, annotations=READ)
    server.tool_add(handoffs, needs=R, annotations=READ, output={
        **ROWS, "properties": {**ROWS["properties"], "agent": {"type": "string"}}})  # fmt: skip
    server.tool_add(whoami, needs=R, annotations=READ, output=obj(
        agent={"type": "string"}, scopes={"type": "array", "items": {"type": "string"}}))  # fmt: skip
