"""Agent API of kinds and rows: declare kinds, write rows by the write rule, update partly."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from apps.tenants.services import QUEUE_DOWN
from apps.timeline import kinds as kind_services
from apps.timeline.entry_rows import rows_from_entries_queue
from apps.timeline.rows import MAX_KEY_CHARS, MAX_ROWS
from apps.timeline.services import check_row_update, check_rows_write
from memoryproject.api_errors import StrictSerializer
from memoryproject.api_schema import ErrorOut
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import KeyedDictField, validated


class RelationIn(StrictSerializer):
    target = serializers.CharField(help_text="the kind it points at", max_length=40)
    one = serializers.BooleanField(
        help_text="at most one at a time (default false)", required=False, default=False
    )


class KindIn(StrictSerializer):
    name = serializers.CharField(help_text="the kind's name, e.g. Device", max_length=40)
    key = serializers.CharField(help_text="the value that names a row of the kind", max_length=40)
    type = serializers.CharField(
        help_text="its POLE+O type (default Object)",
        max_length=20,
        required=False,
        default="Object",
    )
    values = KeyedDictField(
        child=serializers.ChoiceField(choices=kind_services.VALUE_TYPES), required=False,
        max_keys=kind_services.MAX_VALUES, key_chars=kind_services.MAX_NAME_CHARS,
        help_text="its values: name -> type",
    )  # fmt: skip
    relations = KeyedDictField(
        child=RelationIn(), required=False, max_keys=kind_services.MAX_RELATIONS,
        key_chars=kind_services.MAX_NAME_CHARS, help_text="its relations: NAME -> {target, one}",
    )  # fmt: skip
    embed = serializers.ListField(child=serializers.CharField(max_length=40), required=False,
                                  max_length=kind_services.MAX_VALUES,
                                  help_text="text values whose text is embedded (nearest)")  # fmt: skip


class KindOut(serializers.Serializer):
    kind = serializers.DictField()
    status = serializers.CharField()


class KindsOut(serializers.Serializer):
    results = serializers.ListField(child=serializers.DictField(), help_text="kind specs")


class KindsApi(RecordsRefusals, APIView):
    refusal_kind = "kind"

    @property
    def required_scope(self) -> str:
        method = getattr(getattr(self, "request", None), "method", "POST")
        return KeyScope.MEMORY_READ if method in SAFE_METHODS else KeyScope.ADMIN

    @extend_schema(request=KindIn, responses={201: KindOut, 200: KindOut},
                   summary="Declare a kind (admin; 200 when it changes one declared before)")  # fmt: skip
    def post(self, request):
        data = validated(request, KindIn)
        receipt = kind_services.check_kind_declare(request.auth, kind=data)
        return Response(receipt, status=201 if receipt["status"] == "declared" else 200)

    @extend_schema(responses=KindsOut, summary="The tenant's kinds")
    def get(self, request):
        return Response({"results": kind_services.kinds_list(request.auth)})


class RowsIn(StrictSerializer):
    rows = serializers.ListField(
        help_text="rows: kind, key, t, values, relations (docs/reference/timeline.md)",
        child=serializers.DictField(),
        min_length=1,
        max_length=MAX_ROWS,
    )


class ReceiptOut(serializers.Serializer):
    index = serializers.IntegerField()
    kind = serializers.CharField()
    key = serializers.CharField()
    t = serializers.CharField()
    status = serializers.ChoiceField(choices=["created", "changed", "unchanged", "refused"])
    reason = serializers.CharField(required=False)
    state = serializers.CharField(required=False)


class ReceiptsOut(serializers.Serializer):
    receipts = ReceiptOut(many=True)


class RowsApi(RecordsRefusals, APIView):
    refusal_kind = "row"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=RowsIn, responses=ReceiptsOut,
                   summary="Write rows by the write rule (one transaction per batch)")  # fmt: skip
    def post(self, request):
        data = validated(request, RowsIn)
        return Response({"receipts": check_rows_write(request.auth, rows=data["rows"])})


class RowUpdateIn(StrictSerializer):
    t = serializers.CharField(
        help_text="when the change holds (ISO 8601 with a zone)", max_length=40
    )
    values = serializers.DictField(
        help_text="the values that change: name -> value", required=False
    )
    relations = serializers.DictField(
        help_text="the relations that change: NAME -> key(s)", required=False
    )
    entry = serializers.CharField(
        help_text="the episode entry (uid) it comes from", required=False, max_length=64
    )


class RowUpdateApi(RecordsRefusals, APIView):
    refusal_kind = "row"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=RowUpdateIn, responses=ReceiptOut,
                   summary="Change some values or relations from t on; keep the rest")  # fmt: skip
    def patch(self, request, kind: str, key: str):
        data = validated(request, RowUpdateIn)
        receipt = check_row_update(request.auth, kind=kind[:40], key=key[:MAX_KEY_CHARS], **data)
        return Response(receipt)


class RowsFromEntriesIn(StrictSerializer):
    types = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        min_length=1,
        max_length=20,
        help_text="entry types to read (every type when left out); a run of its own mark",
    )


class RowsFromEntriesApi(RecordsRefusals, APIView):
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(
        request=RowsFromEntriesIn,
        responses={202: JobAcceptedOut, 404: OpenApiResponse(ErrorOut, description="no such kind"),
                   503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN)},
        summary="Queue a job that reads rows of this kind from the text of episode entries",
    )  # fmt: skip
    def post(self, request, kind: str):
        data = validated(request, RowsFromEntriesIn)
        job = rows_from_entries_queue(request.auth, kind=kind[:40], types=data.get("types"))
        return job_accepted(job)
