"""The audit trail as the console reads it: filters, and no personal content in what it shows."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.tenants.audit_trail import AuditFilter, audit_actions, audit_events, erasure_requests
from apps.tenants.models import AuditEvent
from apps.tenants.services import audit_record, job_create, job_finish
from tests.conftest import scope_for


def test_filters_by_who_what_and_when(make_tenant):
    tenant, other = make_tenant(), make_tenant()
    ada = scope_for(tenant, actor="user:ada", kind="person")
    bot = scope_for(tenant, actor="key:abc:bot")
    audit_record(ada, action="settings.changed", target="merge_threshold", details={"to": 0.9})
    audit_record(bot, action="review.reject", target="r1", details={"name": "Jane Doe", "n": 2})
    audit_record(scope_for(other), action="key.issued")
    old = audit_record(ada, action="key.revoked", target="key:x")
    AuditEvent.objects.filter(pk=old.pk).update(at=timezone.now() - timedelta(days=2))

    everything = audit_events(tenant=tenant, where=AuditFilter())
    assert [e["action"] for e in everything] == ["review.reject", "settings.changed", "key.revoked"]
    by_ada = audit_events(tenant=tenant, where=AuditFilter(actor="ada"))
    assert {e["actor"] for e in by_ada} == {"user:ada"}
    assert [e["action"] for e in audit_events(tenant=tenant, where=AuditFilter(period="24h"))] == [
        "review.reject", "settings.changed",
    ]  # fmt: skip
    rejects = audit_events(tenant=tenant, where=AuditFilter(action="review.reject"))
    # Another app's details: only numbers are shown, never a name.
    assert rejects[0]["details"] == {"n": "2"}
    assert audit_actions(tenant=tenant) == ["key.revoked", "review.reject", "settings.changed"]


def test_a_filter_from_the_query_is_bounded():
    where = AuditFilter.from_query({"actor": "a" * 500, "period": "forever", "action": " x "})
    assert (len(where.actor), where.period, where.action) == (200, "", "x")


def test_erasure_requests_show_progress_never_whom(tenant):
    scope = scope_for(tenant, actor="user:ada", kind="person")
    from apps.conversations.erasure import JOB_KIND  # the kind the erasure jobs really have

    job = job_create(scope, kind=JOB_KIND, subject="one user", total=3)
    job_finish(job, result={"messages": 3, "sessions": 1, "note": "secret"})
    [row] = erasure_requests(tenant=tenant)
    assert (row["requested_by"], row["scope"], row["status"]) == ("user:ada", "one user", "done")
    assert row["result"] == {"messages": 3, "sessions": 1}


def test_a_job_reads_done_only_with_its_audit_and_never_without(tenant):
    """The cause of a flaky erasure test: a reader saw the job done before its audit event
    existed. The audit and the job's end commit together, the audit first."""
    from apps.tenants.models import Job, JobStatus
    from apps.tenants.services import job_run

    scope = scope_for(tenant)
    job = job_create(scope, kind="erase")
    seen = []

    def details(result):
        # What a reader finds while the audit is being written: the job not done yet.
        seen.append(Job.objects.get(uid=job.uid).status)
        return result

    job_run(job.uid, lambda scope, progress: {"n": 1}, actor="system:test", audit="x.done",
            audit_details=details)  # fmt: skip
    assert seen == [JobStatus.RUNNING]
    assert Job.objects.get(uid=job.uid).status == JobStatus.DONE
    assert AuditEvent.objects.filter(tenant=tenant, action="x.done").count() == 1

    def refused(result):
        raise ValueError("the audit could not be written")

    second = job_create(scope, kind="erase")
    with pytest.raises(ValueError):
        job_run(second.uid, lambda scope, progress: {"n": 1}, actor="system:test",
                audit="y.done", audit_details=refused)  # fmt: skip
    # Neither half: not done, no audit.
    assert Job.objects.get(uid=second.uid).status != JobStatus.DONE
    assert not AuditEvent.objects.filter(tenant=tenant, action="y.done").exists()


def test_details_read_as_text_not_python_reprs():
    from apps.tenants.audit_trail import plain_value

    assert plain_value(["review", "memory:read"]) == "review, memory:read"
    assert plain_value({"from": "admin", "to": "viewer"}) == "from admin; to viewer"
    assert plain_value([]) == "none" and plain_value(True) == "yes" and plain_value(3) == "3"


def test_times_under_a_minute_read_just_now_never_zero_minutes():
    from datetime import UTC, datetime, timedelta

    from apps.tenants.templatetags.human_times import relative

    now = datetime(2026, 12, 2, tzinfo=UTC)
    assert relative(now - timedelta(seconds=50), now) == "just now"
    assert relative(now - timedelta(seconds=61), now) == "1\xa0minute ago"  # timesince's nbsp
