"""A tenant's usage: memory counts and job states, scoped to the tenant."""

from apps.tenants.models import JobStatus
from apps.tenants.services import api_key_issue, job_create, job_finish
from apps.tenants.usage import tenant_usage
from tests.conftest import scope_for


def test_counts_jobs_by_state_and_lists_failures(make_tenant):
    tenant, other = make_tenant(), make_tenant()
    scope = scope_for(tenant)
    job_create(scope, kind="ingest_document")
    job_finish(job_create(scope, kind="ingest_document"), error="LookupError")
    job_finish(job_create(scope, kind="ingest_document"), result={"ok": 1})
    job_finish(job_create(scope_for(other), kind="x"), error="elsewhere")
    api_key_issue(tenant=tenant, name="k")
    usage = tenant_usage(scope, tenant=tenant)
    assert usage["jobs"] == {JobStatus.QUEUED: 1, JobStatus.RUNNING: 0, JobStatus.DONE: 1,
                             JobStatus.FAILED: 1}  # fmt: skip
    assert usage["jobs_failed_today"] == 1 and [j.error for j in usage["failed"]] == ["LookupError"]
    assert usage["memory"]["documents"] == 0 and usage["active_keys"] == 1
