"""The promotion ticker and the promotion API with the broker down: the outage is simulated (the
broker is outside the project: its publish raises). The caller is refused with a 503, the job is
recorded failed with the reason, and the tenant is due again at the next tick."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from apps.knowledge import tasks
from apps.knowledge.ticker import JOB_KIND, knowledge_tenants_due, knowledge_tick
from apps.tenants.models import Job, JobStatus

pytestmark = pytest.mark.django_db


# Tenants that other tests of the session keep (session fixtures) are due too: each test looks at
# its own tenants only.
def due_among(uids):
    return {t.uid for t in knowledge_tenants_due()} & set(uids)


@pytest.fixture
def broker_down(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.knowledge_promote, "delay", refuse)
    return monkeypatch


def test_a_promotion_asked_with_the_broker_down_is_a_503(tenant, api_client, broker_down):
    refused = api_client.post("/api/v1/knowledge/promotions")
    assert refused.status_code == 503
    error = refused.json()["error"]
    assert error["code"] == "queue_unavailable" and "nothing was done" in error["message"]
    job = Job.objects.get(uid=error["job"])
    assert job.status == JobStatus.FAILED and "work queue could not be reached" in job.error
    assert due_among([tenant.uid]) == {tenant.uid}


def test_the_tick_with_the_broker_down_leaves_every_tenant_due(make_tenant, broker_down):
    tenants = {make_tenant().uid, make_tenant().uid}
    failed = Job.objects.filter(kind=JOB_KIND, status=JobStatus.FAILED)
    before = failed.count()  # other tests' tenants may be due too: count what this tick adds
    assert knowledge_tick() == []
    # It stopped at the first refusal: one job recorded failed, and nobody waits an interval.
    assert failed.count() == before + 1
    assert due_among(tenants) == tenants


def test_the_tick_once_the_broker_is_back(make_tenant, broker_down):
    tenant = make_tenant()
    assert knowledge_tick() == []
    broker_down.undo()  # the real (test) broker again
    queued = knowledge_tick()
    [job] = Job.objects.filter(uid__in=queued, tenant=tenant)
    assert job.status == JobStatus.QUEUED
    assert due_among([tenant.uid]) == set()
