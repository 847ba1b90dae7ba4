"""The default profile's own tools, named as agents' hosts expect (Graphiti's and Mem0's
`add_memory`, `search_memory`, `get_status`...): one write for text or facts, the one search,
a document, forgetting, each the REST route's serializer and service through tool_calls."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from apps.conversations import erasure
from apps.conversations.api import ErasureIn
from apps.graph.schema import graph_health
from apps.ingestion import selectors as document_selectors
from apps.ingestion import services as ingestion_services
from apps.ingestion.api import DocumentDetailOut, DocumentIn, FactsIn
from apps.ingestion.document_deletion import check_document_delete
from apps.mcp_server.output_schemas import obj, serializer_schema
from apps.mcp_server.tool_calls import checked, tool_run
from apps.mcp_server.tools.memory import (
    READ,
    WRITE,
    EntityFact,
    RelationFact,
    arg,
    facts_of,
    job_progress,
)
from apps.review import services as review_services
from apps.search import services as search_services
from apps.search.api import OneSearchOut
from apps.search.selectors import KINDS
from apps.tenants.api import JobOut
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError, NotFoundError
from memoryproject.request_inputs import MAX_UID_CHARS

DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
SearchKind = Literal["passages", "entities", "messages", "entries", "facts", "arguments"]
assert set(SearchKind.__args__) == set(KINDS)  # the search's kinds, said once there
# What `forget` forgets, and the key scope each needs (as its REST route does).
FORGET_NEEDS = {"document": KeyScope.MEMORY_WRITE, "merge": KeyScope.REVIEW,
                "user": KeyScope.ADMIN}  # fmt: skip


GROUP_NOTE = ("the API key's tenant is the one namespace here: kept in a document's metadata, "
              "not used to narrow a read")  # fmt: skip
FACTS_NOTE = ("facts keep only their text, as a document under `source` and `title`; a "
              "relation's time is its valid_from")  # fmt: skip
MAX_GROUP_CHARS = 200  # a Graphiti group id, kept as metadata
GroupId = Annotated[str, Field(max_length=MAX_GROUP_CHARS)]
GroupIds = GroupId | Annotated[list[GroupId], Field(max_length=20)]
DOCUMENT_STATUS = {"done": "stored and read", "queued": "stored; its job reads it (get_status)",
                   "duplicate": "already stored: nothing changed"}  # fmt: skip


def add_memory(
    ctx: Context,
    text: Annotated[str | None, arg("what to remember, as text (a note, a page)")] = None,
    entities: Annotated[
        list[EntityFact] | None, arg("structured facts: entities, resolved against the graph")
    ] = None,
    relations: Annotated[list[RelationFact] | None, arg("relations between those entities")] = None,
    source: Annotated[
        str | None, arg("where it comes from, a name (default agent)", DocumentIn, "source")
    ] = None,
    title: Annotated[str | None, arg("a title for the text", DocumentIn, "title")] = None,
    date: Annotated[
        str | None, arg("when it was true (YYYY-MM-DD or ISO 8601 with a zone)", DocumentIn, "date")
    ] = None,
    metadata: Annotated[
        dict[str, Any] | None, arg("free-form JSON object kept with the text")
    ] = None,
    source_description: Annotated[
        str | None,
        arg(
            "Graphiti's name of where it comes from: used as `source` (then `source` is "
            "Graphiti's format, text, json or message, kept in metadata)",
            DocumentIn,
            "source",
        ),
    ] = None,
    group_id: Annotated[
        str | None, arg(f"Graphiti's graph id: {GROUP_NOTE}", max_length=MAX_GROUP_CHARS)
    ] = None,
) -> CallToolResult:
    """Remember facts or text. `entities` (and `relations`) are written at once, each merged,
    held for review or created, as the receipts say (`text` kept as evidence). Text alone is
    a document: read now if short (receipts), else a job for `get_status`."""
    kept = {**(metadata or {}), **({"group_id": group_id} if group_id else {})}
    if source_description and source:
        kept["format"] = source  # Graphiti's episode type
    origin = source_description or source

    def work(scope):
        if entities:
            data = checked(FactsIn, context={"scope": scope}, entities=facts_of(entities),
                           relations=facts_of(relations), source_text=text)  # fmt: skip
            if text:  # kept as the facts' document, under this source and title
                doc = checked(DocumentIn, content=text, source=origin or "facts", title=title)
                data |= {"source": doc["source"], "title": doc.get("title") or None}
            answer = ingestion_services.check_facts_submit(scope, **data)
            unused = {"date": date, "metadata": metadata, "group_id": group_id,
                      **({} if text else {"source": origin, "title": title})}  # fmt: skip
            ignored = {k: FACTS_NOTE for k, v in unused.items() if v}
            return {"stored": "facts", "message": _facts_message(answer), **answer,
                    **({"ignored": ignored} if ignored else {})}  # fmt: skip
        if relations:
            raise ApplicationError("relations need their entities.", field="entities")
        if not text or not text.strip():
            raise ApplicationError("Give text or entities.", field="text")
        data = checked(DocumentIn, content=text, source=origin or "agent", title=title,
                       date=date, metadata=kept or None)  # fmt: skip
        small = len(text.encode()) <= scope.setting("max_inline_document_bytes")
        answer = ingestion_services.check_document_submit(scope, wait=small, **data)
        return {"stored": "document", "message": _document_message(answer), **answer}

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work,
                    writes="facts" if entities else "document")  # fmt: skip


def _facts_message(answer: dict) -> str:
    actions = [r.get("action") for r in answer.get("receipts") or () if r.get("kind") == "entity"]
    counts = ", ".join(f"{actions.count(a)} {a}" for a in dict.fromkeys(actions))
    return f"Facts remembered: {counts or 'nothing new'}."


def _document_message(answer: dict) -> str:
    status = answer.get("status")
    return f"Document {answer['document']}: {DOCUMENT_STATUS.get(status, status)}."


def search_memory(
    ctx: Context,
    q: Annotated[
        str, arg("words or a question (required)", max_length=search_services.MAX_QUERY_CHARS)
    ],
    kinds: Annotated[
        list[SearchKind] | None,
        arg("only these kinds of results (default: all)"),
        Field(max_length=len(KINDS)),
    ] = None,
    limit: Annotated[
        int | None, arg("how many results, default 20"), Field(ge=1, le=search_services.MAX_LIMIT)
    ] = None,
    user: Annotated[
        str | None,
        arg("whose messages and facts to include", max_length=search_services.MAX_USER_CHARS),
    ] = None,
    group_ids: Annotated[GroupIds | None, arg(f"Graphiti's graph ids: {GROUP_NOTE}")] = None,
) -> CallToolResult:
    """The one search over what the memory holds: passages of documents, entities, messages,
    episode entries and facts, ranked by words and meaning together. Each result says where it
    comes from (`source`) and how it placed."""

    def work(scope):
        found = search_services.check_search(
            scope, q=q, kinds=",".join(kinds or ()), limit=20 if limit is None else limit,
            user=user,
        )  # fmt: skip
        # Mem0's hosts read a result's `id` and `memory`: the same uid and text, named so.
        found["results"] = [{"id": r["uid"], "memory": r["snippet"], **r}
                            for r in found.get("results") or ()]  # fmt: skip
        return {**found, **({"ignored": {"group_ids": GROUP_NOTE}} if group_ids else {})}

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def get_status(
    ctx: Context,
    job: Annotated[
        str | None,
        arg("a job id a tool returned (none: the service's status)", max_length=MAX_UID_CHARS),
    ] = None,
) -> CallToolResult:
    """A job's status, progress and result (document ingestion, deletions, imports); without a
    job, whether the service reaches its graph (status ok or error, with a message)."""
    if job is not None:
        return job_progress(ctx, job=job)

    def work(scope):
        graph = graph_health()
        if graph["connected"]:
            return {"status": "ok", "message": "Anamnesis is running and reaches its graph."}
        return {"status": "error",
                "message": f"Anamnesis is running but its graph is unreachable "
                           f"({graph.get('error')})."}  # fmt: skip

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def get_document(
    ctx: Context, uid: Annotated[str, arg("a document uid", max_length=MAX_UID_CHARS)]
) -> CallToolResult:
    """One document: its text, chunks, the entities it names, its relations and its job."""

    def work(scope):
        found = document_selectors.document_detail(scope, uid=uid[:MAX_UID_CHARS])
        if found is None:
            raise NotFoundError("No such document.", field="uid")
        return DocumentDetailOut(found).data

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def forget(
    ctx: Context,
    what: Annotated[
        Literal["document", "merge", "user"],
        arg("a document (and what only it taught), a mistaken merge, or a user's conversations"),
    ],
    id: Annotated[
        str, arg("the document uid, the merge uid, or the user's id", max_length=MAX_UID_CHARS)
    ],
    session: Annotated[
        str | None, arg("with what=user: only this session", ErasureIn, "session")
    ] = None,
) -> CallToolResult:
    """Forget, as your key's scopes allow: a document and what only it taught (memory:write),
    a mistaken merge, undone (review), or a user's conversations (admin). Jobs answer with an
    id for `get_status`."""
    needs = FORGET_NEEDS[what] if what in FORGET_NEEDS else KeyScope.ADMIN

    def work(scope):
        if what == "document":
            job = check_document_delete(scope, uid=id[:MAX_UID_CHARS])
            return {"forgot": what, "job": job.uid, "status": job.status}
        if what == "merge":
            return {"forgot": what,
                    **review_services.check_merge_undo(scope, merge_uid=id[:MAX_UID_CHARS])}  # fmt: skip
        data = checked(ErasureIn, user=id, session=session)
        job = erasure.check_erasure_start(scope, user=data["user"], sid=data.get("session"))
        return {"forgot": what, "job": job.uid, "status": job.status}

    return tool_run(ctx, needs=needs, work=work, writes=f"forget_{what}")


FORGOTTEN = {**obj(forgot={"enum": list(FORGET_NEEDS)}),
             "properties": {"forgot": {"enum": list(FORGET_NEEDS)}, "job": {"type": "string"},
                            "status": {"type": "string"}}}  # fmt: skip
STORED = {**obj(stored={"enum": ["facts", "document"]}),
          "properties": {"stored": {"enum": ["facts", "document"]},
                         "receipts": {"type": "array", "items": {"type": "object"}},
                         "job": {"type": ["string", "null"]}}}  # fmt: skip
ANY_OF_FORGET = tuple(FORGET_NEEDS.values())


def register(server) -> None:
    server.tool_add(add_memory, needs=KeyScope.MEMORY_WRITE, output=STORED, annotations=WRITE)
    server.tool_add(search_memory, needs=KeyScope.MEMORY_READ, output=serializer_schema(OneSearchOut),
                    annotations=READ)  # fmt: skip
    server.tool_add(get_document, needs=KeyScope.MEMORY_READ,
                    output=serializer_schema(DocumentDetailOut), annotations=READ)  # fmt: skip
    server.tool_add(forget, needs=ANY_OF_FORGET, output=FORGOTTEN, annotations=DESTRUCTIVE)
    status = serializer_schema(JobOut)
    server.tool_add(get_status, needs=KeyScope.MEMORY_READ, annotations=READ, output={
        **status, "properties": {**status["properties"], "message": {"type": "string"}}})  # fmt: skip
