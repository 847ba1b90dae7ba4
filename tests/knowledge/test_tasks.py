"""The promotion ticker on a real Celery worker: beat's task queues a job per due tenant, and the
worker promotes the tenant's hot chains with the job's progress and result."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.knowledge import tasks
from apps.knowledge.selectors import knowledge_graph
from apps.knowledge.ticker import JOB_KIND, knowledge_tenants_due
from apps.tenants.models import Job, JobStatus
from tests.conftest import scope_for, wait_for
from tests.lessons.conftest import say

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_beat_runs_the_ticker_every_minute_and_each_tenant_at_its_interval(make_tenant):
    from memoryproject.celery import app

    entry = app.conf.beat_schedule["knowledge-promotion-ticker"]
    assert entry["task"] == tasks.knowledge_tick.name and entry["schedule"] == 60.0
    default, hourly = make_tenant(), make_tenant(knowledge_promotion_minutes=60)
    assert {t.uid for t in knowledge_tenants_due()} == {default.uid, hourly.uid}
    for tenant in (default, hourly):
        Job.objects.create(tenant=tenant, kind=JOB_KIND)
    later = timezone.now() + timedelta(minutes=31)
    assert knowledge_tenants_due() == []
    assert [t.uid for t in knowledge_tenants_due(now=later)] == [default.uid]


def test_the_ticker_promotes_hot_chains_on_a_real_worker(celery_worker, make_tenant):
    tenant = make_tenant()
    scope = scope_for(tenant)
    for text in ["I use Go and Docker.", "I'm working on Atlas.", "thanks"]:
        say(scope, "ann", text)

    tasks.knowledge_tick.delay()
    job = wait_for(
        lambda: Job.objects.filter(tenant=tenant, kind=JOB_KIND, status=JobStatus.DONE).first(),
        message="the worker did not finish the promotion job",
    )
    assert job.result["promoted"] == 1 and job.progress["done"] == 1
    assert {f["to"] for f in knowledge_graph(scope, user="ann")} == {"go", "docker", "atlas"}
    # Not due again within the tenant's interval.
    assert tenant.uid not in {t.uid for t in knowledge_tenants_due()}
