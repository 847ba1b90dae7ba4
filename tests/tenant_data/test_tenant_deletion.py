"""Deleting a whole tenant leaves nothing of it (a scan of every node, relationship and row that
could hold it), leaves every other tenant as it was, and is kept in a site-level record."""

import pytest
from django.test import override_settings

from apps.conversations.services import check_message_append
from apps.graph import cypher
from apps.graph.write_failures import write_failure_record
from apps.ingestion.services import check_facts_submit
from apps.tenant_data.selectors import tenant_scan
from apps.tenant_data.services.tenant_deletion import check_tenant_delete, deletion_run
from apps.tenant_data.services.tenant_export import JOB_KIND, export_run
from apps.tenants.models import JobStatus, Role, Tenant, TenantDeletion
from apps.tenants.services import api_key_issue, audit_record, job_create
from memoryproject.api_errors import ApplicationError, ConflictError
from tests.conftest import scope_for

pytestmark = pytest.mark.django_db

FACTS = [
    {"name": "Ada Lovelace", "type": "Person"},
    {"name": "Analytical Engine", "type": "Object"},
]
RELATION = [{"subject": "Ada Lovelace", "predicate": "PROGRAMMED", "object": "Analytical Engine"}]
# What no service writes: a node with no label and one of a label no code knows, both with the
# tenant, tied by a relationship; the scan and the deletion must find them anyway.
STRAYS = """
CREATE (a {tenant: $tenant, note: 'no label'})-[:STRAY {tenant: $tenant}]->
       (b:UnknownLabel {tenant: $tenant})
"""


def tenant_filled(tenant, make_person) -> None:
    scope = scope_for(tenant)
    check_facts_submit(scope, entities=FACTS, relations=RELATION, source_text="Ada programmed it.")
    check_message_append(scope, user="u1", sid="s1", role="user", text="hello there", by="u1")
    write_failure_record(scope, kind="test", reason="refused for the test")
    cypher.write(scope, STRAYS)
    api_key_issue(tenant=tenant, name="agent")
    make_person(tenant, Role.ADMIN)
    export = job_create(scope, kind=JOB_KIND)
    export_run(job_uid=export.uid)  # an archive on disk, and a job row
    audit_record(scope, action="test.event")


@override_settings(TENANT_DELETE_BATCH=2)  # several batches of every kind
def test_a_deleted_tenant_leaves_nothing_and_others_keep_everything(make_tenant, make_person):
    doomed, kept = make_tenant(), make_tenant()
    tenant_filled(doomed, make_person)
    tenant_filled(kept, make_person)
    before = tenant_scan(tenant_uid=doomed.uid)
    assert before["nodes"]["Entity"] == 2 and before["nodes"][""] == 1
    assert before["relationships"]["STRAY"] == 1 and before["rows"]["tenants.tenantapikey"] == 1
    assert before["files"] == 1
    kept_before = tenant_scan(tenant_uid=kept.uid)

    deletion = check_tenant_delete(actor="user:staff", tenant=doomed, confirm=doomed.slug)
    result = deletion_run(deletion_uid=deletion.uid)

    after = tenant_scan(tenant_uid=doomed.uid)
    assert after["left"] == 0 and not after["nodes"] and not after["relationships"]
    assert after["files"] == 0
    assert all(n == 0 for n in after["rows"].values()), after["rows"]
    assert not Tenant.objects.filter(uid=doomed.uid).exists()
    assert result["nodes"] >= 6 and result["left"] == 0
    record = TenantDeletion.objects.get(uid=deletion.uid)
    assert record.status == JobStatus.DONE and record.scan["left"] == 0
    assert (record.tenant_slug, record.requested_by) == (doomed.slug, "user:staff")
    assert tenant_scan(tenant_uid=kept.uid) == kept_before


def test_a_deletion_needs_the_typed_slug_and_runs_once(tenant):
    with pytest.raises(ApplicationError) as refused:
        check_tenant_delete(actor="user:x", tenant=tenant, confirm="not-the-slug")
    assert refused.value.field == "confirm"
    assert not TenantDeletion.objects.exists()
    check_tenant_delete(actor="user:x", tenant=tenant, confirm=tenant.slug)
    with pytest.raises(ConflictError):
        check_tenant_delete(actor="user:x", tenant=tenant, confirm=tenant.slug)


def test_a_broker_that_is_down_refuses_the_deletion_cleanly(tenant, monkeypatch):
    """The broker is outside the project, so its outage is simulated: the publish raises. The
    deletion is recorded failed with the reason, the tenant is untouched, the answer a 503."""
    from kombu.exceptions import OperationalError

    from apps.tenant_data import tasks

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.tenant_delete, "delay", broker_down)
    with pytest.raises(ApplicationError) as refused:
        check_tenant_delete(actor="user:x", tenant=tenant, confirm=tenant.slug)
    assert refused.value.status == 503 and refused.value.code == "queue_unavailable"
    failed = TenantDeletion.objects.get(tenant_uid=tenant.uid)
    assert failed.status == JobStatus.FAILED and "could not be reached" in failed.error
    assert Tenant.objects.filter(uid=tenant.uid).exists()
