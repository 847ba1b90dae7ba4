"""Agent API of ingestion: documents (queued, or inline with ?wait=true) and structured facts."""

from __future__ import annotations

from dataclasses import replace

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.graph.nodes import ENTITY_TYPES
from apps.ingestion import selectors, services
from apps.ingestion.document_deletion import check_document_delete
from apps.ingestion.filters import DocumentListQuery
from apps.ingestion.services import (
    MAX_METADATA_BYTES,
    MAX_SOURCE_CHARS,
    MAX_TITLE_CHARS,
    MAX_URL_CHARS,
)
from apps.tenants.models import KeyScope
from apps.tenants.services import QUEUE_DOWN
from apps.timeline.document_dates import DocumentDateField
from memoryproject.api_errors import ApplicationError, NotFoundError, StrictSerializer
from memoryproject.api_schema import ErrorOut
from memoryproject.json_values import FREE_FORM, validate_json_object
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_UID_CHARS, query_params, validated

MAX_NAME_CHARS = 200
MAX_DESCRIPTION_CHARS = 2000
MAX_ALIASES = 20
MAX_PREDICATE_CHARS = 100
MAX_NUANCE_CHARS = 500
METADATA_LIMITS = replace(FREE_FORM, total_bytes=MAX_METADATA_BYTES)


class TextField(serializers.CharField):
    """A string and nothing else: DRF's CharField would turn 42 into "42"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class DocumentIn(StrictSerializer):
    content = TextField(trim_whitespace=False, allow_blank=True)
    source = TextField(max_length=MAX_SOURCE_CHARS)
    title = serializers.CharField(max_length=MAX_TITLE_CHARS, required=False, allow_blank=True)
    url = serializers.URLField(max_length=MAX_URL_CHARS, required=False, allow_blank=True)
    metadata = serializers.DictField(required=False)
    date = DocumentDateField(
        help_text="When what it says was true (YYYY-MM-DD, or ISO 8601 with a time zone; not "
        "after now): the relations extracted from it hold from then.",
    )

    def validate_metadata(self, value):
        return validate_json_object(value, field="metadata", limits=METADATA_LIMITS)


class DocumentOut(serializers.Serializer):
    document = serializers.CharField()
    status = serializers.CharField()
    job = serializers.CharField(allow_null=True)
    job_url = serializers.CharField(required=False)
    result = serializers.DictField(required=False)
    receipts = serializers.ListField(child=serializers.DictField(), required=False)


class JobStateOut(serializers.Serializer):
    uid = serializers.CharField()
    status = serializers.CharField()


class DocumentRowOut(serializers.Serializer):
    uid = serializers.CharField()
    title = serializers.CharField(allow_null=True)
    source = serializers.CharField()
    url = serializers.CharField(allow_null=True)
    agent = serializers.CharField(allow_null=True)
    created = serializers.DateTimeField(allow_null=True)
    chunks = serializers.IntegerField()
    deleting = serializers.BooleanField()
    job = JobStateOut(allow_null=True)


class DocumentListOut(serializers.Serializer):
    total = serializers.IntegerField()
    offset = serializers.IntegerField()
    limit = serializers.IntegerField()
    next_offset = serializers.IntegerField(allow_null=True)
    results = DocumentRowOut(many=True)


class DocumentsApi(RecordsRefusals, APIView):
    """GET lists (read scope); POST stores (write scope)."""

    @property
    def required_scope(self) -> str:
        method = getattr(getattr(self, "request", None), "method", "POST")
        return KeyScope.MEMORY_READ if method in SAFE_METHODS else KeyScope.MEMORY_WRITE

    @extend_schema(
        parameters=[DocumentListQuery],
        responses={200: DocumentListOut, 400: ErrorOut},
        summary="The tenant's documents, newest first, filtered and paged",
    )
    def get(self, request):
        query = validated(request, DocumentListQuery, data=query_params(request))
        return Response(DocumentListOut(selectors.documents_list(request.auth, **query)).data)

    @extend_schema(
        request=DocumentIn,
        responses={
            202: DocumentOut,
            200: DocumentOut,
            201: DocumentOut,
            503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN),
        },  # fmt: skip
        parameters=[OpenApiParameter("wait", bool, description="ingest a small document inline")],
        summary="Store a document and ingest it (queued; inline with ?wait=true)",
    )
    def post(self, request):
        data = DocumentIn(data=request.data)
        data.is_valid(raise_exception=True)
        wait = request.query_params.get("wait", "").lower() in ("1", "true", "yes")
        body = services.check_document_submit(request.auth, wait=wait, **data.validated_data)
        if body["job"]:
            body["job_url"] = f"/api/v1/jobs/{body['job']}"
        status = 200 if body["status"] == "duplicate" else (201 if wait else 202)
        return Response(DocumentOut(body).data, status=status)


class EntityFactIn(StrictSerializer):
    name = TextField(max_length=MAX_NAME_CHARS)
    # Checked against POLE+O by the service, so the error names entities[i].type.
    type = serializers.CharField(max_length=40, help_text=", ".join(ENTITY_TYPES))
    aliases = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NAME_CHARS), max_length=MAX_ALIASES,
        required=False, default=list,
    )  # fmt: skip
    description = serializers.CharField(
        max_length=MAX_DESCRIPTION_CHARS, required=False, allow_blank=True, default=""
    )
    # Scalars only, within limits: checked by the service so the error names entities[i].values.
    values = serializers.DictField(required=False, default=dict)


class RelationFactIn(StrictSerializer):
    subject = TextField(max_length=MAX_NAME_CHARS)
    predicate = TextField(max_length=MAX_PREDICATE_CHARS)
    object = TextField(max_length=MAX_NAME_CHARS)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0, required=False, default=1.0)
    nuance = serializers.CharField(
        max_length=MAX_NUANCE_CHARS, required=False, allow_blank=True, default=""
    )
    valid_from = DocumentDateField(
        help_text="When the relation became true (YYYY-MM-DD, or ISO 8601 with a time zone; not "
        "after now); else when it is stored.",
    )


class FactsIn(StrictSerializer):
    entities = serializers.ListField(child=EntityFactIn(), allow_empty=False)
    relations = serializers.ListField(child=RelationFactIn(), required=False, default=list)
    source_text = TextField(required=False, allow_blank=True, default="", trim_whitespace=False)

    def validate(self, attrs):
        limit = settings.TENANT_DEFAULTS["max_facts_per_request"]
        scope = self.context.get("scope")
        limit = scope.setting("max_facts_per_request") if scope else limit
        if len(attrs["entities"]) + len(attrs["relations"]) > limit:
            raise ApplicationError(
                f"At most {limit} entities and relations per request.",
                field="entities", limit=limit, code="too_many",
            )  # fmt: skip
        return attrs


class FactsOut(serializers.Serializer):
    document = serializers.CharField(allow_null=True)
    receipts = serializers.ListField(child=serializers.DictField())
    # Pending pairs of the entities named again that new evidence now merged (collective).
    collective_merges = serializers.ListField(child=serializers.DictField(), required=False)


class FactsCreateApi(RecordsRefusals, APIView):
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(
        request=FactsIn, responses={201: FactsOut}, summary="Send structured entities and relations"
    )
    def post(self, request):
        data = FactsIn(data=request.data, context={"scope": request.auth})
        data.is_valid(raise_exception=True)
        body = services.check_facts_submit(request.auth, **data.validated_data)
        return Response(FactsOut(body).data, status=201)


class DocumentDetailOut(serializers.Serializer):
    uid = serializers.CharField()
    title = serializers.CharField(allow_null=True)
    source = serializers.CharField()
    url = serializers.CharField(allow_null=True)
    agent = serializers.CharField(allow_null=True)
    created = serializers.DateTimeField(allow_null=True)
    date = serializers.DateTimeField(allow_null=True)
    metadata = serializers.DictField()
    content = serializers.CharField()
    deleting = serializers.BooleanField()
    chunks = serializers.ListField(child=serializers.DictField(),
                                   help_text="uid, position, section_path, start, end, text")  # fmt: skip
    entities = serializers.ListField(child=serializers.DictField(),
                                     help_text="uid, name, type, mentions")  # fmt: skip
    mentions = serializers.ListField(child=serializers.DictField())
    relations = serializers.ListField(
        child=serializers.DictField(),
        help_text="uid, subject, predicate, object, weight, observed_here, observed_elsewhere",
    )
    arguments = serializers.ListField(
        child=serializers.DictField(),
        help_text="claims, premises and assumptions it states, in reading order: uid, kind, "
        "text, chunk_uid, position, start, end, agent, about (entities: uid, name, type)",
    )
    job = serializers.DictField(allow_null=True)


class DeletionOut(serializers.Serializer):
    document = serializers.CharField()
    job = serializers.CharField()
    job_url = serializers.CharField()
    status = serializers.CharField()


class DocumentDetailApi(RecordsRefusals, APIView):
    """GET reads (read scope); DELETE queues its deletion (write scope)."""

    @property
    def required_scope(self) -> str:
        method = getattr(getattr(self, "request", None), "method", "DELETE")
        return KeyScope.MEMORY_READ if method in SAFE_METHODS else KeyScope.MEMORY_WRITE

    @extend_schema(responses={200: DocumentDetailOut, 404: ErrorOut},
                   summary="A document: text, chunks, entities named, relations, job")  # fmt: skip
    def get(self, request, uid: str):
        found = selectors.document_detail(request.auth, uid=uid[:MAX_UID_CHARS])
        if found is None:
            raise NotFoundError("No such document.", field="uid")
        return Response(DocumentDetailOut(found).data)

    @extend_schema(
        request=None,
        responses={202: DeletionOut, 404: ErrorOut,
                   503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN)},
        summary="Delete a document and what only it taught (a job)",
    )  # fmt: skip
    def delete(self, request, uid: str):
        job = check_document_delete(request.auth, uid=uid)
        body = {"document": job.subject, "job": job.uid, "job_url": f"/api/v1/jobs/{job.uid}",
                "status": job.status}  # fmt: skip
        return Response(DeletionOut(body).data, status=202)
