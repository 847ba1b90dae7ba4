"""Agent API of the review queue: list pending pairs, confirm or reject one, undo a merge; list
suspect merges, keep or undo one, re-score them. The same `check_*` services as the reviewer
pages; keys need the 'review' scope."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.resolution import auto_merges
from apps.resolution.api import JobQueuedOut
from apps.review import selectors, services, suspect_merges
from apps.review.filters import QueueFilters
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_UID_CHARS, query_params

MAX_LIMIT = 200
_UID = [OpenApiParameter("uid", str, OpenApiParameter.PATH)]


class ReviewListIn(QueueFilters):
    status = serializers.ChoiceField(choices=["pending"], required=False, default="pending")
    offset = serializers.IntegerField(required=False, min_value=0, max_value=100_000, default=0)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=50)


class PairEnd(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField()


class ReviewRow(serializers.Serializer):
    uid = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    type = serializers.CharField()
    mentions = serializers.IntegerField()
    relations = serializers.IntegerField()
    impact = serializers.IntegerField(help_text="mentions + relations of both entities")
    left = PairEnd(help_text="the entity proposed as a duplicate; merged by a confirm")
    right = PairEnd(help_text="the entity it was proposed against; survives a confirm")


class ReviewListOut(serializers.Serializer):
    pending = serializers.IntegerField(help_text="all pending pairs of the tenant")
    matching = serializers.IntegerField(help_text="pending pairs the filters keep")
    results = ReviewRow(many=True)


class ReviewListApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=[ReviewListIn], responses=ReviewListOut,
                   summary="Pending SAME_AS pairs, by impact or score")  # fmt: skip
    def get(self, request):
        data = ReviewListIn(data=query_params(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        queue = selectors.pending_queue(
            request.auth, type=v.get("type"), min_score=v.get("min_score"),
            max_score=v.get("max_score"), order=v["order"], offset=v["offset"], limit=v["limit"],
        )  # fmt: skip
        return Response(ReviewListOut({**queue, "results": queue["pairs"]}).data)


class ReviewDetailApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=_UID, summary="One pair side by side, with what a merge changes")
    def get(self, request, uid: str):
        pair = selectors.pair_detail(request.auth, uid=uid[:MAX_UID_CHARS])
        if pair is None:
            raise NotFoundError("No such review.")
        for side in (pair["merged"], pair["survivor"]):
            side.pop("norm_aliases", None)
        return Response(pair)


class ConfirmIn(StrictSerializer):
    survivor = serializers.CharField(required=False, max_length=MAX_UID_CHARS,
                                     help_text="uid of the entity to keep (default: right)")  # fmt: skip


class MergeOut(serializers.Serializer):
    merge_uid = serializers.CharField()
    review_uid = serializers.CharField()
    survivor_uid = serializers.CharField()
    merged_uid = serializers.CharField()
    moved = serializers.IntegerField()
    combined = serializers.IntegerField()
    dropped = serializers.IntegerField()
    aliases_absorbed = serializers.ListField(child=serializers.CharField())
    created_at = serializers.CharField()


class ReviewConfirmApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=_UID, request=ConfirmIn, responses=MergeOut,
                   summary="Merge the pair: every edge moves to the survivor (409 if decided)")  # fmt: skip
    def post(self, request, uid: str):
        data = ConfirmIn(data=request.data or {})
        data.is_valid(raise_exception=True)
        result = services.check_review_confirm(
            request.auth, review_uid=uid[:MAX_UID_CHARS],
            survivor_uid=data.validated_data.get("survivor"),
        )  # fmt: skip
        return Response(MergeOut(result).data)


class RejectIn(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True,
                                   max_length=services.MAX_REASON_CHARS)  # fmt: skip


class RejectOut(serializers.Serializer):
    review_uid = serializers.CharField()
    left_uid = serializers.CharField()
    right_uid = serializers.CharField()


class ReviewRejectApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=_UID, request=RejectIn, responses=RejectOut,
                   summary="Record NOT_SAME: never proposed again (409 if decided)")  # fmt: skip
    def post(self, request, uid: str):
        data = RejectIn(data=request.data or {})
        data.is_valid(raise_exception=True)
        result = services.check_review_reject(
            request.auth, review_uid=uid[:MAX_UID_CHARS],
            reason=data.validated_data.get("reason", ""),
        )  # fmt: skip
        return Response(RejectOut(result).data)


class UndoOut(serializers.Serializer):
    merge_uid = serializers.CharField()
    survivor_uid = serializers.CharField()
    merged_uid = serializers.CharField()
    moved_back = serializers.IntegerField()
    recreated = serializers.IntegerField()
    review_uid = serializers.CharField(allow_null=True, help_text="the pair, pending again")
    undone_at = serializers.CharField()


class MergeUndoApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=_UID, request=None, responses=UndoOut,
                   summary="Unmerge: both entities and every moved edge come back")  # fmt: skip
    def post(self, request, uid: str):
        if request.data:
            StrictSerializer(data=request.data).is_valid(raise_exception=True)
        result = services.check_merge_undo(request.auth, merge_uid=uid[:MAX_UID_CHARS])
        return Response(UndoOut(result).data)


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

    @extend_schema(parameters=_UID, responses=SuspectOut,
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


class SuspectKeepApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=_UID, request=None, responses=SuspectDecisionOut,
                   summary="Keep the automatic merge (409 if decided)")  # fmt: skip
    def post(self, request, uid: str):
        if request.data:
            StrictSerializer(data=request.data).is_valid(raise_exception=True)
        result = services.check_suspect_keep(request.auth, uid=uid[:MAX_UID_CHARS])
        return Response(SuspectDecisionOut(result).data)


class SuspectUndoApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=_UID, request=None, responses=SuspectDecisionOut,
                   summary="Undo the automatic merge: the mention's entity comes back (409 if decided)")  # fmt: skip
    def post(self, request, uid: str):
        if request.data:
            StrictSerializer(data=request.data).is_valid(raise_exception=True)
        result = services.check_suspect_undo(request.auth, uid=uid[:MAX_UID_CHARS])
        return Response(SuspectDecisionOut(result).data)


class SuspectRescoreApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(request=None, responses={202: JobQueuedOut},
                   summary="Queue re-scoring of past automatic merges with the current model")  # fmt: skip
    def post(self, request):
        if request.data:
            StrictSerializer(data=request.data).is_valid(raise_exception=True)
        job = auto_merges.auto_merges_rescore_queue(request.auth)
        url = reverse("api-job", kwargs={"uid": job.uid})
        return Response(JobQueuedOut({"job": job.uid, "url": url}).data, status=202)
