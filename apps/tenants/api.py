"""Agent API of the foundation: health, the tenant's stats, and job progress."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.graph.embeddings import get_embedder
from apps.graph.schema import graph_health
from apps.tenants import selectors
from apps.tenants.auth import ANY_KEY
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError


class ServiceOut(serializers.Serializer):
    name = serializers.CharField()
    api = serializers.CharField()


class Neo4jOut(serializers.Serializer):
    connected = serializers.BooleanField()
    # Only an admin key sees what runs where; a failed check names the failure's class.
    version = serializers.CharField(required=False)
    edition = serializers.CharField(required=False)
    gds = serializers.CharField(required=False, allow_null=True)
    error = serializers.CharField(required=False)


class BrokerOut(serializers.Serializer):
    connected = serializers.BooleanField()
    transport = serializers.CharField()
    error = serializers.CharField(required=False)


class EmbeddingOut(serializers.Serializer):
    model = serializers.CharField()
    dimensions = serializers.IntegerField()
    loaded = serializers.BooleanField()


class HealthOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    service = ServiceOut()
    neo4j = Neo4jOut()
    broker = BrokerOut()
    embedding = EmbeddingOut()


class HealthApi(APIView):
    required_scope = ANY_KEY

    @extend_schema(responses={200: HealthOut, 503: HealthOut},
                   summary="Health of the service and what it depends on (503: degraded)")  # fmt: skip
    def get(self, request):
        embedder = get_embedder()
        neo4j = graph_health()
        if not request.auth.allows(KeyScope.ADMIN):
            # What runs where (edition, versions) helps an attacker; only admin keys see it.
            neo4j = {"connected": neo4j["connected"]}
        broker = _broker_health()
        body = {
            "status": "ok" if neo4j["connected"] and broker["connected"] else "degraded",
            "service": {"name": "anamnesis", "api": "v1"},
            "neo4j": neo4j,
            "broker": broker,
            "embedding": {
                "model": embedder.name,
                "dimensions": embedder.dimensions,
                "loaded": bool(getattr(embedder, "loaded", True)),
            },
        }
        return Response(body, status=200 if body["status"] == "ok" else 503)


def _broker_health() -> dict:
    from memoryproject.celery import app

    url = settings.CELERY_BROKER_URL
    transport = url.split(":", 1)[0]
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"connected": True, "transport": transport}
    except Exception as exc:  # noqa: BLE001 - health reports any failure
        return {"connected": False, "transport": transport, "error": type(exc).__name__}


class StatsOut(serializers.Serializer):
    documents = serializers.IntegerField()
    chunks = serializers.IntegerField()
    entities = serializers.IntegerField()
    relations = serializers.IntegerField()
    conversations = serializers.IntegerField()
    messages = serializers.IntegerField()
    traces = serializers.IntegerField(help_text="reasoning traces: what each retrieval touched")
    pending_reviews = serializers.IntegerField()
    episodes = serializers.IntegerField()
    lessons = serializers.IntegerField()
    playbooks = serializers.IntegerField()
    graph_stamp = serializers.CharField(
        allow_null=True, help_text="the graph's stamp: another one is another graph (or the "
        "same one after a write that deleted)")  # fmt: skip
    read_at = serializers.DateTimeField()


class StatsApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses=StatsOut, summary="Counts of the caller's tenant's memory")
    def get(self, request):
        return Response(selectors.tenant_stats(request.auth))


class JobOut(serializers.Serializer):
    uid = serializers.CharField()
    kind = serializers.CharField()
    subject = serializers.CharField()
    status = serializers.CharField()
    # Counters and results differ by kind of job (an ingestion's chunks, an export's counts).
    progress = serializers.DictField()
    result = serializers.DictField()
    error = serializers.CharField()
    attempts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class JobAcceptedOut(serializers.Serializer):
    """The one answer (202) of every operation that queues a job."""

    job = serializers.CharField()
    url = serializers.CharField(help_text="the job: status, progress and result")
    status = serializers.CharField()
    progress = serializers.DictField()


def job_accepted(job) -> Response:
    """202 with the queued job, its URL and where it stands."""
    url = reverse("api-job", kwargs={"uid": job.uid})
    body = {"job": job.uid, "url": url, "status": job.status, "progress": job.progress or {}}
    return Response(JobAcceptedOut(body).data, status=202)


class JobDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses=JobOut, summary="Status, progress and result of a background job")
    def get(self, request, uid: str):
        job = selectors.job_get(request.auth, uid=uid)
        if job is None:
            raise NotFoundError("No such job.")
        return Response(JobOut(job).data)
