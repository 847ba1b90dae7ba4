"""API of episodes: open one, record its entries, close it with the outcome, read them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.lessons import selectors
from apps.lessons.api import ReadOrWrite, refs_field
from apps.lessons.filters import EpisodeFilters
from apps.lessons.services import episodes as episode_services
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import query_params, validated

ID = {"max_length": 120}


class EpisodeOpenIn(StrictSerializer):
    key = serializers.CharField(required=False, **ID)
    title = serializers.CharField(required=False, allow_blank=True, max_length=300)
    about = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, max_length=100
    )


class EpisodeReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.CharField()


class EpisodeRowOut(serializers.Serializer):
    id = serializers.CharField()
    key = serializers.CharField(allow_null=True)
    title = serializers.CharField(allow_null=True, allow_blank=True)
    status = serializers.CharField()
    entries = serializers.IntegerField(required=False, allow_null=True)
    opened_at = serializers.CharField(allow_null=True)
    closed_at = serializers.CharField(allow_null=True)
    outcome = serializers.JSONField(allow_null=True)  # the agent's own free-form outcome


class EpisodeListOut(serializers.Serializer):
    results = EpisodeRowOut(many=True)


class EpisodeCitedOut(serializers.Serializer):
    kind = serializers.CharField()
    id = serializers.CharField(allow_null=True)
    label = serializers.CharField(allow_null=True)
    as_of = serializers.CharField(allow_null=True, required=False)


class EpisodeEntryOut(serializers.Serializer):
    id = serializers.CharField()
    seq = serializers.IntegerField()
    type = serializers.CharField()
    text = serializers.CharField(allow_null=True, allow_blank=True)
    values = serializers.JSONField()  # the agent's own free-form values
    by = serializers.CharField(allow_null=True)
    at = serializers.CharField(allow_null=True)
    cites = EpisodeCitedOut(many=True)


class EpisodeAboutOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField(allow_null=True)
    type = serializers.CharField(allow_null=True, required=False)


class EpisodeOut(serializers.Serializer):
    id = serializers.CharField()
    key = serializers.CharField(allow_null=True)
    title = serializers.CharField(allow_null=True, allow_blank=True)
    status = serializers.CharField()
    opened_by = serializers.CharField(allow_null=True)
    opened_at = serializers.CharField(allow_null=True)
    closed_at = serializers.CharField(allow_null=True)
    outcome = serializers.JSONField(allow_null=True)
    about = EpisodeAboutOut(many=True)
    entries = EpisodeEntryOut(many=True)


class EpisodesApi(RecordsRefusals, ReadOrWrite, APIView):
    refusal_kind = "episode"

    @extend_schema(request=EpisodeOpenIn,
                   responses={201: EpisodeReceiptOut, 200: EpisodeReceiptOut},
                   summary="Open an episode (200 if one with this key is open already)")  # fmt: skip
    def post(self, request):
        data = validated(request, EpisodeOpenIn)
        receipt = episode_services.check_episode_open(request.auth, **data)
        return Response(receipt, status=201 if receipt["status"] == "opened" else 200)

    @extend_schema(parameters=[EpisodeFilters], responses=EpisodeListOut,
                   summary="Episodes, newest first; ?about=<entity uid>, ?status=open|closed")  # fmt: skip
    def get(self, request):
        query = validated(request, EpisodeFilters, data=query_params(request))
        if query.get("about"):
            rows = selectors.episodes_about(request.auth, entity=query["about"])
        else:
            rows = selectors.episodes_list(request.auth, status=query.get("status"))
        return Response({"results": rows})


class EpisodeDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses=EpisodeOut,
                   summary="One episode with its entries in order and what each cites")  # fmt: skip
    def get(self, request, uid: str):
        episode = selectors.episode_get(request.auth, episode=uid)
        if episode is None:
            raise NotFoundError("No such episode.")
        return Response(episode)


class EntryIn(StrictSerializer):
    type = serializers.CharField(max_length=40)
    text = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    values = serializers.DictField(required=False)
    cites = refs_field(required=False)


class EntryOut(serializers.Serializer):
    id = serializers.CharField()
    seq = serializers.IntegerField()
    status = serializers.CharField()


class EntryRecordApi(RecordsRefusals, APIView):
    refusal_kind = "entry"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=EntryIn, responses={201: EntryOut}, summary="Append an entry")
    def post(self, request, uid: str):
        data = validated(request, EntryIn)
        receipt = episode_services.check_entry_record(request.auth, episode=uid, **data)
        return Response(receipt, status=201)


class CloseIn(StrictSerializer):
    outcome = serializers.DictField()
    text = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    cites = refs_field(required=False)


class EpisodeCloseApi(RecordsRefusals, APIView):
    refusal_kind = "entry"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=CloseIn, responses=EntryOut, summary="Close with the outcome entry")
    def post(self, request, uid: str):
        data = validated(request, CloseIn)
        return Response(episode_services.check_episode_close(request.auth, episode=uid, **data))
