"""Export of a whole tenant to a gzip'd NDJSON archive (format: apps/tenant_data/services/tenant_archive.py),
as a job with progress, for the tenant's admins.

What goes in: every graph node carrying the tenant, with all its properties (embeddings
included, so an import needs no model run), every relationship leaving one of them, the tenant's
settings, and its relational rows: memberships (username and role), jobs, audit events.
Refused writes are WriteFailure nodes, so they come with the graph. What stays out: API keys
(their hashes authenticate: a copy would let the old keys into the imported tenant) and
people's accounts (a membership names its user; an import links it only to an existing one).

Nodes are read a label at a time, in pages of EXPORT_PAGE ordered by element id; a node with
several labels is written once, under the first of them in sort order."""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

from django.conf import settings

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tenant_data.services.tenant_archive import FORMAT, archive_dir, archive_line, encode_props
from apps.tenants.models import AuditEvent, Job, JobStatus, KeyScope, Membership, Tenant
from apps.tenants.services import audit_record, job_create, job_enqueue, job_run
from memoryproject.api_errors import NotFoundError, PermissionDeniedError

JOB_KIND = "tenant_export"
EXPORT_PAGE = 500

LABELS = """
CALL db.labels() YIELD label
CALL (label) { MATCH (n:$(label)) WHERE n.tenant = $tenant RETURN count(n) AS n }
// The graph's stamp stays with its graph: an import into another tenant is another graph;
// so does its deletion lock (keyed by the tenant, made by the first deletion that needs it).
WITH label, n WHERE n > 0 AND NOT label IN ['GraphStamp', 'DeletionLock']
RETURN label, n ORDER BY label
"""
# One page of a label's nodes (those whose first label in sort order is this one), each with
# its outgoing relationships.
PAGE = """
MATCH (n:$($label)) WHERE n.tenant = $tenant AND elementId(n) > $after
  AND reduce(m = head(labels(n)), l IN labels(n) | CASE WHEN l < m THEN l ELSE m END) = $label
WITH n ORDER BY elementId(n) LIMIT $page
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props,
  [(n)-[r]->(m) | {type: type(r), props: properties(r), end: elementId(m),
                   end_tenant: m.tenant}] AS out
"""


def archive_path(*, tenant_uid: str, job_uid: str) -> Path:
    folder = archive_dir() / tenant_uid
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{job_uid}.ndjson.gz"


def check_export_start(scope: Scope) -> Job:
    """An admin's request to export the tenant: a job writes the archive; its result names the
    archive's size and counts."""
    if not scope.allows(KeyScope.ADMIN):
        raise PermissionDeniedError("Exporting a tenant needs the admin role or scope.")
    job = job_create(scope, kind=JOB_KIND, subject="the whole tenant")
    audit_record(scope, action="tenant.export_requested", target=f"job:{job.uid}")
    from apps.tenant_data import tasks

    job_enqueue(job, tasks.tenant_export, job.uid)
    return job


def export_archive(scope: Scope, *, job_uid: str) -> Path:
    """The archive of a finished export of the scope's tenant; NotFoundError otherwise (another
    tenant's job looks the same as none)."""
    if not scope.allows(KeyScope.ADMIN):
        raise PermissionDeniedError("Downloading an export needs the admin role or scope.")
    job = Job.objects.filter(tenant__uid=scope.tenant, uid=job_uid, kind=JOB_KIND).first()
    if job is None or job.status != JobStatus.DONE:
        raise NotFoundError("No finished export with this id.")
    path = archive_path(tenant_uid=scope.tenant, job_uid=job.uid)
    if not path.exists():
        raise NotFoundError("The archive of this export is no longer stored.")
    return path


def exports_list(*, tenant: Tenant, limit: int = 20) -> list[Job]:
    return list(Job.objects.filter(tenant=tenant, kind=JOB_KIND).order_by("-created_at")[:limit])


def export_run(*, job_uid: str) -> dict | None:
    def work(scope: Scope, progress) -> dict:
        tenant = Tenant.objects.get(uid=scope.tenant)
        target = archive_path(tenant_uid=tenant.uid, job_uid=job_uid)
        # Written beside the target and renamed at the end: a download never sees half a file.
        fd, partial = tempfile.mkstemp(dir=target.parent, suffix=".partial")
        os.close(fd)
        try:
            counts = _archive_write(scope, tenant, Path(partial), job_uid, progress)
            os.replace(partial, target)
        finally:
            Path(partial).unlink(missing_ok=True)
        return {**counts, "bytes": target.stat().st_size}

    return job_run(job_uid, work, actor="system:export", permissions={KeyScope.ADMIN},
                   audit="tenant.exported")  # fmt: skip


def _archive_write(scope: Scope, tenant: Tenant, path: Path, job_uid: str, progress) -> dict:
    labels = cypher.read(scope, LABELS)
    progress(done=0, total=sum(row["n"] for row in labels))
    refs: dict[str, str] = {}
    by_label: dict[str, int] = {}
    by_type: dict[str, int] = {}
    skipped = 0
    # Relationships wait in a side file until every node has its ref.
    with (
        tempfile.TemporaryFile("w+", dir=path.parent) as pending,
        gzip.open(
            path, "wt", encoding="utf-8", compresslevel=settings.TENANT_ARCHIVE_COMPRESSION
        ) as out,
    ):
        out.write(archive_line({
            "kind": "header", "format": FORMAT, "exported_by": job_uid,
            "tenant": {"uid": tenant.uid, "slug": tenant.slug, "name": tenant.name},
        }))  # fmt: skip
        out.write(archive_line({"kind": "settings", "settings": tenant.settings}))
        for row in labels:
            label, after = row["label"], ""
            while page := cypher.read(scope, PAGE, label=label, after=after, page=EXPORT_PAGE):
                for node in page:
                    ref = refs.setdefault(node["id"], f"n{len(refs) + 1}")
                    out.write(archive_line({"kind": "node", "ref": ref, "labels": node["labels"],
                                            "props": encode_props(node["props"])}))  # fmt: skip
                    for rel in node["out"]:
                        if rel["end_tenant"] != scope.tenant:
                            skipped += 1  # tenancy forbids these; never carried across
                            continue
                        pending.write(archive_line({"kind": "relationship", "type": rel["type"],
                            "start": ref, "end": rel["end"],
                            "props": encode_props(rel["props"])}))  # fmt: skip
                        by_type[rel["type"]] = by_type.get(rel["type"], 0) + 1
                by_label[label] = by_label.get(label, 0) + len(page)
                after = page[-1]["id"]
                progress(done=len(refs))
        pending.seek(0)
        for line in pending:
            record = json.loads(line)
            record["end"] = refs[record["end"]]
            out.write(archive_line(record))
        rows = _rows_write(out, tenant, job_uid)
        counts = {"node": len(refs), "relationship": sum(by_type.values()),
                  "row": sum(rows.values())}  # fmt: skip
        out.write(archive_line({"kind": "footer", "counts": counts, "nodes_by_label": by_label,
                                "relationships_by_type": by_type, "rows_by_table": rows}))  # fmt: skip
    return {**counts, "nodes_by_label": by_label, "relationships_by_type": by_type,
            "rows_by_table": rows, "skipped_cross_tenant": skipped}  # fmt: skip


def _rows_write(out, tenant: Tenant, job_uid: str) -> dict[str, int]:
    rows = {"tenants.membership": 0, "tenants.job": 0, "tenants.auditevent": 0}
    for m in Membership.objects.filter(tenant=tenant).select_related("user").order_by("pk"):
        out.write(archive_line({"kind": "row", "table": "tenants.membership", "fields": {
            "username": m.user.get_username(), "role": m.role,
            "granted_at": m.granted_at.isoformat()}}))  # fmt: skip
        rows["tenants.membership"] += 1
    # This export's own job is still running: it is not part of what it exports.
    for job in Job.objects.filter(tenant=tenant).exclude(uid=job_uid).order_by("pk").iterator():
        out.write(archive_line({"kind": "row", "table": "tenants.job", "fields": {
            "uid": job.uid, "kind": job.kind, "subject": job.subject, "status": job.status,
            "progress": job.progress, "result": job.result, "error": job.error,
            "actor": job.actor, "attempts": job.attempts,
            "created_at": job.created_at.isoformat(),
            "finished_at": job.finished_at.isoformat() if job.finished_at else None}}))  # fmt: skip
        rows["tenants.job"] += 1
    for event in AuditEvent.objects.filter(tenant=tenant).order_by("pk").iterator():
        out.write(archive_line({"kind": "row", "table": "tenants.auditevent", "fields": {
            "actor": event.actor, "actor_kind": event.actor_kind, "action": event.action,
            "target": event.target, "details": event.details,
            "at": event.at.isoformat()}}))  # fmt: skip
        rows["tenants.auditevent"] += 1
    return rows
