"""A tenant's usage: memory counts and job states, scoped to the tenant."""

import re

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


def test_samples_are_kept_once_an_hour_per_tenant_and_pruned(make_tenant):
    from datetime import UTC, datetime, timedelta

    from apps.conversations.services import check_message_append
    from apps.tenants.models import UsageSample
    from apps.tenants.usage import USAGE_KEEP_DAYS, usage_history, usage_samples_record

    tenant, other = make_tenant(), make_tenant()
    scope = scope_for(tenant)
    start = datetime(2026, 3, 1, 9, 5, tzinfo=UTC)
    job_finish(job_create(scope, kind="ingest_document"), error="LookupError")
    assert usage_samples_record(now=start) >= 2  # every tenant, others' too
    check_message_append(scope, user="u", sid="s", role="user", text="hello", by="u")
    usage_samples_record(now=start + timedelta(minutes=40))  # the same hour: replaced
    usage_samples_record(now=start + timedelta(hours=1))

    history = usage_history(tenant=tenant)
    assert [s.hour for s in history] == [start.replace(minute=0) + timedelta(hours=h)
                                         for h in (1, 0)]  # fmt: skip
    assert [(s.messages, s.jobs_failed, s.documents) for s in history] == [(1, 1, 0), (1, 1, 0)]
    assert [s.messages for s in usage_history(tenant=other)] == [0, 0]

    usage_samples_record(now=start + timedelta(days=USAGE_KEEP_DAYS, hours=2))
    assert not UsageSample.objects.filter(tenant=tenant, hour__lt=start + timedelta(hours=2))


def test_beat_samples_usage_on_a_schedule():
    from apps.tenants import tasks
    from memoryproject.celery import app

    entry = app.conf.beat_schedule["tenants-usage-sample"]
    assert entry["task"] == tasks.usage_sample.name and entry["schedule"] <= 3600


def test_the_usage_page_plots_ingestion_per_day_and_reads_counts_when_there_is_data(
    tenant, make_person
):
    from django.test import Client
    from django.utils import timezone

    from apps.ingestion.services import check_facts_submit
    from apps.tenants.models import Job, JobStatus, Role, UsageSample
    from tests.conftest import scope_for

    now = timezone.now()
    for status in (JobStatus.DONE, JobStatus.DONE, JobStatus.FAILED):
        Job.objects.create(tenant=tenant, kind="document_ingest", status=status, finished_at=now)
    check_facts_submit(
        scope_for(tenant), entities=[{"name": "Ada Lovelace", "type": "Person"}], relations=[]
    )
    admin = make_person(tenant, Role.ADMIN)
    client = Client()
    client.login(username=admin.username, password=admin.raw_password)
    html = client.get(f"/console/{tenant.slug}/").content.decode()
    figure = html.split('id="ingest-throughput"', 1)[1].split("</figure>", 1)[0]
    ingested = re.findall(r'data-series="ingested" data-value="(\d+)"', figure)
    failed = re.findall(r'data-series="failed" data-value="(\d+)"', figure)
    assert len(ingested) == 14 and ingested[-1] == "2" and failed[-1] == "1"
    assert 'id="usage-history-empty"' not in html  # the counts are read now, not "no reading"
    assert UsageSample.objects.filter(tenant=tenant).count() == 1
