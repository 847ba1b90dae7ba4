"""An entity, a document and a task as MCP resources, readable by URI
(`anamnesis://entities/{uid}`, `anamnesis://documents/{uid}`, `anamnesis://tasks/{task}`): the
same reads and answers as get_entity, get_document and get_task, for hosts that attach
resources to a conversation. A refusal is a resource error carrying the REST error body."""

from __future__ import annotations

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceError

from apps.mcp_server.tools.agent_loop import get_document
from apps.mcp_server.tools.memory import get_entity
from apps.mcp_server.tools.tasks import get_task

JSON = "application/json"


def _read(result) -> str:
    text = result.content[0].text
    if result.is_error:
        raise ResourceError(text)
    return text


def entity_resource(uid: str, ctx: Context) -> str:
    """An entity: names, values, relations, mentions and pending reviews (as get_entity)."""
    return _read(get_entity(ctx, uid=uid))


def document_resource(uid: str, ctx: Context) -> str:
    """A document: its text, chunks, entities, relations and job (as get_document)."""
    return _read(get_document(ctx, uid=uid))


def task_resource(task: str, ctx: Context) -> str:
    """A task with its edges, claims and evidence (as get_task)."""
    return _read(get_task(ctx, task=task))


def register(server) -> None:
    for uri, fn, name in (
        ("anamnesis://entities/{uid}", entity_resource, "entity"),
        ("anamnesis://documents/{uid}", document_resource, "document"),
        ("anamnesis://tasks/{task}", task_resource, "task"),
    ):
        server.resource(uri, name=name, description=fn.__doc__, mime_type=JSON)(fn)
