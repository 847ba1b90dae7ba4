"""Agent API of the review queue: list pending pairs, confirm or reject one, undo a merge (the
suspect merges' API is suspect_api). The same `check_*` services as the reviewer pages; keys
need the 'review' scope."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
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
UID_PATH = [OpenApiParameter("uid", str, OpenApiParameter.PATH)]


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


class PairMentionOut(serializers.Serializer):
    surface = serializers.CharField(allow_null=True)
    start = serializers.IntegerField(allow_null=True)
    end = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_null=True, allow_blank=True)
    sentence = serializers.CharField(allow_blank=True)
    document_uid = serializers.CharField(allow_null=True)
    document_title = serializers.CharField(allow_blank=True)


class PairOtherOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_null=True)
    type = serializers.CharField(allow_null=True)


class PairRelationOut(serializers.Serializer):
    predicate = serializers.CharField(allow_null=True)
    out = serializers.BooleanField()
    weight = serializers.FloatField(allow_null=True)
    confidence = serializers.FloatField(allow_null=True)
    other = PairOtherOut()


class PairValueRowOut(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.JSONField()
    conflicts = serializers.ListField(child=serializers.JSONField())


class PairSideOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_null=True)
    type = serializers.CharField(allow_null=True)
    norm_name = serializers.CharField(allow_null=True)
    description = serializers.CharField(allow_null=True, allow_blank=True)
    status = serializers.CharField(allow_null=True)
    aliases = serializers.ListField(child=serializers.CharField())
    absorbed_descriptions = serializers.ListField(child=serializers.CharField())
    mention_count = serializers.IntegerField()
    relation_count = serializers.IntegerField()
    mentions = PairMentionOut(many=True)
    relations = PairRelationOut(many=True)
    values = serializers.DictField()
    value_conflicts = serializers.DictField()
    value_rows = PairValueRowOut(many=True)


class PairEvidenceRowOut(serializers.Serializer):
    comparison = serializers.CharField()
    weight = serializers.FloatField()
    words = serializers.CharField()
    detail = serializers.CharField(allow_blank=True)
    direction = serializers.ChoiceField(choices=["for", "against", ""])


class PairMoveOut(serializers.Serializer):
    type = serializers.CharField()
    n = serializers.IntegerField()


class MergeChangeOut(serializers.Serializer):
    edges_moved = serializers.IntegerField()
    by_type = PairMoveOut(many=True)
    relations_combined = serializers.IntegerField()
    aliases_absorbed = serializers.ListField(child=serializers.CharField())
    description_taken = serializers.BooleanField()


class ReviewDetailOut(serializers.Serializer):
    uid = serializers.CharField()
    status = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    signals = serializers.DictField(child=serializers.FloatField())
    evidence = PairEvidenceRowOut(many=True)
    reason = serializers.CharField(allow_null=True, allow_blank=True)
    decided_by = serializers.CharField(allow_null=True)
    decided_at = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    merged = PairSideOut(help_text="the entity a confirm merges away (left)")
    survivor = PairSideOut(help_text="the entity that survives a confirm (right)")
    change = MergeChangeOut(help_text="what a confirm would change")


class ReviewDetailApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=UID_PATH, responses=ReviewDetailOut,
                   summary="One pair side by side, with what a merge changes")  # fmt: skip
    def get(self, request, uid: str):
        pair = selectors.pair_detail(request.auth, uid=uid[:MAX_UID_CHARS])
        if pair is None:
            raise NotFoundError("No such review.")
        for side in (pair["merged"], pair["survivor"]):
            side.pop("norm_aliases", None)
        return Response(ReviewDetailOut(pair).data)


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


class RejectIn(StrictSerializer):
    reason = serializers.CharField(help_text="why they differ, for the record", required=False, allow_blank=True,
                                   max_length=services.MAX_REASON_CHARS)  # fmt: skip


class RejectOut(serializers.Serializer):
    review_uid = serializers.CharField()
    left_uid = serializers.CharField()
    right_uid = serializers.CharField()


class ReviewDecisionApi(RecordsRefusals, APIView):
    """A decision on one pair (or merge): the body checked by `body_in`, the answer shaped by
    `body_out`; `decide` calls the same check_* service as the reviewer pages."""

    required_scope = KeyScope.REVIEW
    body_in: type[StrictSerializer]
    body_out: type[serializers.Serializer]

    def decide(self, scope, *, review_uid: str, data: dict) -> dict:
        raise NotImplementedError

    def post(self, request, uid: str):
        data = self.body_in(data=request.data or {})
        data.is_valid(raise_exception=True)
        result = self.decide(request.auth, review_uid=uid[:MAX_UID_CHARS], data=data.validated_data)
        return Response(self.body_out(result).data)


@extend_schema_view(post=extend_schema(
    parameters=UID_PATH, request=ConfirmIn, responses=MergeOut,
    summary="Merge the pair: every edge moves to the survivor (409 if decided)",
))  # fmt: skip
class ReviewConfirmApi(ReviewDecisionApi):
    body_in, body_out = ConfirmIn, MergeOut

    def decide(self, scope, *, review_uid: str, data: dict) -> dict:
        return services.check_review_confirm(
            scope, review_uid=review_uid, survivor_uid=data.get("survivor")
        )


@extend_schema_view(post=extend_schema(
    parameters=UID_PATH, request=RejectIn, responses=RejectOut,
    summary="Record NOT_SAME: never proposed again (409 if decided)",
))  # fmt: skip
class ReviewRejectApi(ReviewDecisionApi):
    body_in, body_out = RejectIn, RejectOut

    def decide(self, scope, *, review_uid: str, data: dict) -> dict:
        return services.check_review_reject(
            scope, review_uid=review_uid, reason=data.get("reason", "")
        )


class UndoOut(serializers.Serializer):
    merge_uid = serializers.CharField()
    survivor_uid = serializers.CharField()
    merged_uid = serializers.CharField()
    moved_back = serializers.IntegerField()
    recreated = serializers.IntegerField()
    review_uid = serializers.CharField(allow_null=True, help_text="the pair, pending again")
    undone_at = serializers.CharField()


@extend_schema_view(post=extend_schema(
    parameters=UID_PATH, request=None, responses=UndoOut,
    summary="Unmerge: both entities and every moved edge come back",
))  # fmt: skip
class MergeUndoApi(ReviewDecisionApi):
    body_in, body_out = StrictSerializer, UndoOut  # no body, or an empty one

    def decide(self, scope, *, review_uid: str, data: dict) -> dict:
        return services.check_merge_undo(scope, merge_uid=review_uid)
