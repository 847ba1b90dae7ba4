"""The one write path of tasks: a batch of typed operations applied in one transaction.

A batch creates tasks (`TaskCreate`) and changes open ones (`TaskPatch`); later operations may
name tasks created earlier in the batch by their `ref`. After the writes the new SUBTASK_OF and
DEPENDS_ON edges are checked for cycles: a cycle rolls the whole batch back and is named in the
409. A terminal task (DONE, FAILED) and the edges it holds never change: failed work is replaced
by new subtasks. Edges *to* a terminal task are allowed (depending on done work is normal).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.nodes.work import TERMINAL_STATUSES
from apps.graph.scope import Scope
from apps.tasks.embed_projection import embed_text_projection
from apps.tasks.services.short_ids import do_short_id_pick, short_id_write
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

MAX_OPS = 100
MAX_DESCRIPTION_CHARS = 4000
MAX_EMBED_TEXT_CHARS = 300
MAX_PROMPT_CHARS = 8000  # prepared_prompt: the prompt an agent prepared for the task
MAX_ANTIFOCUS_CHARS = 300  # antifocus: what the task's context leaves out, by meaning
MAX_DEPENDS_ON = 50
MAX_KIND_CHARS = 60
KIND_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,60}$")
REF_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


@dataclass(frozen=True)
class TaskCreate:
    description: str
    embed_text: str | None = None
    kind: str = "default"
    parent: str | None = None
    depends_on: tuple[str, ...] = ()
    ref: str | None = None  # names this task for later operations of the same batch
    prepared_prompt: str | None = None
    antifocus: str | None = None


@dataclass(frozen=True)
class TaskPatch:
    task: str
    description: str | None = None
    embed_text: str | None = None
    kind: str | None = None
    parent: str | None = None
    add_depends_on: tuple[str, ...] = field(default_factory=tuple)
    prepared_prompt: str | None = None
    antifocus: str | None = None


RESOLVE = """
UNWIND $ids AS id
OPTIONAL MATCH (a:Task {tenant: $tenant, uid: id}) USING INDEX SEEK a:Task(uid)
OPTIONAL MATCH (b:Task {tenant: $tenant, short_id: id})
WITH id, coalesce(a, b) AS t
RETURN id, t.uid AS uid, t.short_id AS short_id, t.status AS status
"""
# Setting a property takes the node's write lock: the status read after it is the committed one.
LOCK = """
UNWIND $uids AS u
MATCH (t:Task {tenant: $tenant, uid: u}) USING INDEX SEEK t:Task(uid)
SET t._lock = true REMOVE t._lock
RETURN t.uid AS uid, t.short_id AS short_id, t.status AS status
"""
CREATE = """
CREATE (t:Task {tenant: $tenant, uid: $uid, short_id: $short_id, kind: $kind,
                description: $description, embed_text: $embed_text, status: 'PENDING',
                embedding: $embedding, embedded_text: $embedded_text, waiting: 0,
                prepared_prompt: $prepared_prompt, antifocus: $antifocus,
                antifocus_embedding: $antifocus_embedding, created_at: datetime(), created_by: $actor})
SET t.ready_at = t.created_at
"""
PATCH = """
MATCH (t:Task {tenant: $tenant, uid: $uid}) USING INDEX SEEK t:Task(uid)
WITH t, $embed_text IS NOT NULL OR t.embed_text IS NULL AS again
SET t.description = coalesce($description, t.description),
    t.embed_text = CASE WHEN $embed_text IS NULL THEN t.embed_text ELSE $embed_text END,
    t.embedding = CASE WHEN again THEN coalesce($embedding, t.embedding) ELSE t.embedding END,
    t.embedded_text = CASE WHEN again THEN coalesce($embedded_text, t.embedded_text)
                           ELSE t.embedded_text END,
    t.kind = coalesce($kind, t.kind),
    t.prepared_prompt = coalesce($prepared_prompt, t.prepared_prompt),
    t.antifocus = coalesce($antifocus, t.antifocus),
    t.antifocus_embedding = coalesce($antifocus_embedding, t.antifocus_embedding)
"""
PARENT = """
MATCH (c:Task {tenant: $tenant, uid: $child}), (p:Task {tenant: $tenant, uid: $parent})
OPTIONAL MATCH (c)-[old:SUBTASK_OF]->()
DELETE old
CREATE (c)-[:SUBTASK_OF {created_at: datetime()}]->(p)
"""
# The dependency is locked before its status is read, so a completion running at the same time
# either sees this edge (and counts it down) or has committed DONE before it is read here.
DEPEND = """
UNWIND $pairs AS pair
MATCH (a:Task {tenant: $tenant, uid: pair[0]}), (b:Task {tenant: $tenant, uid: pair[1]})
WHERE NOT (a)-[:DEPENDS_ON]->(b)
SET b._lock = true REMOVE b._lock
CREATE (a)-[:DEPENDS_ON {created_at: datetime()}]->(b)
WITH a, b WHERE b.status <> 'DONE'
SET a.waiting = a.waiting + 1, a.ready_at = null
"""
CYCLE_DEPENDS = """
UNWIND $pairs AS pair
MATCH (a:Task {tenant: $tenant, uid: pair[0]}), (b:Task {tenant: $tenant, uid: pair[1]})
MATCH path = shortestPath((b)-[:DEPENDS_ON*1..]->(a))
RETURN [n IN nodes(path) | n.short_id] + [b.short_id] AS cycle LIMIT 1
"""
CYCLE_SUBTASK = """
UNWIND $pairs AS pair
MATCH (a:Task {tenant: $tenant, uid: pair[0]}), (b:Task {tenant: $tenant, uid: pair[1]})
MATCH path = shortestPath((b)-[:SUBTASK_OF*1..]->(a))
RETURN [n IN nodes(path) | n.short_id] + [b.short_id] AS cycle LIMIT 1
"""


def check_text(value, *, field: str, limit: int, required: bool = False) -> str | None:
    """`value` when it is text of 1 to `limit` characters (None when absent and not
    required); a 400 naming `field` and `limit` otherwise."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ApplicationError(
            f"{field} must be text of 1 to {limit} characters.", field=field, limit=limit
        )
    return value


def _kind(value, *, field: str = "kind") -> str | None:
    if value is not None and (not isinstance(value, str) or not KIND_PATTERN.match(value)):
        raise ApplicationError(
            f"{field} must be 1-{MAX_KIND_CHARS} letters, digits or _.:- characters.",
            field=field,
            limit=MAX_KIND_CHARS,
        )
    return value


def _ids(values, *, field: str) -> tuple[str, ...]:
    values = tuple(values or ())
    if len(values) > MAX_DEPENDS_ON:
        raise ApplicationError(
            f"At most {MAX_DEPENDS_ON} tasks.", field=field, limit=MAX_DEPENDS_ON
        )
    for value in values:
        if not isinstance(value, str) or not REF_PATTERN.match(value):
            raise ApplicationError(f"{field} names tasks by id.", field=field, limit=64)
    return tuple(dict.fromkeys(values))


def _check_shapes(ops: list) -> None:
    if not 0 < len(ops) <= MAX_OPS:
        raise ApplicationError(
            f"A batch has 1 to {MAX_OPS} operations.", field="ops", limit=MAX_OPS
        )
    refs = set()
    for op in ops:
        if isinstance(op, TaskCreate | TaskPatch):
            check_text(op.prepared_prompt, field="prepared_prompt", limit=MAX_PROMPT_CHARS)
            check_text(op.antifocus, field="antifocus", limit=MAX_ANTIFOCUS_CHARS)
        if isinstance(op, TaskCreate):
            check_text(
                op.description, field="description", limit=MAX_DESCRIPTION_CHARS, required=True
            )
            check_text(op.embed_text, field="embed_text", limit=MAX_EMBED_TEXT_CHARS)
            _kind(op.kind)
            _ids([op.parent] if op.parent else [], field="parent")
            _ids(op.depends_on, field="depends_on")
            if op.ref is not None:
                _ids([op.ref], field="ref")
                if op.ref in refs:
                    raise ApplicationError("Each ref names one task of the batch.", field="ref")
                refs.add(op.ref)
        elif isinstance(op, TaskPatch):
            _ids([op.task], field="task")
            check_text(op.description, field="description", limit=MAX_DESCRIPTION_CHARS)
            check_text(op.embed_text, field="embed_text", limit=MAX_EMBED_TEXT_CHARS)
            _kind(op.kind)
            _ids([op.parent] if op.parent else [], field="parent")
            _ids(op.add_depends_on, field="add_depends_on")
        else:
            raise ApplicationError("Unknown operation.", field="ops")


def _embeddings(ops: list) -> tuple[dict[int, list[float]], dict[int, str]]:
    """Embedded before the transaction (it may be retried), for each created or re-described
    task: the caller's embed_text, else the description's projection (never the description
    itself). ({op index: vector}, {op index: the text embedded})."""
    wanted = {}
    for i, op in enumerate(ops):
        if op.embed_text:
            wanted[i] = op.embed_text
        elif op.description:
            wanted[i] = embed_text_projection(op.description)
    antifocus = {i: op.antifocus for i, op in enumerate(ops) if op.antifocus}
    vectors = get_embedder().embed(list(wanted.values()) + list(antifocus.values()))
    found = dict(zip(wanted, vectors[: len(wanted)], strict=True))
    found.update({("antifocus", i): v
                  for i, v in zip(antifocus, vectors[len(wanted) :], strict=True)})  # fmt: skip
    return found, wanted


def _named_ids(ops: list) -> list[str]:
    names = []
    for op in ops:
        if isinstance(op, TaskCreate):
            names += [op.parent] if op.parent else []
            names += list(op.depends_on)
        else:
            names += [op.task] + ([op.parent] if op.parent else []) + list(op.add_depends_on)
    return list(dict.fromkeys(names))


def _immutable(task: dict) -> ConflictError:
    return ConflictError(
        f"Task {task['short_id']} is {task['status']}: a finished task and its edges do not "
        "change; create a new subtask instead.",
        code="task_immutable",
        field="task",
    )


@refusal_recorded("tasks")
def check_tasks_apply(scope: Scope, *, ops: list) -> list[dict]:
    """Apply the operations in order, all or none. Returns one receipt per operation:
    {op, id (short), uid}. Unknown tasks are 404s, terminal ones 409s, a cycle a 409 naming it."""
    _check_shapes(ops)
    vectors, embedded = _embeddings(ops)

    def work(tx) -> list[dict]:
        uids = {i: uuid.uuid4().hex for i, op in enumerate(ops) if isinstance(op, TaskCreate)}
        refs: dict[str, dict] = {}
        named = [
            n
            for n in _named_ids(ops)
            if n not in {op.ref for op in ops if isinstance(op, TaskCreate)}
        ]
        existing = {row["id"]: row for row in tx.run(RESOLVE, ids=named)} if named else {}

        def task(name: str, *, field: str) -> dict:
            found = refs.get(name) or existing.get(name)
            if not found or not found.get("uid"):
                raise NotFoundError(f"No task {name}.", field=field)
            return found

        touched = sorted({row["uid"] for row in existing.values() if row["uid"]})
        locked = {row["uid"]: row for row in tx.run(LOCK, uids=touched)}
        for row in existing.values():
            if row["uid"]:
                row["status"] = locked[row["uid"]]["status"]
        # Every task of the batch first, then the edges: an operation may name a ref created
        # later in the same batch (a task depending on one listed after it).
        created: dict[int, dict] = {}
        for i, op in enumerate(ops):
            if isinstance(op, TaskCreate):
                uid = uids[i]
                short_id = do_short_id_pick(tx, prefix="t", uid=uid)
                tx.run(CREATE, uid=uid, short_id=short_id, kind=op.kind, actor=scope.actor,
                       description=op.description, embed_text=op.embed_text,
                       embedding=vectors[i], embedded_text=embedded[i],
                       prepared_prompt=op.prepared_prompt, antifocus=op.antifocus,
                       antifocus_embedding=vectors.get(("antifocus", i)))  # fmt: skip
                created[i] = {"uid": uid, "short_id": short_id, "status": "PENDING"}
                if op.ref:
                    refs[op.ref] = created[i]
        receipts, depends, parents = [], [], []
        for i, op in enumerate(ops):
            if isinstance(op, TaskCreate):
                target, parent, adds = created[i], op.parent, op.depends_on
                receipts.append({"op": "create", "id": target["short_id"], "uid": target["uid"],
                                 "ref": op.ref})  # fmt: skip
            else:
                target = task(op.task, field="task")
                if target["status"] in TERMINAL_STATUSES:
                    raise _immutable(target)
                if op.add_depends_on and target["status"] != "PENDING":
                    raise ConflictError(
                        f"Task {target['short_id']} is {target['status']}: dependencies are "
                        "added only while it is PENDING.",
                        code="task_not_pending",
                        field="add_depends_on",
                    )
                if op.description or op.embed_text or op.kind or op.prepared_prompt or op.antifocus:
                    tx.run(PATCH, uid=target["uid"], description=op.description,
                           embed_text=op.embed_text, kind=op.kind,
                           embedding=vectors.get(i), embedded_text=embedded.get(i),
                           prepared_prompt=op.prepared_prompt, antifocus=op.antifocus,
                           antifocus_embedding=vectors.get(("antifocus", i)))  # fmt: skip
                parent, adds = op.parent, op.add_depends_on
                receipts.append({"op": "patch", "id": target["short_id"], "uid": target["uid"],
                                 "ref": None})  # fmt: skip
            if parent:
                up = task(parent, field="parent")
                if up["uid"] == target["uid"]:
                    raise ConflictError("A task cannot be its own parent.", code="cycle",
                                        field="parent", extra={"cycle": [up["short_id"]] * 2})  # fmt: skip
                tx.run(PARENT, child=target["uid"], parent=up["uid"])
                parents.append([target["uid"], up["uid"]])
            for name in adds:
                dep = task(name, field="depends_on")
                if dep["uid"] == target["uid"]:
                    raise ConflictError("A task cannot depend on itself.", code="cycle",
                                        field="depends_on", extra={"cycle": [dep["short_id"]] * 2})  # fmt: skip
                depends.append([target["uid"], dep["uid"]])
        if depends:
            tx.run(DEPEND, pairs=depends)
        for query, pairs, what in ((CYCLE_DEPENDS, depends, "DEPENDS_ON"),
                                   (CYCLE_SUBTASK, parents, "SUBTASK_OF")):  # fmt: skip
            found = tx.run(query, pairs=pairs) if pairs else []
            if found:
                cycle = found[0]["cycle"]
                raise ConflictError(
                    f"The batch would make a {what} cycle: {' -> '.join(cycle)}; nothing was "
                    "written.",
                    code="cycle",
                    field="ops",
                    extra={"cycle": cycle},
                )
        return receipts

    return short_id_write(scope, work)


def check_task_create(scope: Scope, **fields) -> dict:
    """One task, as a batch of one: {op, id, uid, ref}."""
    return check_tasks_apply(scope, ops=[TaskCreate(**fields)])[0]


RESOLVE_ONE = """
OPTIONAL MATCH (a:Task {tenant: $tenant, uid: $id}) USING INDEX SEEK a:Task(uid)
OPTIONAL MATCH (b:Task {tenant: $tenant, short_id: $id})
RETURN coalesce(a, b).uid AS uid
"""


def check_task_ref(task) -> str:
    """`task` when it can name a task (a uid or short id); a 400 naming the field otherwise."""
    return _ids([task], field="task")[0]


def resolve_task_uid(scope: Scope, task) -> str:
    """The uid of the tenant's task named by uid or short id (`t-a3f1`); 404 otherwise."""
    check_task_ref(task)
    uid = cypher.read(scope, RESOLVE_ONE, id=task)[0]["uid"]
    if uid is None:
        raise NotFoundError(f"No task {task}.", field="task")
    return uid
