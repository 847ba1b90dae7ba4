"""`GET /metrics`: the process's metrics in the Prometheus text format, for the site's admins
(a staff login) or a scraper on the same host; anyone else gets a 403. Jobs by kind and state and
the queue's depth are read from the job rows when it is asked, so they hold for every worker."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from prometheus_client.core import GaugeMetricFamily

from apps.tenants.models import Job, JobStatus
from apps.tenants.throttles import client_address
from memoryproject.api_errors import error_body

LOCAL = {"127.0.0.1", "::1"}


class JobsCollector:
    def describe(self):
        # Without it the registry would call collect() (a database query) when registering.
        yield GaugeMetricFamily(
            "anamnesis_jobs", "Jobs by kind and state", labels=["kind", "state"]
        )
        yield GaugeMetricFamily("anamnesis_queue_depth", "Jobs queued and not yet started")

    def collect(self):
        jobs = GaugeMetricFamily(
            "anamnesis_jobs", "Jobs by kind and state", labels=["kind", "state"]
        )
        queued = 0
        rows = Job.objects.values("kind", "status").annotate(n=Count("id")).order_by()
        for row in rows:
            jobs.add_metric([row["kind"], row["status"]], row["n"])
            if row["status"] == JobStatus.QUEUED:
                queued += row["n"]
        yield jobs
        yield GaugeMetricFamily("anamnesis_queue_depth", "Jobs queued and not yet started",
                                value=queued)  # fmt: skip


_collector = JobsCollector()
REGISTRY.register(_collector)


@require_GET
def metrics(request):
    user = getattr(request, "user", None)
    if not (client_address(request) in LOCAL or (user and user.is_active and user.is_staff)):
        body = error_body("permission_denied", "Metrics are for the site's admins or this host.")
        return JsonResponse(body, status=403)
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
