"""A tenant exported to an archive and imported into an empty tenant comes back whole: the same
nodes by label, relationships by type and relational rows, with new uids and working vectors;
an import into a tenant with data is refused."""

import gzip
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.conversations.services import check_message_append
from apps.graph import cypher
from apps.tenant_data.selectors import tenant_scan
from apps.tenant_data.services.demo_data import demo_data_fill
from apps.tenant_data.services.tenant_archive import archive_records
from apps.tenant_data.services.tenant_export import check_export_start, export_archive
from apps.tenant_data.services.tenant_import import check_import_start
from apps.tenants.models import AuditEvent, Job, JobStatus, Membership, Role
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for, wait_for

UIDS = "MATCH (n) WHERE n.tenant = $tenant AND n.uid IS NOT NULL RETURN collect(n.uid) AS uids"
WAITING = (
    "RETURN COUNT { MATCH (m:MessageToEmbed {tenant: $tenant}) } + "
    "COUNT { MATCH (e:EntryToEmbed {tenant: $tenant}) } AS n"
)
VECTOR_HITS = """
MATCH (c:Chunk {tenant: $tenant}) WITH c LIMIT 1
CALL db.index.vector.queryNodes('chunk_embedding', 50, c.embedding) YIELD node
WHERE node.tenant = $tenant RETURN count(node) AS n, size(c.embedding) AS dims
"""


def job_done(uid: str) -> Job:
    def finished():
        job = Job.objects.get(uid=uid)
        return job if job.status in (JobStatus.DONE, JobStatus.FAILED) else None

    job = wait_for(finished, timeout=300, message=f"job {uid} did not finish")
    assert job.status == JobStatus.DONE, job.error
    return job


@pytest.mark.worker
@pytest.mark.slow
def test_an_export_imported_into_an_empty_tenant_gives_the_same_counts(
    make_tenant, make_person, celery_worker
):
    source, target = make_tenant(), make_tenant()
    make_person(source, Role.REVIEWER)
    # The admin of both imports: the source's members are theirs to carry (import_rows.py).
    admin = make_person(source, Role.ADMIN)
    Membership.objects.create(user=admin, tenant=target, role=Role.ADMIN)
    assert demo_data_fill(tenant=source)["filled"]
    source_scope = scope_for(source)
    # The worker embeds the demo's messages and entries meanwhile: export a settled tenant, or
    # the archive keeps one waiting (its label) that the source has embedded by the time it is
    # counted.
    wait_for(lambda: cypher.read(source_scope, WAITING)[0]["n"] == 0, timeout=300,
             message="the demo's messages and entries were not embedded")  # fmt: skip
    export = job_done(check_export_start(source_scope).uid)
    path = export_archive(source_scope, job_uid=export.uid)
    footer = list(archive_records(path))[-1]
    before = tenant_scan(tenant_uid=source.uid)
    assert before["nodes"]["Entity"] >= 8 and before["relationships"]["SAME_AS"] >= 1
    assert export.result["node"] == footer["counts"]["node"] > 0

    upload = SimpleUploadedFile("a.ndjson.gz", Path(path).read_bytes())
    as_admin = scope_for(target, actor=f"user:{admin.username}", kind="person")
    imported = job_done(check_import_start(as_admin, upload=upload).uid)
    after = tenant_scan(tenant_uid=target.uid)
    # The graph version is a counter spread over shards each write picks at random
    # (apps/graph/graph_version.py): the import's own writes may add a shard node. Everything else is the same.
    assert after["nodes"].pop("GraphVersion", 0) >= before["nodes"].pop("GraphVersion", 0)
    assert after["nodes"] == before["nodes"]
    assert after["relationships"] == before["relationships"]
    rows = footer["rows_by_table"]
    assert after["rows"]["tenants.membership"] == rows["tenants.membership"] == 2
    assert imported.result["memberships_not_granted"] == []
    assert after["rows"]["tenants.job"] == rows["tenants.job"] + 1  # and the import's own
    own = AuditEvent.objects.filter(tenant=target, action__startswith="tenant.import").count()
    assert after["rows"]["tenants.auditevent"] == rows["tenants.auditevent"] + own
    assert imported.result["nodes"] == footer["counts"]["node"]

    # New uids, the same vectors: the imported chunks are found by meaning in the target only.
    target_scope = scope_for(target)
    old = set(cypher.read(source_scope, UIDS)[0]["uids"])
    new = set(cypher.read(target_scope, UIDS)[0]["uids"])
    assert len(new) == len(old) and not old & new
    hits = cypher.read(target_scope, VECTOR_HITS)[0]
    assert hits["n"] >= 1 and hits["dims"] == 384
    assert not cypher.read(target_scope, "MATCH (n {tenant: $tenant}) "
                           "WHERE n._import_job IS NOT NULL RETURN n LIMIT 1")  # fmt: skip


def test_an_import_into_a_tenant_with_data_is_refused(tenant, scope):
    check_message_append(scope, user="u", sid="s", role="user", text="mine", by="u")
    upload = SimpleUploadedFile("a.ndjson.gz", gzip.compress(b"{}\n"))
    with pytest.raises(ConflictError):
        check_import_start(scope, upload=upload)
    assert not Job.objects.filter(tenant=tenant).exists()


def test_a_broker_that_is_down_refuses_export_and_import_cleanly(make_tenant, monkeypatch):
    """The broker's outage is simulated (the publish raises): each job is recorded failed with
    the reason, the uploaded archive is not kept, the caller gets a 503."""
    from kombu.exceptions import OperationalError

    from apps.tenant_data import tasks
    from apps.tenant_data.services.tenant_import import import_path

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.tenant_export, "delay", broker_down)
    monkeypatch.setattr(tasks.tenant_import, "delay", broker_down)
    upload = SimpleUploadedFile("a.ndjson.gz", gzip.compress(b"{}\n"))
    exporter, importer = make_tenant(), make_tenant()  # a failed job makes a tenant non-empty
    starts = (lambda: check_export_start(scope_for(exporter)),
              lambda: check_import_start(scope_for(importer), upload=upload))  # fmt: skip
    for start in starts:
        with pytest.raises(ApplicationError) as refused:
            start()
        assert refused.value.status == 503 and refused.value.code == "queue_unavailable"
    jobs = list(Job.objects.filter(tenant__in=[exporter, importer]))
    assert [job.status for job in jobs] == [JobStatus.FAILED, JobStatus.FAILED]
    assert all("could not be reached" in job.error for job in jobs)
    assert not import_path(jobs[0].uid, tenant_uid=importer.uid).exists()
    assert not import_path(jobs[1].uid, tenant_uid=importer.uid).exists()
