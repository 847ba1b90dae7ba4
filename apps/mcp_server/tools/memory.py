"""Tools over the memory itself: context for a prompt, messages, facts, documents and their
jobs, entities, and the pending reviews count. Each checks its input with the REST route's
serializer and calls the REST route's service (see tool_calls)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from apps.conversations import context as conversation_context
from apps.conversations import services as conversation_services
from apps.conversations.api import MAX_TIME_CHARS, ContextIn, MessageIn
from apps.graph.nodes.entities import ENTITY_TYPES
from apps.ingestion import services as ingestion_services
from apps.ingestion.api import DocumentIn, EntityFactIn, FactsIn, RelationFactIn
from apps.ingestion.extraction.ontology import RELATIONS
from apps.mcp_server.output_schemas import OBJECT, obj, serializer_schema
from apps.mcp_server.tool_calls import checked, limits_of, tool_run
from apps.resolution import selectors as entity_selectors
from apps.resolution.api import EntityOut, EntitySearchIn, EntitySearchOut
from apps.tenants import selectors as tenant_selectors
from apps.tenants.api import JobOut
from apps.tenants.models import KeyScope
from apps.timeline.page_selectors import entity_timeline
from memoryproject.api_errors import NotFoundError
from memoryproject.request_inputs import MAX_UID_CHARS

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
HISTORY_PARTS = ("kind", "key", "states", "windows")  # of the entity timeline, for get_entity
EntityType = Literal["Person", "Organization", "Location", "Event", "Object"]  # POLE+O
assert EntityType.__args__ == ENTITY_TYPES  # said once, in apps.graph (the search's filter)
PREDICATE = (f"one of {', '.join(RELATIONS)}; any other is stored as RELATES_TO with the "
             "phrase kept as its nuance")  # fmt: skip


def arg(
    description: str, serializer=None, name: str | None = None, *, max_length: int | None = None
) -> Any:
    """A parameter's description, with the bounds of the REST field it goes through;
    `max_length` bounds a string that no serializer checks (checked here, by the SDK)."""
    bounds = limits_of(serializer, name) if serializer else None
    return Field(description=description, json_schema_extra=bounds or None, max_length=max_length)


class EntityFact(BaseModel):
    # Unknown keys and types reach the REST serializer, which refuses them in its own words;
    # the schema says so beforehand (additionalProperties false, the enum).
    model_config = ConfigDict(extra="allow", json_schema_extra={"additionalProperties": False})
    name: Annotated[str, arg("the entity's name", EntityFactIn, "name")]
    type: Annotated[str, arg("its POLE+O type"), Field(json_schema_extra={"enum": ENTITY_TYPES})]
    aliases: Annotated[list[str] | None, arg("other names", EntityFactIn, "aliases")] = None
    description: Annotated[str | None, arg("one sentence", EntityFactIn, "description")] = None
    values: Annotated[dict[str, Any] | None, arg("attributes: name -> scalar value")] = None


class RelationFact(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra={"additionalProperties": False})
    subject: Annotated[str, arg("an entity's name (among `entities`)", RelationFactIn, "subject")]
    predicate: Annotated[
        str,
        arg(PREDICATE, RelationFactIn, "predicate"),
        Field(json_schema_extra={"examples": list(RELATIONS)}),
    ]
    object: Annotated[str, arg("an entity's name (among `entities`)", RelationFactIn, "object")]
    confidence: Annotated[float | None, arg("0-1, default 1", RelationFactIn, "confidence")] = None
    nuance: Annotated[str | None, arg("a qualifier", RelationFactIn, "nuance")] = None
    valid_from: Annotated[
        str | None,
        arg(
            "since when it holds (YYYY-MM-DD or ISO 8601 with a zone)", RelationFactIn, "valid_from"
        ),
    ] = None


def facts_of(items: list[BaseModel] | None) -> list[dict] | None:
    return None if items is None else [item.model_dump(exclude_none=True) for item in items]


def context(
    ctx: Context,
    user: Annotated[str, arg("the end user's id", ContextIn, "user")],
    session: Annotated[str, arg("the conversation's id", ContextIn, "session")],
    message: Annotated[str, arg("the user's new message (stored)")],
    k: Annotated[int | None, arg("how many items of each kind (default 5)", ContextIn, "k")] = None,
    token_budget: Annotated[int | None, arg("default 1000", ContextIn, "token_budget")] = None,
    role: Annotated[str | None, arg("who speaks (default user)", ContextIn, "role")] = None,
    by: Annotated[str | None, arg("who wrote it (default: user)", ContextIn, "by")] = None,
) -> CallToolResult:
    """Store the user's message in its session and get the context to answer it: the session's
    summary and recent messages, related past messages, facts and entities, within a token
    budget. Call before answering each user message."""
    about = {"user": user, "sid": session, "text": message}

    def work(scope):
        data = checked(ContextIn, user=user, session=session, message=message, k=k,
                       token_budget=token_budget, role=role, by=by)  # fmt: skip
        data["sid"] = data.pop("session")
        return conversation_context.check_context(scope, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="message",
                    conversation=about)  # fmt: skip


def append_message(
    ctx: Context,
    user: Annotated[str, arg("the end user's id", ContextIn, "user")],
    session: Annotated[str, arg("the conversation's id", ContextIn, "session")],
    role: Annotated[str, arg("e.g. user, assistant, system or tool", MessageIn, "role")],
    text: Annotated[str, arg("the message")],
    by: Annotated[str, arg("who wrote it", MessageIn, "by")],
    mentions: Annotated[
        list[str] | None, arg("entity uids it is about", MessageIn, "mentions")
    ] = None,
    at: Annotated[
        str | None, arg("ISO 8601 time with a zone (default: now)", max_length=MAX_TIME_CHARS)
    ] = None,
) -> CallToolResult:
    """Append one message to a user's session (e.g. your own answer after `context`). Returns
    its number in the session."""
    about = {"user": user, "sid": session, "text": text}

    def work(scope):
        data = checked(MessageIn, role=role, text=text, by=by, mentions=mentions, at=at)
        return conversation_services.check_message_append(scope, user=user, sid=session, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="message",
                    conversation=about)  # fmt: skip


def add_facts(
    ctx: Context,
    entities: Annotated[list[EntityFact], arg("entities, each resolved against the graph")],
    relations: Annotated[list[RelationFact] | None, arg("relations between those entities")] = None,
    source_text: Annotated[
        str | None, arg("the text the facts come from (kept as evidence)")
    ] = None,
) -> CallToolResult:
    """Write structured facts: entities with their values, and relations between them. Each
    entity is matched to a known one (merged), held for a human review, or created; the receipts
    say which."""

    def work(scope):
        data = checked(FactsIn, context={"scope": scope}, entities=facts_of(entities),
                       relations=facts_of(relations), source_text=source_text)  # fmt: skip
        return ingestion_services.check_facts_submit(scope, **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="facts")


def ingest_document(
    ctx: Context,
    content: Annotated[str, arg("the document's text")],
    source: Annotated[str, arg("where it comes from (a name)", DocumentIn, "source")],
    title: Annotated[str | None, arg("its title", DocumentIn, "title")] = None,
    url: Annotated[
        str | None, arg("its URL (a second copy is a duplicate)", DocumentIn, "url")
    ] = None,
    metadata: Annotated[dict[str, Any] | None, arg("free-form JSON object")] = None,
    date: Annotated[
        str | None,
        arg(
            "when it was written (YYYY-MM-DD or ISO 8601 with a zone): its relations hold from "
            "then",
            DocumentIn,
            "date",
        ),
    ] = None,
    wait: Annotated[bool, arg("ingest a small document now instead of queueing it")] = False,
) -> CallToolResult:
    """Store a document; its entities and relations are extracted by a background job (follow it
    with `job_progress`), or at once with wait=true for a small one."""

    def work(scope):
        data = checked(DocumentIn, content=content, source=source, title=title, url=url,
                       metadata=metadata, date=date)  # fmt: skip
        return ingestion_services.check_document_submit(scope, wait=bool(wait), **data)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="document")


def job_progress(
    ctx: Context, job: Annotated[str, arg("the job id a tool returned", max_length=MAX_UID_CHARS)]
) -> CallToolResult:
    """Status, progress and result of a background job (document ingestion, imports)."""

    def work(scope):
        found = tenant_selectors.job_get(scope, uid=job[:MAX_UID_CHARS])
        if found is None:
            raise NotFoundError("No such job.")
        return JobOut(found).data

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def search_entities(
    ctx: Context,
    q: Annotated[str | None, arg("words or a description", EntitySearchIn, "q")] = None,
    type: Annotated[EntityType | None, arg("only entities of this POLE+O type")] = None,
    limit: Annotated[int | None, arg("default 20", EntitySearchIn, "limit")] = None,
) -> CallToolResult:
    """Find entities by name, alias or meaning. Returns uids for `get_entity`."""

    def work(scope):
        data = checked(EntitySearchIn, q=q, type=type, limit=limit)
        results = entity_selectors.entities_search(
            scope, q=data.get("q", ""), type=data.get("type"), limit=data["limit"]
        )
        return EntitySearchOut({"results": results}).data

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def get_entity(
    ctx: Context,
    uid: Annotated[str, arg("an entity uid", max_length=MAX_UID_CHARS)],
    history: Annotated[bool, arg("also its States and relation windows over time")] = False,
) -> CallToolResult:
    """One entity: names, values, relations (heaviest first), mentions with their document, and
    possible duplicates pending review. With history=true, also how it changed: a versioned
    entity's States (oldest first) and when each relation held (valid_from, valid_to)."""

    def work(scope):
        found = entity_selectors.entity_detail(scope, uid=uid[:MAX_UID_CHARS])
        if found is None:
            raise NotFoundError("No such entity.")
        out = EntityOut(found).data
        if history:
            # The entity page's timeline read (apps.timeline): the same States and windows.
            timeline = entity_timeline(scope, uid=uid[:MAX_UID_CHARS], at=None) or {}
            out["history"] = {name: timeline.get(name) for name in HISTORY_PARTS}
        return out

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def pending_reviews(ctx: Context) -> CallToolResult:
    """How many possible duplicates wait for a human reviewer."""

    def work(scope):
        return {"pending_reviews": tenant_selectors.tenant_stats(scope)["pending_reviews"]}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


RECEIPTS = {"type": "object", "properties": {
    "receipts": {"type": "array", "items": {"type": "object"}}}}  # fmt: skip
TOOLS = (
    (context, KeyScope.MEMORY_WRITE, OBJECT, WRITE),
    (append_message, KeyScope.MEMORY_WRITE, OBJECT, WRITE),
    (add_facts, KeyScope.MEMORY_WRITE, RECEIPTS, WRITE),
    (ingest_document, KeyScope.MEMORY_WRITE, OBJECT, WRITE),
    (job_progress, KeyScope.MEMORY_READ, serializer_schema(JobOut), READ),
    (search_entities, KeyScope.MEMORY_READ, serializer_schema(EntitySearchOut), READ),
    (get_entity, KeyScope.MEMORY_READ, serializer_schema(EntityOut), READ),
    (pending_reviews, KeyScope.MEMORY_READ, obj(pending_reviews={"type": "integer"}), READ),
)


def register(server) -> None:
    for fn, needs, output, hints in TOOLS:
        server.tool_add(fn, needs=needs, output=output, annotations=hints)
    # The default profile's name for it.
    server.tool_add(context, name="get_context", needs=KeyScope.MEMORY_WRITE, output=OBJECT,
                    annotations=WRITE)  # fmt: skip
