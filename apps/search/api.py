"""Agent API of the one search: GET /api/v1/search?q=&in=&limit=&user=."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.search import services
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError
from memoryproject.request_inputs import query_params

PARAMS = ("q", "in", "limit", "user")


class OneSearchResultOut(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["passage", "entity", "message", "entry", "fact", "argument"]
    )
    uid = serializers.CharField()
    snippet = serializers.CharField()
    source = serializers.DictField(help_text="uid, title and kind of what holds the result")
    ranks = serializers.DictField(child=serializers.IntegerField(),
                                  help_text="each ranking of its kind: its place")  # fmt: skip
    placed = serializers.CharField(help_text='e.g. "words #2, meaning #5"')
    score = serializers.FloatField(help_text="the fused reciprocal-rank score")
    twins = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="an entity's possible twins, pending review: uid, name, type, p, pair, review, "
        "facts (docs/concepts/twins.md)",
    )  # fmt: skip


class OneSearchOut(serializers.Serializer):
    q = serializers.CharField()
    limit = serializers.IntegerField()
    results = OneSearchResultOut(many=True)
    omitted = serializers.ListField(child=serializers.DictField())


class SearchApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[
            OpenApiParameter("q", str, required=True, description="1-500 characters"),
            OpenApiParameter(
                "in", str, description="passages,entities,messages,entries,facts,arguments"
            ),
            OpenApiParameter("limit", int, description="1-50, default 20"),
            OpenApiParameter("user", str, description="whose messages and facts"),
        ],
        responses=OneSearchOut,
        summary="One ranked search over passages, entities, messages, entries and facts",
    )
    def get(self, request):
        params = query_params(request)
        for name, value in params.items():
            if name not in PARAMS:
                raise ApplicationError(f"Unknown parameter {name}.", field=name, limit=list(PARAMS))
            if isinstance(value, list):
                raise ApplicationError(f"{name} is given once.", field=name)
        found = services.check_search(request.auth, q=params.get("q", ""), kinds=params.get("in"),
                                      limit=params.get("limit", 20), user=params.get("user"))  # fmt: skip
        return Response(found)
