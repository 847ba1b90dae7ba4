"""The `memory` profile: the MCP reference memory server's tools (modelcontextprotocol/servers,
src/memory) with its names and shapes, so a host configured for that server works unchanged.

Each statement the host makes is a facts submission through the resolution gate with its text
kept as a one-chunk document (the provenance): an entity's own line, each observation, each
relation. An entity named again is sent with what the graph knows of it (type, description,
values, and the name as the external id `id:memory`) as evidence; where that is not enough
the gate holds a twin for review instead of guessing. Deleting is deleting those documents (a
job each: what only they taught goes)."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from apps.ingestion import services as ingestion_services
from apps.ingestion.document_deletion import check_document_delete
from apps.ingestion.extraction.ontology import FALLBACK
from apps.mcp_server.output_schemas import obj
from apps.mcp_server.tool_calls import tool_run
from apps.mcp_server.tools.agent_loop import DESTRUCTIVE
from apps.mcp_server.tools.memory import READ, WRITE, arg
from apps.resolution import selectors as entity_selectors
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError

ID_KEY = "id:memory"  # the external id a name is sent as
FACTS_TITLE = "facts"  # what entity_detail names a facts submission's document (its source)
MAX_ITEMS = 50  # entities, relations or observations per call, as the facts route's limit
MAX_READ = 50  # entities a read answers with (each is one detail read)
TYPES = {"person": "Person", "people": "Person", "user": "Person", "organization": "Organization",
         "organisation": "Organization", "company": "Organization", "org": "Organization",
         "team": "Organization", "location": "Location", "place": "Location",
         "city": "Location", "country": "Location", "event": "Event", "meeting": "Event"}  # fmt: skip
CLOSED = ConfigDict(extra="forbid")
NAME = {"max_length": 200}
TEXT = {"max_length": 2000}


class Entity(BaseModel):
    model_config = CLOSED
    name: Annotated[str, Field(description="the entity's name", **NAME)]
    entityType: Annotated[str, Field(description="e.g. person, organization", max_length=40)]
    observations: Annotated[
        list[Annotated[str, Field(**TEXT)]], Field(description="facts about it", max_length=50)
    ] = []


class Relation(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    source: Annotated[str, Field(alias="from", description="the subject's name", **NAME)]
    to: Annotated[str, Field(description="the object's name", **NAME)]
    relationType: Annotated[
        str, Field(description="in active voice, e.g. works_at", max_length=100)
    ]


class Observations(BaseModel):
    model_config = CLOSED
    entityName: Annotated[str, Field(description="the entity to add them to", **NAME)]
    contents: Annotated[
        list[Annotated[str, Field(**TEXT)]], Field(description="observations", max_length=50)
    ]


class Deletion(BaseModel):
    model_config = CLOSED
    entityName: Annotated[str, Field(description="the entity that holds them", **NAME)]
    observations: Annotated[
        list[Annotated[str, Field(**TEXT)]],
        Field(description="observations to delete", max_length=50),
    ]


def _type(entity_type: str) -> str:
    word = entity_type.strip().lower()
    return TYPES.get(word) or next((t for t in TYPES.values() if t.lower() == word), "Object")


def _known(scope, name: str) -> list[dict]:
    """The tenant's entities that bear `name` (or have it as an alias), with their detail."""
    rows = entity_selectors.entities_search(scope, q=name, limit=10)
    uids = [r["uid"] for r in rows if r["name"] == name or name in (r.get("aliases") or ())]
    return [d for d in (entity_selectors.entity_detail(scope, uid=u) for u in uids) if d]


def _fact(name: str, entity_type: str, known: list[dict]) -> dict:
    """An entity fact for the gate. The reference server's name is its entity's key, so it is
    sent as the external id `id:memory` (an identifier, which the gate weighs as strong
    evidence), with what the graph knows of the name, else the host's type."""
    values = {ID_KEY: name}
    if known:
        found = known[0]
        kept = {k: v for k, v in (found.get("values") or {}).items()
                if isinstance(v, str | int | float | bool)}  # fmt: skip
        return {"name": name, "type": found["type"], "description": found.get("description") or "",
                "values": {**kept, **values}}  # fmt: skip
    if entity_type:
        values["entity_type"] = entity_type
    return {"name": name, "type": _type(entity_type), "values": values}


def _own_line(name: str, entity_type: str) -> str:
    return f"{name} ({entity_type})"


def _statement(source: str, relation_type: str, to: str) -> str:
    return f"{source} {relation_type} {to}"


def _submit(scope, entities: list[dict], relations: list[dict], text: str) -> list[dict]:
    return ingestion_services.check_facts_submit(
        scope, entities=entities, relations=relations, source_text=text
    )["receipts"]


def _bounded(items: list, field: str) -> list:
    if len(items) > MAX_ITEMS:
        raise ApplicationError(f"At most {MAX_ITEMS} {field}.", field=field, limit=MAX_ITEMS)
    return items


def _relation_type(rel: dict) -> str:
    return rel["nuance"].split(":")[0] if rel["predicate"] == FALLBACK and rel["nuance"] else (
        rel["predicate"])  # fmt: skip


def _graph(details: list[dict]) -> dict:
    """The reference server's graph shape: {entities: [{name, entityType, observations}],
    relations: [{from, to, relationType}]}, from entity details."""
    entities, relations, seen = [], [], set()
    for d in details:
        entity_type = (d.get("values") or {}).get("entity_type") or d["type"]
        made = {_own_line(d["name"], entity_type).lower()}
        for rel in d.get("relations") or ():
            ends = (d["name"], rel["other"]["name"])
            source, to = ends if rel["direction"] == "out" else ends[::-1]
            made.add(_statement(source, _relation_type(rel), to).lower())
            key = (source, to, _relation_type(rel))
            if key not in seen:
                seen.add(key)
                relations.append({"from": source, "to": to, "relationType": key[2]})
        texts = dict.fromkeys(m["text"] for m in d.get("mentions") or () if m.get("text"))
        entities.append({"name": d["name"], "entityType": entity_type,
                         "observations": [t for t in texts if t.lower() not in made]})  # fmt: skip
    return {"entities": entities, "relations": relations}


def create_entities(
    ctx: Context,
    entities: Annotated[list[Entity], arg("entities to create"), Field(max_length=MAX_ITEMS)],
) -> CallToolResult:
    """Create entities with their observations. Each goes through identity resolution: one
    already known is merged into, an uncertain match is held for a human review."""

    def work(scope):
        receipts, created = [], []
        for e in _bounded(entities, "entities"):
            known = _known(scope, e.name)
            fact = _fact(e.name, e.entityType, known)
            receipts += _submit(scope, [fact], [], _own_line(e.name, e.entityType))
            for text in e.observations:
                receipts += _submit(scope, [fact], [], text)
            if not known:  # the reference server answers the entities it did not have
                created.append(e.model_dump())
        return {"entities": created, "receipts": receipts}

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="facts")


def create_relations(
    ctx: Context,
    relations: Annotated[
        list[Relation], arg("relations, in active voice"), Field(max_length=MAX_ITEMS)
    ],
) -> CallToolResult:
    """Create relations between entities (by name); an unknown name becomes a new entity."""

    def work(scope):
        receipts, created = [], []
        for r in _bounded(relations, "relations"):
            known = _known(scope, r.source)
            if _related(known, r):  # already there: the reference server leaves it out
                continue
            ends = [_fact(r.source, "", known), _fact(r.to, "", _known(scope, r.to))]
            rel = {"subject": r.source, "predicate": r.relationType, "object": r.to}
            receipts += _submit(scope, ends, [rel], _statement(r.source, r.relationType, r.to))
            created.append(r.model_dump(by_alias=True))
        return {"relations": created, "receipts": receipts}

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="facts")


def _related(known: list[dict], r: Relation) -> bool:
    said = (r.source, r.to, r.relationType.lower())
    return any((e["from"], e["to"], e["relationType"].lower()) == said
               for e in _graph(known)["relations"])  # fmt: skip


def add_observations(
    ctx: Context,
    observations: Annotated[
        list[Observations], arg("observations per entity"), Field(max_length=MAX_ITEMS)
    ],
) -> CallToolResult:
    """Add observations to existing entities (by name); each is kept as its own evidence."""

    def work(scope):
        results, receipts = [], []
        for o in _bounded(observations, "observations"):
            known = _known(scope, o.entityName)
            if not known:
                raise ApplicationError(f"Entity with name {o.entityName} not found.",
                                       field="entityName", code="not_found", status=404)  # fmt: skip
            had = {t for e in _graph(known)["entities"] for t in e["observations"]}
            added = [text for text in dict.fromkeys(o.contents) if text not in had]
            for text in added:  # one already there is not added again, as there
                receipts += _submit(scope, [_fact(o.entityName, "", known)], [], text)
            results.append({"entityName": o.entityName, "addedObservations": added})
        return {"results": results, "receipts": receipts}

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="facts")


def _forget_documents(scope, details: list[dict], texts: set[str] | None) -> list[str]:
    """Queue the deletion of the facts documents (of these texts, or all) naming the entities."""
    uids = dict.fromkeys(
        m["document_uid"] for d in details for m in d.get("mentions") or ()
        if m.get("document_uid") and m.get("document_title") == FACTS_TITLE
        and (texts is None or m.get("text") in texts)
    )  # fmt: skip
    return [check_document_delete(scope, uid=uid).uid for uid in uids]


def _deleted(what: str, jobs: list[str]) -> dict:
    return {"success": True, "message": f"{what} deleted successfully", "jobs": jobs}


def delete_entities(
    ctx: Context,
    entityNames: Annotated[
        list[Annotated[str, Field(**NAME)]],
        arg("names of entities to delete"),
        Field(max_length=MAX_ITEMS),
    ],
) -> CallToolResult:
    """Delete entities and their relations: the statements made here about them are deleted
    (jobs), and with them what only those statements taught."""

    def work(scope):
        details = [d for name in _bounded(entityNames, "entityNames") for d in _known(scope, name)]
        return _deleted("Entities", _forget_documents(scope, details, None))

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="document_delete")


def delete_observations(
    ctx: Context,
    deletions: Annotated[
        list[Deletion], arg("observations per entity"), Field(max_length=MAX_ITEMS)
    ],
) -> CallToolResult:
    """Delete given observations from entities (the documents that hold them, as jobs)."""

    def work(scope):
        jobs = []
        for d in _bounded(deletions, "deletions"):
            jobs += _forget_documents(scope, _known(scope, d.entityName), set(d.observations))
        return _deleted("Observations", jobs)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="document_delete")


def delete_relations(
    ctx: Context,
    relations: Annotated[list[Relation], arg("relations to delete"), Field(max_length=MAX_ITEMS)],
) -> CallToolResult:
    """Delete relations (the statements that made them, as jobs)."""

    def work(scope):
        jobs = []
        for r in _bounded(relations, "relations"):
            said = {_statement(r.source, r.relationType, r.to)}
            jobs += _forget_documents(scope, _known(scope, r.source), said)
        return _deleted("Relations", jobs)

    return tool_run(ctx, needs=KeyScope.MEMORY_WRITE, work=work, writes="document_delete")


def read_graph(ctx: Context) -> CallToolResult:
    """The knowledge graph: the most recently updated entities (at most 50) and their
    relations."""

    def work(scope):
        rows = entity_selectors.entities_search(scope, q="", limit=MAX_READ)
        return _graph(
            [d for r in rows if (d := entity_selectors.entity_detail(scope, uid=r["uid"]))]
        )

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def search_nodes(
    ctx: Context, query: Annotated[str, arg("names, types or content to match", max_length=500)]
) -> CallToolResult:
    """Search entities by name, alias or meaning; with their relations."""

    def work(scope):
        rows = entity_selectors.entities_search(scope, q=query, limit=20)
        return _graph(
            [d for r in rows if (d := entity_selectors.entity_detail(scope, uid=r["uid"]))]
        )

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


def open_nodes(
    ctx: Context,
    names: Annotated[
        list[Annotated[str, Field(**NAME)]],
        arg("entity names to read"),
        Field(max_length=MAX_ITEMS),
    ],
) -> CallToolResult:
    """Read entities by name, with their relations (to any entity, as the reference server
    now answers)."""

    def work(scope):
        return _graph([d for n in _bounded(names, "names") for d in _known(scope, n)])

    return tool_run(ctx, needs=KeyScope.MEMORY_READ, work=work)


_ARRAY = {"type": "array", "items": {"type": "object"}}
GRAPH = obj(entities=_ARRAY, relations=_ARRAY)
DELETED = obj(success={"type": "boolean"}, message={"type": "string"}, jobs=_ARRAY | {
    "items": {"type": "string"}})  # fmt: skip


def register(server) -> None:
    W = KeyScope.MEMORY_WRITE
    server.tool_add(create_entities, needs=W, output=obj(entities=_ARRAY, receipts=_ARRAY),
                    annotations=WRITE)  # fmt: skip
    server.tool_add(create_relations, needs=W, output=obj(relations=_ARRAY, receipts=_ARRAY),
                    annotations=WRITE)  # fmt: skip
    server.tool_add(add_observations, needs=W, output=obj(results=_ARRAY, receipts=_ARRAY),
                    annotations=WRITE)  # fmt: skip
    for fn in (delete_entities, delete_observations, delete_relations):
        server.tool_add(fn, needs=W, output=DELETED, annotations=DESTRUCTIVE)
    for fn in (read_graph, search_nodes, open_nodes):
        server.tool_add(fn, needs=KeyScope.MEMORY_READ, output=GRAPH, annotations=READ)
