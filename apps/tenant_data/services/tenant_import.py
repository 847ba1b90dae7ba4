"""Import of a tenant archive (apps/tenant_data/services/tenant_archive.py) into an EMPTY tenant, as a job
with progress, for the tenant's admins.

The request refuses a tenant that holds memory or jobs (409) and an upload over
TENANT_IMPORT_MAX_BYTES (413), and stores the upload. The worker reads the archive twice: first
every line is checked (a bad line refuses the whole import before anything is written) and the
uids it holds are collected; then it writes. Every node and relationship uid gets a new value
(uids are unique across the database, and the exported tenant may still exist), and every
string that holds one of the old uids, or the old tenant's uid, holds the new one instead; a
string naming any other existing tenant refuses the import. `tenant` is always the importing
tenant. Nodes carry `_import_job` until the end, so a redelivered job first removes what an
interrupted run wrote."""

from __future__ import annotations

import re
import uuid
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from apps.graph import cypher
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.scope import Scope
from apps.tenant_data.selectors import graph_has_data
from apps.tenant_data.services.tenant_archive import ArchiveRefused, archive_dir, archive_records
from apps.tenants.models import AuditEvent, Job, JobStatus, KeyScope, Membership, Role, Tenant
from apps.tenants.services import audit_record, job_create, job_enqueue, job_run
from memoryproject.api_errors import ApplicationError, ConflictError, PermissionDeniedError

JOB_KIND = "tenant_import"
WRITE_BATCH = 500
ROWS_DONE = "tenant.import_rows_written"
UID_TOKEN = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}")

NODES_WRITE = """
UNWIND $nodes AS row
CREATE (n:$(row.labels))
SET n = row.props, n.tenant = $tenant, n._import_job = $job
WITH n, row
CALL (n, row) {
  UNWIND row.vectors AS v
  CALL db.create.setNodeVectorProperty(n, v.key, v.value)
}
RETURN row.ref AS ref, elementId(n) AS id
"""
RELATIONSHIPS_WRITE = """
UNWIND $rels AS row
MATCH (a) WHERE elementId(a) = row.start AND a.tenant = $tenant
MATCH (b) WHERE elementId(b) = row.end AND b.tenant = $tenant
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
RETURN count(r) AS n
"""
UNDO = """
MATCH (n) WHERE n.tenant = $tenant AND n._import_job = $job
WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS n
"""
# By element id, not by the marker: finding marked nodes without a label would scan the graph.
UNMARK = """
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id AND n.tenant = $tenant
REMOVE n._import_job
"""
UNMARKED = "MATCH (n) WHERE n.tenant = $tenant AND n._import_job IS NULL RETURN 1 AS x LIMIT 1"


def import_path(job_uid: str, *, tenant_uid: str):
    """Beside the tenant's exports, so deleting the tenant deletes its uploads too."""
    folder = archive_dir() / tenant_uid / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{job_uid}.ndjson.gz"


def tenant_is_empty(scope: Scope) -> bool:
    """No memory in the graph and no job: what an import may go into."""
    return not graph_has_data(scope) and not Job.objects.filter(tenant__uid=scope.tenant).exists()


def check_import_start(scope: Scope, *, upload) -> Job:
    """Store the uploaded archive and queue the job that imports it. `upload` is a file-like
    object with `size` and `chunks()` (a Django upload)."""
    if not scope.allows(KeyScope.ADMIN):
        raise PermissionDeniedError("Importing into a tenant needs the admin role or scope.")
    if upload is None:
        raise ApplicationError("Choose an archive to import.", field="archive")
    if upload.size > settings.TENANT_IMPORT_MAX_BYTES:
        raise ApplicationError("The archive is too large.", field="archive", code="too_large",
                               limit=settings.TENANT_IMPORT_MAX_BYTES, status=413)  # fmt: skip
    if not tenant_is_empty(scope):
        raise ConflictError("An import goes into an empty tenant; this one has data or jobs.",
                            field="tenant")  # fmt: skip
    job = job_create(scope, kind=JOB_KIND, subject="an archive")
    stored_path = import_path(job.uid, tenant_uid=scope.tenant)
    with open(stored_path, "wb") as stored:
        for chunk in upload.chunks():
            stored.write(chunk)
    audit_record(scope, action="tenant.import_requested", target=f"job:{job.uid}",
                 details={"bytes": upload.size})  # fmt: skip
    from apps.tenant_data import tasks

    job_enqueue(job, tasks.tenant_import, job.uid, undo=lambda: stored_path.unlink(missing_ok=True))
    return job


def import_run(*, job_uid: str) -> dict | None:
    def work(scope: Scope, progress) -> dict:
        path = import_path(job_uid, tenant_uid=scope.tenant)
        plan = _archive_check(path, scope)
        progress(done=0, total=plan["node"] + plan["relationship"])
        while cypher.write(scope, UNDO, job=job_uid, batch=WRITE_BATCH)[0]["n"]:
            pass  # an interrupted run's nodes
        if cypher.read(scope, UNMARKED):
            raise ConflictError("The tenant has data of its own now; nothing was imported.")
        rows = _rows_write(scope, path, plan["mapping"], job_uid)
        written, ids = _graph_write(scope, path, plan["mapping"], job_uid, progress)
        for start in range(0, len(ids), WRITE_BATCH):
            cypher.write(scope, UNMARK, ids=ids[start : start + WRITE_BATCH])
        path.unlink(missing_ok=True)
        return {**written, **rows, "from_tenant": plan["from"]}

    return job_run(job_uid, work, actor="system:import", permissions={KeyScope.ADMIN},
                   audit="tenant.imported",
                   refusals={ArchiveRefused: "", ConflictError: ""})  # fmt: skip


def _archive_check(path, scope: Scope) -> dict:
    """Pass one: every line checked, the counts against the footer, the uid mapping built."""
    mapping: dict[str, str] = {}
    seen = {"node": 0, "relationship": 0, "row": 0}
    refs: set[str] = set()
    source = ""
    for record in archive_records(path):
        kind = record["kind"]
        if kind == "header":
            source = str(record["tenant"].get("uid", ""))
            if UID_TOKEN.fullmatch(source):
                mapping[source] = scope.tenant
        elif kind == "footer":
            if {k: record["counts"].get(k) for k in seen} != seen:
                raise ArchiveRefused(0, "the footer's counts differ from the lines (incomplete?)")
        elif kind != "settings":
            seen[kind] += 1
            # Nodes', relationships' and jobs' uids: each gets a new one here.
            uid = record.get("props", record.get("fields", {})).get("uid")
            if isinstance(uid, str) and uid not in mapping:
                mapping[uid] = uuid.uuid4().hex if len(uid) == 32 else str(uuid.uuid4())
            if kind == "node":
                refs.add(record["ref"])
            elif kind == "relationship" and not {record["start"], record["end"]} <= refs:
                raise ArchiveRefused(0, "a relationship names a node not written before it")
    others = set(
        Tenant.objects.exclude(uid=scope.tenant).filter(uid__in=list(mapping)).values_list(
            "uid", flat=True)
    ) - {source}  # fmt: skip
    if others:
        raise ArchiveRefused(0, "the archive names another tenant of this site")
    return {**seen, "mapping": mapping, "from": source}


def _remap(value, mapping: dict[str, str]):
    if isinstance(value, str):
        return UID_TOKEN.sub(lambda m: mapping.get(m.group(0), m.group(0)), value)
    if isinstance(value, list):
        return [_remap(v, mapping) for v in value]
    if isinstance(value, dict):
        return {k: _remap(v, mapping) for k, v in value.items()}
    return value


def _node_row(record: dict, mapping: dict) -> dict:
    props = {k: _remap(v, mapping) for k, v in record["props"].items()}
    dims = settings.EMBEDDING_DIMENSIONS
    # Embeddings go back as the float32 vectors they were stored as (setNodeVectorProperty).
    vectors = [
        {"key": k, "value": v}
        for k, v in props.items()
        if isinstance(v, list) and len(v) == dims and all(isinstance(x, float) for x in v)
    ]
    for vector in vectors:
        del props[vector["key"]]
    return {"ref": record["ref"], "labels": record["labels"], "props": props, "vectors": vectors}


def _graph_write(scope: Scope, path, mapping: dict, job_uid: str, progress):
    """Nodes then relationships, in batches; returns the counts and the new nodes' element ids."""
    ids: dict[str, str] = {}
    nodes: list[dict] = []
    rels: list[dict] = []
    written = {"nodes": 0, "relationships": 0}

    def flush_nodes() -> None:
        for row in cypher.write(scope, NODES_WRITE, nodes=nodes, job=job_uid):
            ids[row["ref"]] = row["id"]
        written["nodes"] += len(nodes)
        nodes.clear()
        progress(done=written["nodes"])

    def flush_rels() -> None:
        n = cypher.write(scope, RELATIONSHIPS_WRITE, rels=rels)[0]["n"]
        if n != len(rels):
            raise ArchiveRefused(0, "a relationship's ends were not written")
        written["relationships"] += n
        rels.clear()
        progress(done=written["nodes"] + written["relationships"])

    for record in archive_records(path):
        if record["kind"] == "node":
            nodes.append(_node_row(record, mapping))
            if len(nodes) >= WRITE_BATCH:
                flush_nodes()
        elif record["kind"] == "relationship":
            if nodes:
                flush_nodes()
            props = {k: _remap(v, mapping) for k, v in record["props"].items()}
            if "tenant" in props:
                props["tenant"] = scope.tenant
            rels.append({"type": record["type"], "start": ids[record["start"]],
                         "end": ids[record["end"]], "props": props})  # fmt: skip
            if len(rels) >= WRITE_BATCH:
                flush_rels()
    if nodes:
        flush_nodes()
    if rels:
        flush_rels()
    cypher.write_unit(scope, do_graph_version_bump)  # kept whole-graph answers see the import
    return written, list(ids.values())


def _rows_write(scope: Scope, path, mapping: dict, job_uid: str) -> dict:
    """The relational rows and settings in one transaction, once (a rerun finds its marker)."""
    tenant = Tenant.objects.get(uid=scope.tenant)
    if AuditEvent.objects.filter(tenant=tenant, action=ROWS_DONE, target=f"job:{job_uid}").exists():
        return {}
    counts = {"memberships": 0, "memberships_skipped": 0, "jobs": 0, "audit_events": 0}
    users = get_user_model().objects
    with transaction.atomic():
        for record in archive_records(path):
            if record["kind"] == "settings":
                tenant.settings = {**tenant.settings, **_settings_known(record["settings"])}
                tenant.save(update_fields=["settings"])
            if record["kind"] != "row":
                continue
            fields = _remap(record["fields"], mapping)
            if record["table"] == "tenants.membership":
                user = users.filter(username=str(fields.get("username", ""))).first()
                role = fields.get("role")
                if user is None or role not in Role.values:
                    counts["memberships_skipped"] += 1  # no such person on this site
                    continue
                Membership.objects.get_or_create(user=user, tenant=tenant,
                                                 defaults={"role": role})  # fmt: skip
                counts["memberships"] += 1
            elif record["table"] == "tenants.job":
                _job_copy(tenant, fields)
                counts["jobs"] += 1
            else:
                _audit_copy(tenant, fields)
                counts["audit_events"] += 1
        audit_record(scope, action=ROWS_DONE, target=f"job:{job_uid}", details=counts)
    return counts


def _settings_known(archived: dict) -> dict:
    """The archive's overrides of settings this site knows, of the type of their default."""
    defaults = settings.TENANT_DEFAULTS
    return {
        name: value
        for name, value in archived.items()
        if name in defaults and type(value) is type(defaults[name])
    }


def _when(value) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _text(value, limit: int) -> str:
    return str(value or "")[:limit]


def _job_copy(tenant: Tenant, fields: dict) -> None:
    status = fields.get("status")
    error = _text(fields.get("error"), 4000)
    if status not in (JobStatus.DONE, JobStatus.FAILED):  # it will never run here
        status, error = JobStatus.FAILED, "Not finished when its tenant was exported."
    attempts = fields.get("attempts")
    uid = fields.get("uid")
    job = Job.objects.create(
        uid=uid if isinstance(uid, str) and UID_TOKEN.fullmatch(uid) else uuid.uuid4().hex,
        tenant=tenant, kind=_text(fields.get("kind"), 40), subject=_text(fields.get("subject"), 200),
        status=status, error=error, actor=_text(fields.get("actor"), 200),
        progress=fields.get("progress") if isinstance(fields.get("progress"), dict) else {},
        result=fields.get("result") if isinstance(fields.get("result"), dict) else {},
        attempts=attempts if isinstance(attempts, int) and 0 <= attempts < 2**31 else 0,
        finished_at=_when(fields.get("finished_at")),
    )  # fmt: skip
    created = _when(fields.get("created_at"))
    if created:  # auto_now_add set it to now; the archive's time is the true one
        Job.objects.filter(pk=job.pk).update(created_at=created)


def _audit_copy(tenant: Tenant, fields: dict) -> None:
    event = AuditEvent.objects.create(
        tenant=tenant, actor=_text(fields.get("actor"), 200),
        actor_kind=_text(fields.get("actor_kind"), 10), action=_text(fields.get("action"), 60),
        target=_text(fields.get("target"), 200),
        details=fields.get("details") if isinstance(fields.get("details"), dict) else {},
    )  # fmt: skip
    at = _when(fields.get("at"))
    if at:
        AuditEvent.objects.filter(pk=event.pk).update(at=at)
