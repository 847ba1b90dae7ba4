"""Agent API of the graph as a whole: /api/v1/graph/... groups, important, between, connection,
communities, and one entity's community. Each takes `at` (an ISO date-time): then it sees only
the relations that held and the entities that existed at that time."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.insights import selectors
from apps.insights.connection import graph_connection
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.request_inputs import MAX_UID_CHARS, query_params

MAX_LIMIT = 100
MAX_PREDICATE_CHARS = 100  # as apps/resolution/relation_writes.py


class AtIn(StrictSerializer):
    at = serializers.DateTimeField(
        required=False, help_text="ISO date-time: the graph as it was then (answers not kept)"
    )

    def validate_at(self, value):
        if not 1900 <= value.year <= 9000:
            raise serializers.ValidationError("Give a time between the years 1900 and 9000.")
        return value


class GroupsIn(AtIn):
    records = serializers.ChoiceField(choices=["Episode"], required=False,
                                      help_text="join through episodes ABOUT entities")  # fmt: skip
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=20)
    members = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT,
                                       default=10)  # fmt: skip
    kinds = serializers.CharField(
        required=False, max_length=900, help_text="entities of these kinds only, comma-separated"
    )
    relations = serializers.CharField(required=False, max_length=900,
                                      help_text="relations of these predicates only, "
                                                "comma-separated")  # fmt: skip


class RankIn(AtIn):
    predicate = serializers.CharField(required=False, max_length=MAX_PREDICATE_CHARS,
                                      help_text="the relations of this predicate only")  # fmt: skip
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=20)


class BetweenIn(RankIn):
    sample = serializers.IntegerField(required=False, min_value=1, max_value=selectors.MAX_SAMPLE,
                                      help_text="sources to count paths from (automatic when "
                                                "left out; the node count or more: exact)")  # fmt: skip


class ConnectionIn(AtIn):
    source = serializers.CharField(max_length=MAX_UID_CHARS, help_text="an entity's uid")
    target = serializers.CharField(max_length=MAX_UID_CHARS, help_text="an entity's uid")
    predicate = serializers.CharField(required=False, max_length=MAX_PREDICATE_CHARS)


class CommunitiesIn(AtIn):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=20)


class NodeOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    type = serializers.CharField(allow_blank=True, help_text="an entity type, or Episode")


class ScoredOut(NodeOut):
    score = serializers.FloatField()


class KeptOut(serializers.Serializer):
    at = serializers.CharField(allow_null=True)
    kept = serializers.BooleanField(help_text="answered from a kept answer (no computation)")
    stamp = serializers.CharField(
        allow_null=True,
        required=False,
        default=None,
        help_text="the graph's stamp the answer was kept under (none at a time): another stamp "
        "is another graph, or one a write that deletes changed",
    )


class GroupOut(serializers.Serializer):
    id = serializers.CharField(help_text="the uid of the group's oldest member")
    size = serializers.IntegerField()
    records = serializers.IntegerField()
    members = NodeOut(many=True)


class GroupsOut(KeptOut):
    total = serializers.IntegerField()
    nodes = serializers.IntegerField()
    groups = GroupOut(many=True)


class RankOut(KeptOut):
    predicate = serializers.CharField(allow_null=True)
    results = ScoredOut(many=True)


class BetweenOut(RankOut):
    exact = serializers.BooleanField()
    sample = serializers.IntegerField(allow_null=True, help_text="sources counted from")
    nodes = serializers.IntegerField()


class StepOut(serializers.Serializer):
    source = serializers.CharField(source="from")
    target = serializers.CharField(source="to")
    predicate = serializers.CharField()
    direction = serializers.ChoiceField(choices=["forward", "backward"])
    holds_now = serializers.BooleanField()
    since = serializers.CharField(allow_null=True)
    until = serializers.CharField(allow_null=True)
    weight = serializers.FloatField(allow_null=True)


class ConnectionOut(serializers.Serializer):
    at = serializers.CharField(allow_null=True)
    predicate = serializers.CharField(allow_null=True)
    found = serializers.BooleanField()
    length = serializers.IntegerField(allow_null=True)
    entities = NodeOut(many=True)
    steps = StepOut(many=True)


class CommunityOut(serializers.Serializer):
    id = serializers.CharField(help_text="the uid of its most important member")
    name = serializers.CharField(allow_blank=True)
    size = serializers.IntegerField()
    members = ScoredOut(many=True)


class CommunitiesOut(KeptOut):
    total = serializers.IntegerField()
    communities = CommunityOut(many=True)


class GraphApi(APIView):
    required_scope = KeyScope.MEMORY_READ
    params: type[StrictSerializer] = AtIn

    def inputs(self, request) -> dict:
        data = self.params(data=query_params(request))
        data.is_valid(raise_exception=True)
        return dict(data.validated_data)


class GroupsApi(GraphApi):
    params = GroupsIn

    @extend_schema(parameters=[GroupsIn], responses=GroupsOut,
                   summary="What belongs together: weakly connected groups")  # fmt: skip
    def get(self, request):
        p = self.inputs(request)
        names = {n: [x.strip() for x in p.get(n, "").split(",") if x.strip()][:20]
                 for n in ("kinds", "relations")}  # fmt: skip
        answer = selectors.graph_groups(request.auth, at=p.get("at"), records="records" in p,
                                        limit=p["limit"], members=p["members"],
                                        kinds=names["kinds"], relations=names["relations"])  # fmt: skip
        return Response(GroupsOut(answer).data)


class ImportantApi(GraphApi):
    params = RankIn

    @extend_schema(parameters=[RankIn], responses=RankOut,
                   summary="PageRank over the entities, scores adding up to 1")  # fmt: skip
    def get(self, request):
        p = self.inputs(request)
        answer = selectors.graph_important(request.auth, at=p.get("at"),
                                           predicate=p.get("predicate"), limit=p["limit"])  # fmt: skip
        return Response(RankOut(answer).data)


class BetweenApi(GraphApi):
    params = BetweenIn

    @extend_schema(parameters=[BetweenIn], responses=BetweenOut,
                   summary="Betweenness along the relations (sampled on large graphs)")  # fmt: skip
    def get(self, request):
        p = self.inputs(request)
        answer = selectors.graph_between(request.auth, at=p.get("at"), sample=p.get("sample"),
                                         predicate=p.get("predicate"), limit=p["limit"])  # fmt: skip
        return Response(BetweenOut(answer).data)


class ConnectionApi(GraphApi):
    params = ConnectionIn

    @extend_schema(parameters=[ConnectionIn], responses=ConnectionOut,
                   summary="The shortest chain of relations between two entities")  # fmt: skip
    def get(self, request):
        p = self.inputs(request)
        answer = graph_connection(request.auth, source=p["source"], target=p["target"],
                                  at=p.get("at"), predicate=p.get("predicate"))  # fmt: skip
        return Response(ConnectionOut(answer).data)


class CommunitiesApi(GraphApi):
    params = CommunitiesIn

    @extend_schema(parameters=[CommunitiesIn], responses=CommunitiesOut,
                   summary="Leiden communities, named by their most important members")  # fmt: skip
    def get(self, request):
        p = self.inputs(request)
        answer = selectors.graph_communities(request.auth, at=p.get("at"), limit=p["limit"])
        return Response(CommunitiesOut(answer).data)


class EntityCommunityApi(GraphApi):
    @extend_schema(parameters=[AtIn, OpenApiParameter("uid", str, OpenApiParameter.PATH)],
                   responses=CommunityOut, summary="The community of one entity")  # fmt: skip
    def get(self, request, uid: str):
        p = self.inputs(request)
        community = selectors.entity_community(request.auth, uid=uid[:MAX_UID_CHARS],
                                               at=p.get("at"))  # fmt: skip
        if community is None:
            raise NotFoundError("No such entity in a community (or no such entity).")
        return Response(CommunityOut(community).data)
