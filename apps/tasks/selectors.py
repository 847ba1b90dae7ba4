"""Reads of the work graph: one task with its edges, evidence and claims; the ready set; the
tenant's task DAG for the page. Each is one query."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tasks.services.task_writes import resolve_task_uid

MAX_READY = 200
MAX_DAG_TASKS = 5000
MAX_ID_CHARS = 64

TASK = """
MATCH (t:Task {tenant: $tenant, uid: $uid}) USING INDEX SEEK t:Task(uid)
RETURN t.uid AS uid, t.short_id AS id, t.kind AS kind, t.description AS description,
       t.embed_text AS embed_text, t.embedded_text AS embedded_text,
       t.prepared_prompt AS prepared_prompt, t.antifocus AS antifocus, t.status AS status, t.result_summary AS result_summary,
       t.owner AS owner, toString(t.lease_until) AS lease_until,
       toString(t.created_at) AS created_at, toString(t.finished_at) AS finished_at,
       t.waiting AS waiting_on, t.ready_at IS NOT NULL AS ready,
       [(t)-[:SUBTASK_OF]->(p) | p.short_id][0] AS parent,
       [(c)-[:SUBTASK_OF]->(t) | c.short_id] AS subtasks,
       [(t)-[:DEPENDS_ON]->(d) | {id: d.short_id, status: d.status}] AS depends_on,
       [(d)-[:DEPENDS_ON]->(t) | d.short_id] AS dependents,
       [(t)-[c:CLAIMED_BY]->(a) | {agent: a.name, at: toString(c.at), until: toString(c.until),
                                   released_at: toString(c.released_at)}] AS claims,
       [(t)-[:PRODUCED]->(e) | {id: e.short_id, uid: e.uid, content: e.content,
                                source: e.source, url: e.url, strength: e.strength,
                                corroborated_by: coalesce(e.corroborated_by, 0),
                                corroborated_strength: coalesce(e.corroborated_strength, e.strength),
                                superseded: e.superseded,
                                supersedes: [(e)-[:SUPERSEDES]->(o) | o.short_id],
                                superseded_by: [(n)-[:SUPERSEDES]->(e) | n.short_id]}]
         AS evidence
"""
READY = """
MATCH (t:Task) WHERE t.tenant = $tenant AND t.ready_at IS NOT NULL
WITH t ORDER BY t.tenant, t.ready_at LIMIT $limit
RETURN t.uid AS uid, t.short_id AS id, t.kind AS kind, t.description AS description,
       toString(t.created_at) AS created_at
"""
READY_KIND = """
MATCH (t:Task) WHERE t.tenant = $tenant AND t.kind = $kind AND t.ready_at IS NOT NULL
WITH t ORDER BY t.tenant, t.kind, t.ready_at LIMIT $limit
RETURN t.uid AS uid, t.short_id AS id, t.kind AS kind, t.description AS description,
       toString(t.created_at) AS created_at
"""
DAG = """
MATCH (t:Task {tenant: $tenant}) WHERE t.created_at IS NOT NULL
WITH t ORDER BY t.created_at LIMIT $limit
RETURN t.short_id AS id, t.uid AS uid, t.status AS status, t.description AS description,
       [(t)-[:SUBTASK_OF]->(p) | p.short_id][0] AS parent,
       [(t)-[:DEPENDS_ON]->(d) | d.short_id] AS depends_on
"""


def task_detail(scope: Scope, *, task: str) -> dict:
    """The task named by uid or short id, with its edges, claims and evidence (404 otherwise)."""
    uid = resolve_task_uid(scope, task)
    row = cypher.read(scope, TASK, uid=uid)[0]
    row["evidence"].sort(key=lambda e: (e["superseded"], -e["strength"], e["id"]))
    row["claims"].sort(key=lambda c: c["at"])
    for claim in row["claims"]:
        claim["released_at"] = claim["released_at"] or None
    return row


def page_ingests(scope: Scope, *, task_uid: str, limit: int = 5) -> list[dict]:
    """The task's latest page-ingest jobs with their progress, newest first (from the job rows,
    no graph read)."""
    from apps.tasks.services.page_ingest import JOB_KIND
    from apps.tenants.models import Job

    jobs = Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND, subject=task_uid)
    rows = []
    for job in jobs.order_by("-created_at")[:limit]:
        done, total = job.progress.get("done", 0), job.progress.get("total", 0)
        rows.append({"job": job, "done": done, "total": total,
                     "percent": round(100 * done / total) if total else 0,
                     "created": len(job.progress.get("created", [])),
                     "skipped": len(job.progress.get("skipped", [])),
                     "running": job.status in ("queued", "running")})  # fmt: skip
    return rows


def ready_set(scope: Scope, *, kind: str | None = None, limit: int = 50) -> list[dict]:
    """PENDING tasks whose dependencies are all DONE, oldest first (index-ordered)."""
    limit = max(1, min(limit, MAX_READY))
    if kind:
        return cypher.read(scope, READY_KIND, kind=kind, limit=limit)
    return cypher.read(scope, READY, limit=limit)


def task_dag(scope: Scope, *, limit: int = MAX_DAG_TASKS) -> list[dict]:
    """Every task (oldest first, up to `limit`) with its parent and dependencies."""
    return cypher.read(scope, DAG, limit=max(1, min(limit, MAX_DAG_TASKS)))


EVIDENCE = """
OPTIONAL MATCH (a:Evidence {tenant: $tenant, uid: $id}) USING INDEX SEEK a:Evidence(uid)
OPTIONAL MATCH (b:Evidence {tenant: $tenant, short_id: $id})
WITH coalesce(a, b) AS e WHERE e IS NOT NULL
RETURN e.uid AS uid, e.short_id AS id, e.content AS content, e.embed_text AS embed_text,
       e.source AS source, e.url AS url, e.strength AS strength, e.superseded AS superseded,
       coalesce(e.corroborated_by, 0) AS corroborated_by,
       coalesce(e.corroborated_strength, e.strength) AS corroborated_strength,
       toString(e.created_at) AS created_at,
       [(t)-[:PRODUCED]->(e) | t.short_id][0] AS task,
       [(e)-[:SUPERSEDES]->(o) | o.short_id] AS supersedes,
       [(n)-[:SUPERSEDES]->(e) | n.short_id] AS superseded_by,
       [(e)-[:MENTIONS]->(n) | {uid: n.uid, name: n.name}] AS mentions,
       [(e)-[r:SIMILAR_TO]-(o) | {id: o.short_id, score: r.score}] AS similar
"""


def evidence_detail(scope: Scope, *, evidence: str) -> dict:
    """One evidence node by uid or short id (`e-7c0b`), whole, with its provenance."""
    from memoryproject.api_errors import NotFoundError

    if not isinstance(evidence, str) or len(evidence) > MAX_ID_CHARS:
        raise NotFoundError("No such evidence.", field="evidence")
    rows = cypher.read(scope, EVIDENCE, id=evidence)
    if not rows:
        raise NotFoundError("No such evidence.", field="evidence")
    return rows[0]


LEVEL_ROOTS = """
MATCH (t:Task {tenant: $tenant}) WHERE NOT (t)-[:SUBTASK_OF]->()
WITH t ORDER BY t.created_at LIMIT $limit
RETURN t.short_id AS id, t.status AS status, t.description AS description,
       COUNT { (c:Task)-[:SUBTASK_OF]->(t) } AS subtasks,
       COUNT { (c:Task)-[:SUBTASK_OF]->(t) WHERE c.status = 'DONE' } AS subtasks_done,
       [(t)-[:DEPENDS_ON]->(d) | d.short_id] AS depends_on
"""
LEVEL_CHILDREN = """
MATCH (t:Task {tenant: $tenant})-[:SUBTASK_OF]->(:Task {tenant: $tenant, uid: $parent})
WITH t ORDER BY t.created_at LIMIT $limit
RETURN t.short_id AS id, t.status AS status, t.description AS description,
       COUNT { (c:Task)-[:SUBTASK_OF]->(t) } AS subtasks,
       COUNT { (c:Task)-[:SUBTASK_OF]->(t) WHERE c.status = 'DONE' } AS subtasks_done,
       [(t)-[:DEPENDS_ON]->(d) | d.short_id] AS depends_on
"""
TRAIL = """
MATCH (t:Task {tenant: $tenant, uid: $parent}) USING INDEX SEEK t:Task(uid)
OPTIONAL MATCH path = (t)-[:SUBTASK_OF*1..20]->(a:Task {tenant: $tenant})
WITH t, a, length(path) AS depth ORDER BY depth DESC
WITH t, collect(a) AS ancestors
RETURN [x IN ancestors | {id: x.short_id, description: x.description}]
       + [{id: t.short_id, description: t.description}] AS trail
"""


def dag_level(scope: Scope, *, parent: str | None = None, limit: int = MAX_DAG_TASKS) -> dict:
    """One level of the task DAG, collapsed by parent: the root tasks (or `parent`'s subtasks),
    each with its subtask counts and dependencies, and the trail of ancestors down to `parent`."""
    limit = max(1, min(limit, MAX_DAG_TASKS))
    if parent is None:
        return {"trail": [], "tasks": cypher.read(scope, LEVEL_ROOTS, limit=limit)}
    uid = resolve_task_uid(scope, parent)
    return {"trail": cypher.read(scope, TRAIL, parent=uid)[0]["trail"],
            "tasks": cypher.read(scope, LEVEL_CHILDREN, parent=uid, limit=limit)}  # fmt: skip
