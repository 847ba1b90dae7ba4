"""Agent API of identity resolution: search entities, read one entity, the tenant's match
model and a job to make it learn from reviewers' decisions."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.graph.nodes import ENTITY_TYPES
from apps.resolution import selectors, tenant_model
from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_UID_CHARS, body_checked, query_params

MAX_QUERY_CHARS = 500
MAX_LIMIT = 100


class EntitySearchIn(StrictSerializer):
    q = serializers.CharField(required=False, allow_blank=True, max_length=MAX_QUERY_CHARS)
    type = serializers.ChoiceField(choices=ENTITY_TYPES, required=False)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=20)


class TwinOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    p = serializers.FloatField(help_text="the pending pair's P(same)")
    pair = serializers.CharField(help_text="the pending SAME_AS pair's uid")
    review = serializers.CharField(help_text="the pair's review page")
    description = serializers.CharField(allow_blank=True, required=False)
    facts = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="the twin's heaviest relations: predicate, from, to, weight, confidence, other",
    )  # fmt: skip


class EntityBrief(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField(allow_blank=True)
    score = serializers.FloatField(allow_null=True, help_text="fused reciprocal-rank score")
    via = serializers.ListField(child=serializers.CharField(), help_text="words and/or meaning")
    ranks = serializers.DictField(
        child=serializers.IntegerField(), required=False,
        help_text="each ranking's place for it: {'words': 2, 'meaning': 5}",
    )  # fmt: skip
    twins = TwinOut(many=True, required=False,
                    help_text="possibly the same entity, pending review (docs/concepts/twins.md)")  # fmt: skip


class EntitySearchOut(serializers.Serializer):
    results = EntityBrief(many=True)


class EntitySearchApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[EntitySearchIn],
        responses=EntitySearchOut,
        summary="Entities by words (full-text on names and aliases) and meaning (vector)",
    )
    def get(self, request):
        data = EntitySearchIn(data=query_params(request))
        data.is_valid(raise_exception=True)
        results = selectors.entities_search(
            request.auth,
            q=data.validated_data.get("q", ""),
            type=data.validated_data.get("type"),
            limit=data.validated_data["limit"],
        )
        return Response(EntitySearchOut({"results": results}).data)


class OtherEnd(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()


class RelationOut(serializers.Serializer):
    uid = serializers.CharField(allow_null=True)
    predicate = serializers.CharField()
    direction = serializers.ChoiceField(choices=["out", "in"])
    weight = serializers.IntegerField()
    confidence = serializers.FloatField()
    nuance = serializers.CharField(allow_blank=True)
    first_seen = serializers.CharField(allow_null=True)
    last_seen = serializers.CharField(allow_null=True)
    other = OtherEnd()


class MentionOut(serializers.Serializer):
    surface = serializers.CharField()
    start = serializers.IntegerField(help_text="-1 when the offsets are unknown")
    end = serializers.IntegerField()
    chunk_uid = serializers.CharField()
    text = serializers.CharField(allow_null=True)
    document_uid = serializers.CharField(allow_null=True)
    document_title = serializers.CharField(allow_blank=True, allow_null=True)


class PendingOut(serializers.Serializer):
    uid = serializers.CharField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    signals = serializers.DictField(child=serializers.FloatField())
    reason = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    other = OtherEnd()


class EntityOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField(allow_blank=True)
    absorbed_descriptions = serializers.ListField(child=serializers.CharField())
    values = serializers.DictField()
    value_conflicts = serializers.DictField(child=serializers.ListField())
    status = serializers.CharField()
    created_at = serializers.CharField(
        allow_null=True,
        help_text="when the entity existed by: moved back by a dated document "
        "or an older fact's valid_from (apps.timeline)",
    )
    recorded_at = serializers.CharField(
        allow_null=True,
        help_text="when the memory first stored it (never moved by a date); "
        "null for entities stored before this field existed",
    )
    updated_at = serializers.CharField(allow_null=True)
    relations = RelationOut(many=True)
    mentions = MentionOut(many=True)
    pending = PendingOut(many=True)
    twins = TwinOut(many=True, help_text="pending pairs shown as possible twins")


class EntityDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[OpenApiParameter("uid", str, OpenApiParameter.PATH)],
        responses=EntityOut,
        summary="One entity: names, relations, mentions with their chunk and document, pending",
    )
    def get(self, request, uid: str):
        entity = selectors.entity_detail(request.auth, uid=uid[:MAX_UID_CHARS])
        if entity is None:
            raise NotFoundError("No such entity.")
        return Response(EntityOut(entity).data)


class LevelWeight(serializers.Serializer):
    comparison = serializers.CharField()
    level = serializers.CharField()
    weight = serializers.FloatField(help_text="the tenant's log2(m/u)")
    default = serializers.FloatField(help_text="the shipped default's log2(m/u)")


class MatchModelOut(serializers.Serializer):
    learned = serializers.BooleanField(help_text="false: the shipped defaults")
    confirmed = serializers.IntegerField(help_text="confirmed pairs it learned from")
    rejected = serializers.IntegerField(help_text="rejected pairs it learned from")
    weights = LevelWeight(many=True)


class MatchModelApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(responses=MatchModelOut,
                   summary="The tenant's match model: each comparison level's weight")  # fmt: skip
    def get(self, request):
        return Response(MatchModelOut(tenant_model.match_model_weights(request.auth)).data)


class MatchModelLearnApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(request=None, responses={202: JobAcceptedOut},
                   summary="Queue the tenant's match model to learn from its decided pairs now")  # fmt: skip
    def post(self, request):
        body_checked(request)
        job = tenant_model.match_model_learn_queue(request.auth)
        return job_accepted(job)
