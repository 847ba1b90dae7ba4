"""Import of a tenant archive (apps/tenant_data/services/tenant_archive.py) into an EMPTY tenant,
as a job with progress, for the tenant's admins.

The request refuses a tenant that holds memory or jobs other than housekeeping (409, saying which) and an upload over
TENANT_IMPORT_MAX_BYTES (413), and stores the upload. The worker reads the archive twice: first
every line is checked (a bad line refuses the whole import before anything is written) and the
uids it holds are collected; then it writes. Every node and relationship uid gets a new value
(uids are unique across the database, and the exported tenant may still exist), and every
string that holds one of the old uids, or the old tenant's uid, holds the new one instead; a
string naming any other existing tenant refuses the import. `tenant` is always the importing
tenant. Nodes carry `_import_job` until the end, so a redelivered job first removes what an
interrupted run wrote. Settings and memberships: apps/tenant_data/services/import_rows.py."""

from __future__ import annotations

import uuid

from django.conf import settings

from apps.graph import cypher
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.scope import Scope
from apps.tenant_data.selectors import import_blockers
from apps.tenant_data.services.import_rows import (
    UID_TOKEN,
    archive_settings_check,
    import_rows_write,
    uids_remapped,
)
from apps.tenant_data.services.tenant_archive import (
    ArchiveRefused,
    archive_dir,
    archive_records,
    numbered_records,
)
from apps.tenants.models import Job, KeyScope, Tenant
from apps.tenants.services import audit_record, job_create, job_enqueue, job_run
from memoryproject.api_errors import ApplicationError, ConflictError, PermissionDeniedError

JOB_KIND = "tenant_import"
WRITE_BATCH = 500

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
UNMARKED = """
MATCH (n) WHERE n.tenant = $tenant AND n._import_job IS NULL AND NOT n:GraphVersion
  AND NOT n:GraphStamp AND NOT n:DeletionLock
RETURN 1 AS x LIMIT 1
"""


def import_path(job_uid: str, *, tenant_uid: str):
    """Beside the tenant's exports, so deleting the tenant deletes its uploads too."""
    folder = archive_dir() / tenant_uid / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{job_uid}.ndjson.gz"


def tenant_is_empty(scope: Scope) -> bool:
    """No memory in the graph and no job but housekeeping: what an import may go into."""
    return not import_blockers(scope)


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
    if blockers := import_blockers(scope):
        raise ConflictError(f"An import goes into an empty tenant; in this one {'; '.join(blockers)}.",
                            field="tenant", extra={"reasons": blockers})  # fmt: skip
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
        rows = import_rows_write(scope, archive_records(path), plan["mapping"], job_uid,
                                 source=plan["from"], own_settings=plan["settings"])  # fmt: skip
        written, ids = _graph_write(scope, path, plan["mapping"], job_uid, progress)
        for start in range(0, len(ids), WRITE_BATCH):
            cypher.write(scope, UNMARK, ids=ids[start : start + WRITE_BATCH])
        path.unlink(missing_ok=True)
        return {**written, **rows, "from_tenant": plan["from"],
                "settings_unknown": plan["settings_unknown"]}  # fmt: skip

    return job_run(job_uid, work, actor="system:import", permissions={KeyScope.ADMIN},
                   audit="tenant.imported",
                   refusals={ArchiveRefused: refusal_text, ConflictError: refusal_text})  # fmt: skip


def refusal_text(refused: ApplicationError) -> str:
    """What the data page shows of a refused import: our own words, naming a line, a setting or
    what the tenant holds, never a value from the archive."""
    return refused.message


def _archive_check(path, scope: Scope) -> dict:
    """Pass one: every line checked, the counts against the footer, the uid mapping built."""
    mapping: dict[str, str] = {}
    seen = {"node": 0, "relationship": 0, "row": 0}
    refs: set[str] = set()
    source = ""
    checked = {"values": {}, "unknown": []}
    for line, record in numbered_records(path):
        kind = record["kind"]
        if kind == "header":
            source = str(record["tenant"].get("uid", ""))
            if UID_TOKEN.fullmatch(source):
                mapping[source] = scope.tenant
        elif kind == "footer":
            if {k: record["counts"].get(k) for k in seen} != seen:
                raise ArchiveRefused(0, "the footer's counts differ from the lines (incomplete?)")
        elif kind == "settings":
            current = Tenant.objects.get(uid=scope.tenant).settings
            checked = archive_settings_check(record["settings"], line=line, current=current)
        else:
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
    return {**seen, "mapping": mapping, "from": source, "settings": checked["values"],
            "settings_unknown": checked["unknown"]}  # fmt: skip


def _node_row(record: dict, mapping: dict) -> dict:
    props = {k: uids_remapped(v, mapping) for k, v in record["props"].items()}
    dims = settings.EMBEDDING_DIMENSIONS
    # Embeddings go back as the float32 vectors they were stored as (setNodeVectorProperty).
    vectors = [
        {"key": k, "value": v}
        for k, v in props.items()
        if isinstance(v, list) and len(v) == dims and all(isinstance(x, float) for x in v)
    ]
    for vector in vectors:
        del props[vector["key"]]
    if "GraphVersion" in record["labels"]:
        # The tenant may have shards of its own (its version counts writes, not memory): the
        # archive's counts join its sum unsharded, so they never meet its (tenant, shard) key.
        props.pop("shard", None)
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
        if record["kind"] == "node" and {"GraphStamp", "DeletionLock"} & set(record["labels"]):
            continue  # the target's own (an archive of before did not skip the stamp)
        if record["kind"] == "node":
            nodes.append(_node_row(record, mapping))
            if len(nodes) >= WRITE_BATCH:
                flush_nodes()
        elif record["kind"] == "relationship":
            if nodes:
                flush_nodes()
            props = {k: uids_remapped(v, mapping) for k, v in record["props"].items()}
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
