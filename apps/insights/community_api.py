"""Agent API of the stored communities: /api/v1/communities (the list of the last complete
refresh), /communities/{uid} (one with its members, passages, documents and fusion
candidates), /communities/answer?q= (the global answer to a broad question) and POST
/communities/refresh (a job)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.insights import community_selectors
from apps.insights.communities import communities_refresh_start
from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_UID_CHARS, body_checked, query_params

MAX_LIMIT = 100
MAX_QUESTION_CHARS = community_selectors.MAX_QUESTION_CHARS


class ListIn(StrictSerializer):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=20)
    offset = serializers.IntegerField(required=False, min_value=0, max_value=10_000, default=0)


class AnswerIn(StrictSerializer):
    q = serializers.CharField(max_length=MAX_QUESTION_CHARS, help_text="a broad question")
    limit = serializers.IntegerField(required=False, min_value=1,
                                     max_value=community_selectors.MAX_ANSWER, default=3)  # fmt: skip


class StoredCommunityOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    size = serializers.IntegerField()
    summary = serializers.CharField(allow_blank=True)
    summary_source = serializers.ChoiceField(choices=["extractive", "llm"])
    relation_types = serializers.ListField(child=serializers.CharField())
    documents = serializers.IntegerField(help_text="documents whose chunks name its members")
    position = serializers.IntegerField(help_text="0 is the largest")
    level = serializers.IntegerField()
    run = serializers.CharField(help_text="the refresh that wrote it")
    created_at = serializers.CharField()


class ListOut(serializers.Serializer):
    total = serializers.IntegerField()
    communities = StoredCommunityOut(many=True)


class ScoredCommunityOut(StoredCommunityOut):
    score = serializers.FloatField(help_text="cosine of its summary and the question")


class AnswerOut(serializers.Serializer):
    question = serializers.CharField()
    answer = serializers.CharField(allow_blank=True, help_text="the summaries, best first")
    communities = ScoredCommunityOut(many=True)


class MemberOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_blank=True, allow_null=True)
    type = serializers.CharField(allow_blank=True, allow_null=True)
    rank = serializers.IntegerField()
    score = serializers.FloatField()


class PassageOut(serializers.Serializer):
    uid = serializers.CharField()
    document_uid = serializers.CharField()
    text = serializers.CharField()


class CommunityDocumentOut(serializers.Serializer):
    uid = serializers.CharField()
    title = serializers.CharField(allow_blank=True, allow_null=True)
    source = serializers.CharField(allow_blank=True, allow_null=True)
    chunks = serializers.IntegerField(help_text="its chunks naming members")


class CommunityPairSideOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_blank=True, allow_null=True)


class FusionOut(serializers.Serializer):
    uid = serializers.CharField(help_text="the pending SAME_AS pair, for the review API")
    score = serializers.FloatField(allow_null=True)
    a = CommunityPairSideOut()
    b = CommunityPairSideOut()


class DetailOut(StoredCommunityOut):
    members = MemberOut(many=True)
    passages = PassageOut(many=True)
    document_list = CommunityDocumentOut(many=True)
    fusion_candidates = FusionOut(many=True)


def _inputs(request, serializer):
    data = serializer(data=query_params(request))
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


class CommunitiesListApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(parameters=[ListIn], responses=ListOut,
                   summary="The stored communities of the last refresh, largest first")  # fmt: skip
    def get(self, request):
        p = _inputs(request, ListIn)
        answer = community_selectors.communities_list(request.auth, limit=p["limit"],
                                                      offset=p["offset"])  # fmt: skip
        return Response(ListOut(answer).data)


class CommunitiesAnswerApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(parameters=[AnswerIn], responses=AnswerOut,
                   summary="A global answer: the community summaries nearest a broad question")  # fmt: skip
    def get(self, request):
        p = _inputs(request, AnswerIn)
        answer = community_selectors.communities_answer(request.auth, q=p["q"], limit=p["limit"])
        return Response(AnswerOut(answer).data)


class CommunityDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(parameters=[OpenApiParameter("uid", str, OpenApiParameter.PATH)],
                   responses=DetailOut, summary="One community: members, passages, "
                   "documents, fusion candidates")  # fmt: skip
    def get(self, request, uid: str):
        found = community_selectors.community_detail(request.auth, uid=uid[:MAX_UID_CHARS])
        if found is None:
            raise NotFoundError("No such community.", field="uid")
        return Response(DetailOut(found).data)


class CommunitiesRefreshApi(RecordsRefusals, APIView):
    required_scope = KeyScope.MEMORY_WRITE
    refusal_kind = "communities_refresh"

    @extend_schema(request=None, responses={202: JobAcceptedOut},
                   summary="Recompute the tenant's communities and their summaries, as a job")  # fmt: skip
    def post(self, request):
        body_checked(request)
        return job_accepted(communities_refresh_start(request.auth))
