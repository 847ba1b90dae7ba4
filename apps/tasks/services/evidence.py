"""Evidence: findings a task PRODUCED, immutable once written (seed 000, Evidence lifecycle).

Content is kept whole (refused over the limit, never cut); strength is in [0, 1]; the embedding
is of `embed_text` when given, else of the content. A synthesis writes one summary evidence node
that SUPERSEDES its sources: they are marked superseded (the one change evidence ever takes),
leave the context, and stay for provenance. Only an open task (PENDING, ACTIVE) produces
evidence: a finished task's edges do not change.
"""

from __future__ import annotations

import uuid

from apps.graph.cypher import ScopedTx
from apps.graph.embeddings import get_embedder
from apps.graph.scope import Scope
from apps.tasks.services.short_ids import do_short_id_pick, short_id_write
from apps.tasks.services.task_writes import REF_PATTERN, check_text, resolve_task_uid
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

MAX_CONTENT_CHARS = 100_000
MAX_SOURCE_CHARS = 2000
MAX_URL_CHARS = 2000
MAX_EMBED_TEXT_CHARS = 300
MAX_MENTIONS = 50
MAX_SOURCES = 100

OPEN_TASK = """
MATCH (t:Task {tenant: $tenant, uid: $uid}) USING INDEX SEEK t:Task(uid)
SET t._lock = true REMOVE t._lock
RETURN t.status AS status, t.short_id AS short_id
"""
CREATE = """
MATCH (t:Task {tenant: $tenant, uid: $task}) USING INDEX SEEK t:Task(uid)
CREATE (t)-[:PRODUCED {created_at: datetime()}]->
       (e:Evidence {tenant: $tenant, uid: $uid, short_id: $short_id, task_uid: $task,
                    content: $content, embed_text: $embed_text, source: $source, url: $url,
                    content_hash: $content_hash, strength: $strength, embedding: $embedding,
                    page_embedding: $page_embedding, superseded: false,
                    similar_pending: true, created_at: datetime(),
                    created_by: $actor})
WITH e
UNWIND $mentions AS m
MATCH (n:Entity {tenant: $tenant, uid: m}) USING INDEX SEEK n:Entity(uid)
CREATE (e)-[:MENTIONS]->(n)
"""
ENTITIES = """
UNWIND $uids AS u
MATCH (n:Entity {tenant: $tenant, uid: u}) WHERE n.status = 'active'
RETURN n.uid AS uid
"""
SOURCES = """
UNWIND $ids AS id
OPTIONAL MATCH (a:Evidence {tenant: $tenant, uid: id}) USING INDEX SEEK a:Evidence(uid)
OPTIONAL MATCH (b:Evidence {tenant: $tenant, short_id: id})
WITH id, coalesce(a, b) AS e
RETURN id, e.uid AS uid, e.strength AS strength
"""
SUPERSEDE = """
MATCH (s:Evidence {tenant: $tenant, uid: $uid}) USING INDEX SEEK s:Evidence(uid)
UNWIND $sources AS src
MATCH (o:Evidence {tenant: $tenant, uid: src}) USING INDEX SEEK o:Evidence(uid)
CREATE (s)-[:SUPERSEDES {created_at: datetime()}]->(o)
SET o.superseded = true
"""


def validate_strength(value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ApplicationError("strength is a number in [0, 1].", field="strength", limit=1)
    return float(value)


def do_evidence_write(
    stx: ScopedTx, scope: Scope, *, task_uid: str, rows: list[dict]
) -> list[dict]:
    """Write evidence rows ({content, source, strength, embedding, embed_text, url,
    content_hash, mentions}) PRODUCED by an open task, inside the caller's transaction.
    Returns [{id, uid}] in order."""
    found = stx.run(OPEN_TASK, uid=task_uid)
    if not found:
        raise NotFoundError("No such task.", field="task")
    if found[0]["status"] in ("DONE", "FAILED"):
        raise ConflictError(
            f"Task {found[0]['short_id']} is {found[0]['status']}: a finished task produces no "
            "more evidence; create a new subtask.",
            code="task_immutable",
            field="task",
        )
    made = []
    for row in rows:
        uid = uuid.uuid4().hex
        short_id = do_short_id_pick(stx, prefix="e", uid=uid)
        stx.run(CREATE, task=task_uid, uid=uid, short_id=short_id, actor=scope.actor,
                content=row["content"], embed_text=row.get("embed_text"), source=row["source"],
                url=row.get("url"), content_hash=row.get("content_hash"),
                strength=row["strength"], embedding=row["embedding"],
                page_embedding=row.get("page_embedding"),
                mentions=row.get("mentions", []))  # fmt: skip
        made.append({"id": short_id, "uid": uid})
    return made


def _mentions(stx, uids: list[str]) -> None:
    if uids:
        have = {r["uid"] for r in stx.run(ENTITIES, uids=uids)}
        missing = [u for u in uids if u not in have]
        if missing:
            raise NotFoundError(f"No entity {missing[0]}.", field="mentions")


def _mention_ids(mentions) -> list[str]:
    mentions = list(mentions or [])
    if len(mentions) > MAX_MENTIONS:
        raise ApplicationError(f"At most {MAX_MENTIONS} entities.", field="mentions",
                               limit=MAX_MENTIONS)  # fmt: skip
    if not all(isinstance(m, str) and REF_PATTERN.match(m) for m in mentions):
        raise ApplicationError("mentions names entities by uid.", field="mentions", limit=64)
    return list(dict.fromkeys(mentions))


@refusal_recorded("evidence")
def check_evidence_add(
    scope: Scope,
    *,
    task: str,
    content: str,
    source: str,
    strength: float,
    embed_text: str | None = None,
    url: str | None = None,
    mentions: list[str] | None = None,
) -> dict:
    """One finding of an open task: {id, uid}. Content is kept whole (up to the limit)."""
    check_text(content, field="content", limit=MAX_CONTENT_CHARS, required=True)
    check_text(source, field="source", limit=MAX_SOURCE_CHARS, required=True)
    check_text(embed_text, field="embed_text", limit=MAX_EMBED_TEXT_CHARS)
    check_text(url, field="url", limit=MAX_URL_CHARS)
    strength = validate_strength(strength)
    mentions = _mention_ids(mentions)
    task_uid = resolve_task_uid(scope, task)
    embedding = get_embedder().embed([embed_text or content])[0]
    row = {"content": content, "source": source, "strength": strength, "embedding": embedding,
           "embed_text": embed_text, "url": url, "mentions": mentions}  # fmt: skip

    def work(stx):
        _mentions(stx, mentions)
        return do_evidence_write(stx, scope, task_uid=task_uid, rows=[row])[0]

    made = short_id_write(scope, work)
    similarity_soon(scope)
    return made


@refusal_recorded("evidence_synthesis")
def check_evidence_synthesize(
    scope: Scope,
    *,
    task: str,
    content: str,
    sources: list[str],
    source: str = "synthesis",
    strength: float | None = None,
    embed_text: str | None = None,
) -> dict:
    """A summary of `sources` (evidence ids) produced by `task`: it SUPERSEDES each, and they
    leave the context. Strength defaults to the strongest source's. {id, uid, supersedes}."""
    check_text(content, field="content", limit=MAX_CONTENT_CHARS, required=True)
    check_text(source, field="source", limit=MAX_SOURCE_CHARS, required=True)
    check_text(embed_text, field="embed_text", limit=MAX_EMBED_TEXT_CHARS)
    if not isinstance(sources, list) or not 0 < len(sources) <= MAX_SOURCES:
        raise ApplicationError(f"sources names 1 to {MAX_SOURCES} evidence ids.",
                               field="sources", limit=MAX_SOURCES)  # fmt: skip
    if not all(isinstance(s, str) and REF_PATTERN.match(s) for s in sources):
        raise ApplicationError("sources names evidence by id.", field="sources", limit=64)
    if strength is not None:
        strength = validate_strength(strength)
    task_uid = resolve_task_uid(scope, task)
    embedding = get_embedder().embed([embed_text or content])[0]

    def work(stx):
        found = stx.run(SOURCES, ids=list(dict.fromkeys(sources)))
        missing = [r["id"] for r in found if r["uid"] is None]
        if missing:
            raise NotFoundError(f"No evidence {missing[0]}.", field="sources")
        uids = list(dict.fromkeys(r["uid"] for r in found))
        row = {"content": content, "source": source, "embedding": embedding,
               "embed_text": embed_text,
               "strength": strength if strength is not None
               else max(r["strength"] for r in found)}  # fmt: skip
        made = do_evidence_write(stx, scope, task_uid=task_uid, rows=[row])[0]
        stx.run(SUPERSEDE, uid=made["uid"], sources=uids)
        return {**made, "supersedes": uids}

    made = short_id_write(scope, work)
    similarity_soon(scope)
    return made


def similarity_soon(scope: Scope) -> None:
    """Ask for a SIMILAR_TO sync once writes settle (apps/tasks/similarity.py)."""
    from apps.tasks.similarity import similarity_sync_soon

    similarity_sync_soon(scope)
