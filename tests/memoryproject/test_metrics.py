"""GET /metrics: Prometheus text for staff or this host; requests by route, jobs by kind and
state, refused writes by reason, gate decisions by action, query timeouts, round trips."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from prometheus_client.parser import text_string_to_metric_families

from apps.tenants.models import Job


def samples(text: str) -> dict:
    found = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def value(found: dict, name: str, **labels) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_what_the_api_did(client, api_client, tenant):
    before = samples(client.get("/metrics").content.decode())
    api_client.post("/api/v1/facts", {"entities": [{"name": "Ada Lovelace", "type": "Person"}]},
                    format="json")  # fmt: skip
    api_client.get("/api/v1/episodes/nope")
    api_client.post("/api/v1/episodes", {"title": "x" * 5000}, format="json")  # refused
    Job.objects.create(tenant=tenant, kind="ingest")
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    after = samples(answer.content.decode())
    route = {"route": "/api/v1/episodes/<str:uid>", "method": "GET", "status": "404"}
    assert value(after, "anamnesis_http_requests_total", **route) == (
        value(before, "anamnesis_http_requests_total", **route) + 1
    )
    latency = {"route": "/api/v1/episodes/<str:uid>", "method": "GET"}
    assert value(after, "anamnesis_http_request_seconds_count", **latency) >= 1
    assert value(after, "anamnesis_gate_decisions_total", action="created") > value(
        before, "anamnesis_gate_decisions_total", action="created"
    )
    refused = {k: v for k, v in after.items() if k[0] == "anamnesis_refused_writes_total"}
    assert sum(refused.values()) > sum(
        v for k, v in before.items() if k[0] == "anamnesis_refused_writes_total"
    )
    assert value(after, "anamnesis_jobs", kind="ingest", state="queued") >= 1
    assert value(after, "anamnesis_queue_depth") >= 1
    assert value(after, "anamnesis_graph_round_trips_total") > value(
        before, "anamnesis_graph_round_trips_total"
    )


def test_metrics_are_for_staff_or_this_host(client, db):
    far = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert far.status_code == 403 and far.json()["error"]["code"] == "permission_denied"
    staff = get_user_model().objects.create_user("ops", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 200


pytestmark = pytest.mark.django_db
