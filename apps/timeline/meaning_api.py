"""Agent API of meaning search over kinds' text values: embed what waits, and nearest."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from apps.tenants.services import QUEUE_DOWN
from apps.timeline.meaning import MAX_EMBED, MAX_NEAREST, check_kind_embed_queue, nearest
from memoryproject.api_errors import StrictSerializer
from memoryproject.api_schema import ErrorOut
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import query_params, validated


class EmbedIn(StrictSerializer):
    limit = serializers.IntegerField(
        help_text="the most rows embedded",
        required=False,
        min_value=1,
        max_value=MAX_EMBED,
        default=100,
    )


class EmbedOut(serializers.Serializer):
    """The result of the embedding job."""

    kind = serializers.CharField()
    model = serializers.CharField(help_text="the model whose name each vector keeps")
    embedded = serializers.IntegerField()
    waiting = serializers.IntegerField(help_text="entities whose text still waits for a vector")


class NearestIn(StrictSerializer):
    q = serializers.CharField(max_length=2000)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_NEAREST,
                                     default=10)  # fmt: skip


class NearestOut(serializers.Serializer):
    kind = serializers.CharField()
    model = serializers.CharField()
    results = serializers.ListField(child=serializers.DictField(), help_text="{key, score, text}")


class EmbedApi(RecordsRefusals, APIView):
    refusal_kind = "embed"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=EmbedIn,
                   responses={202: JobAcceptedOut,
                              400: OpenApiResponse(ErrorOut, description="the kind embeds nothing"),
                              404: OpenApiResponse(ErrorOut, description="no such kind"),
                              503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN)},
                   summary="Queue a job that gives vectors to every entity of the kind whose "
                           "text waits, `limit` a round (the one already queued when there is "
                           "one); its result is {kind, model, embedded, waiting}")  # fmt: skip
    def post(self, request, kind: str):
        data = validated(request, EmbedIn)
        job = check_kind_embed_queue(request.auth, kind=kind[:40], limit=data["limit"])
        return job_accepted(job)


class NearestApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(parameters=[NearestIn], responses=NearestOut,
                   summary="Entities of the kind nearest in meaning to q, by their embedded "
                           "text values")  # fmt: skip
    def get(self, request, kind: str):
        query = validated(request, NearestIn, data=query_params(request))
        return Response(nearest(request.auth, kind=kind[:40], q=query["q"],
                                limit=query["limit"]))  # fmt: skip
