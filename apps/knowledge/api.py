"""API of promoted knowledge: queue a promotion of conversation chains, read a user's facts."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.knowledge.selectors import knowledge_graph, knowledge_search
from apps.knowledge.ticker import knowledge_promotion_queue
from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from apps.tenants.services import QUEUE_DOWN
from memoryproject.api_errors import StrictSerializer
from memoryproject.api_schema import ErrorOut
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import body_checked, validated


class KnowledgePromoteApi(RecordsRefusals, APIView):
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(
        request=None,
        responses={202: JobAcceptedOut,
                   503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN)},
        summary="Queue a knowledge promotion of the tenant's chains now",
    )  # fmt: skip
    def post(self, request):
        body_checked(request)
        job = knowledge_promotion_queue(request.auth)
        return job_accepted(job)


class KnowledgeQuery(StrictSerializer):
    q = serializers.CharField(required=False, max_length=500)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=300)


# `from` is a Python keyword, so this shape is built with type().
KnowledgeFactOut = type(
    "KnowledgeFactOut",
    (serializers.Serializer,),
    {
        "from": serializers.CharField(),
        "from_label": serializers.CharField(allow_null=True),
        "relation": serializers.CharField(),
        "to": serializers.CharField(),
        "to_label": serializers.CharField(allow_null=True),
        "weight": serializers.FloatField(allow_null=True),
        "confidence": serializers.FloatField(allow_null=True),
        "nuance": serializers.CharField(allow_null=True, allow_blank=True),
        "heat": serializers.FloatField(allow_null=True),
        # How many messages support it (the whole graph), or their uids (with ?q=).
        "messages": serializers.JSONField(allow_null=True),
        "last_seen": serializers.CharField(allow_null=True, required=False),
    },
)


class KnowledgeOut(serializers.Serializer):
    user = serializers.CharField()
    results = KnowledgeFactOut(many=True)


class KnowledgeApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[KnowledgeQuery],
        responses=KnowledgeOut,
        summary="A user's promoted facts; with ?q= the neighbourhood of what q names",
    )
    def get(self, request, user: str):
        query = validated(request, KnowledgeQuery, data=request.query_params)
        user = user[:200]
        if "q" in query:
            rows = knowledge_search(
                request.auth, user=user, query=query["q"], limit=query.get("limit", 50)
            )
        else:
            rows = knowledge_graph(request.auth, user=user, limit=query.get("limit", 300))
        return Response({"user": user, "results": rows})
