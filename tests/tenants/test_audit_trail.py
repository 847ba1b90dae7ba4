"""The audit trail as the console reads it: filters, and no personal content in what it shows."""

from datetime import timedelta

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
    assert rejects[0]["details"] == {"n": 2}
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
