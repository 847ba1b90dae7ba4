"""Agent API of suspect merges (suspect_merges): list them, read one with its weights then and
now, keep or undo one, queue the re-scoring job. Keys need the 'review' scope."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.resolution import auto_merges
from apps.review import services, suspect_merges
from apps.review.api import UID_PATH, ReviewDecisionApi
from apps.review.tenant_reresolution import tenant_reresolve_queue
from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_UID_CHARS, query_params

MAX_LIMIT = 200


class SuspectListIn(StrictSerializer):
    offset = serializers.IntegerField(required=False, min_value=0, max_value=100_000, default=0)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=50)


class SuspectRow(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(help_text="the name the merged mention bore")
    type = serializers.CharField()
    entity_uid = serializers.CharField(allow_null=True, help_text="the entity it was merged into")
    entity_name = serializers.CharField(allow_null=True)
    probability = serializers.FloatField(help_text="P(same) when the gate merged it")
    rescored_probability = serializers.FloatField(help_text="P(same) under the current model")
    merged_at = serializers.CharField()


class SuspectListOut(serializers.Serializer):
    suspect = serializers.IntegerField(help_text="all suspect merges of the tenant")
    results = SuspectRow(many=True)


class SuspectListApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=[SuspectListIn], responses=SuspectListOut,
                   summary="Suspect merges: automatic merges the current model doubts")  # fmt: skip
    def get(self, request):
        data = SuspectListIn(data=query_params(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        queue = suspect_merges.suspect_queue(request.auth, offset=v["offset"], limit=v["limit"])
        return Response(SuspectListOut(queue).data)


class EvidenceRow(serializers.Serializer):
    comparison = serializers.CharField()
    weight = serializers.FloatField(help_text="log2(m/u), bits")
    words = serializers.CharField()
    detail = serializers.CharField(allow_blank=True)
    direction = serializers.CharField(allow_blank=True)


class ValueRow(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.JSONField()
    conflicts = serializers.ListField(child=serializers.JSONField())


class SuspectMention(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField(allow_blank=True)
    values = ValueRow(many=True)
    document_uid = serializers.CharField(allow_null=True)
    document_title = serializers.CharField(allow_null=True, allow_blank=True)


class SuspectEntity(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    status = serializers.CharField(allow_blank=True)
    aliases = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField(allow_blank=True)
    values = ValueRow(many=True)


class SuspectOut(serializers.Serializer):
    uid = serializers.CharField()
    status = serializers.ChoiceField(choices=["done", "suspect", "kept", "undone"])
    probability = serializers.FloatField()
    rescored_probability = serializers.FloatField(allow_null=True)
    model_version = serializers.CharField(allow_null=True)
    rescored_version = serializers.CharField(allow_null=True)
    merged_at = serializers.CharField()
    suspected_at = serializers.CharField(allow_null=True)
    decided_by = serializers.CharField(allow_null=True)
    decided_at = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    evidence = EvidenceRow(many=True, help_text="each comparison's weight when merged")
    rescored_evidence = EvidenceRow(many=True, help_text="the same levels, current model")
    mention = SuspectMention()
    entity = SuspectEntity()


class SuspectDetailApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=UID_PATH, responses=SuspectOut,
                   summary="One automatic merge: the mention beside its entity, weights then and now")  # fmt: skip
    def get(self, request, uid: str):
        detail = suspect_merges.suspect_detail(request.auth, uid=uid[:MAX_UID_CHARS])
        if detail is None:
            raise NotFoundError("No such suspect merge.")
        return Response(SuspectOut(detail).data)


class SuspectDecisionOut(serializers.Serializer):
    uid = serializers.CharField()
    status = serializers.ChoiceField(choices=["kept", "undone"])
    entity_uid = serializers.CharField()
    restored_uid = serializers.CharField(allow_null=True, help_text="the mention's entity, back")
    decided_at = serializers.CharField()


@extend_schema_view(post=extend_schema(
    parameters=UID_PATH, request=None, responses=SuspectDecisionOut,
    summary="Keep the automatic merge (409 if decided)",
))  # fmt: skip
class SuspectKeepApi(ReviewDecisionApi):
    body_in, body_out = StrictSerializer, SuspectDecisionOut  # no body, or an empty one

    def decide(self, scope, *, review_uid: str, data: dict) -> dict:
        return services.check_suspect_keep(scope, uid=review_uid)


@extend_schema_view(post=extend_schema(
    parameters=UID_PATH, request=None, responses=SuspectDecisionOut,
    summary="Undo the automatic merge: the mention's entity comes back (409 if decided)",
))  # fmt: skip
class SuspectUndoApi(ReviewDecisionApi):
    body_in, body_out = StrictSerializer, SuspectDecisionOut  # no body, or an empty one

    def decide(self, scope, *, review_uid: str, data: dict) -> dict:
        return services.check_suspect_undo(scope, uid=review_uid)


class SuspectRescoreApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(request=None, responses={202: JobAcceptedOut},
                   summary="Queue re-scoring of past automatic merges with the current model")  # fmt: skip
    def post(self, request):
        if request.data:
            StrictSerializer(data=request.data).is_valid(raise_exception=True)
        job = auto_merges.auto_merges_rescore_queue(request.auth)
        return job_accepted(job)


class ReresolveApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(request=None, responses={202: JobAcceptedOut},
                   summary="Queue re-resolution of every entity of the tenant (blocks searched "
                           "again, pairs scored again with what both sides know now)")  # fmt: skip
    def post(self, request):
        if request.data:
            StrictSerializer(data=request.data).is_valid(raise_exception=True)
        return job_accepted(tenant_reresolve_queue(request.auth))
