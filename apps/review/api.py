"""Agent API of the review queue: list pending pairs, confirm or reject one, undo a merge. The
same `check_*` services as the reviewer pages; keys need the 'review' scope."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.review import selectors, services
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
