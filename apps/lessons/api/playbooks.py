"""API of playbooks: write a version, find those for a situation, record runs, switch."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.lessons import selectors
from apps.lessons.api import ReadOrWrite
from apps.lessons.services import playbooks as playbook_services
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError, NotFoundError, StrictSerializer
from memoryproject.json_values import FREE_FORM, json_loads
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import validated

MAX_SITUATION_CHARS = 10_000


class PlaybookIn(StrictSerializer):
    key = serializers.CharField(
        help_text="your id for the playbook; the same key makes a new version", max_length=120
    )
    trigger = serializers.DictField(help_text="the situation it is for: name -> value")
    steps = serializers.ListField(help_text="its steps, in order", max_length=50)
    supported_by = serializers.ListField(
        help_text="the episodes (ids) it comes from",
        child=serializers.CharField(max_length=200),
        max_length=100,
    )
    needs = serializers.IntegerField(
        help_text="episodes needed before it is offered", required=False, min_value=1, max_value=100
    )


class PlaybookReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()


class PlaybookRowOut(serializers.Serializer):
    key = serializers.CharField()
    version = serializers.IntegerField()
    enabled = serializers.BooleanField()
    failures_in_row = serializers.IntegerField(allow_null=True)
    switched_by = serializers.CharField(allow_null=True)
    switched_at = serializers.CharField(allow_null=True)
    trigger = serializers.JSONField(allow_null=True)  # the agent's own trigger and steps
    steps = serializers.JSONField(allow_null=True)
    runs = serializers.IntegerField()


class PlaybookListOut(serializers.Serializer):
    results = PlaybookRowOut(many=True)


class PlaybookFitOut(serializers.Serializer):
    id = serializers.CharField()
    key = serializers.CharField()
    version = serializers.IntegerField()
    trigger = serializers.JSONField()
    steps = serializers.JSONField()


class PlaybookFitListOut(serializers.Serializer):
    results = PlaybookFitOut(many=True)


class PlaybookVersionOut(serializers.Serializer):
    version = serializers.IntegerField()
    trigger = serializers.JSONField(allow_null=True)
    steps = serializers.JSONField(allow_null=True)
    by = serializers.CharField(allow_null=True)
    at = serializers.CharField(allow_null=True)
    episodes = serializers.ListField(child=serializers.CharField())


class PlaybookRunOut(serializers.Serializer):
    episode = serializers.CharField()
    title = serializers.CharField(allow_null=True, allow_blank=True)
    succeeded = serializers.BooleanField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    by = serializers.CharField(allow_null=True)
    at = serializers.CharField(allow_null=True)


class PlaybookOut(serializers.Serializer):
    key = serializers.CharField()
    version = serializers.IntegerField()
    enabled = serializers.BooleanField()
    failures_in_row = serializers.IntegerField(allow_null=True)
    switched_by = serializers.CharField(allow_null=True)
    switched_at = serializers.CharField(allow_null=True)
    switch_reason = serializers.CharField(allow_null=True, allow_blank=True)
    versions = PlaybookVersionOut(many=True)
    runs = PlaybookRunOut(many=True)


class PlaybooksApi(RecordsRefusals, ReadOrWrite, APIView):
    refusal_kind = "playbook"

    @extend_schema(request=PlaybookIn,
                   responses={201: PlaybookReceiptOut, 200: PlaybookReceiptOut},
                   summary="Write a playbook (200 if this version exists)")  # fmt: skip
    def post(self, request):
        data = validated(request, PlaybookIn)
        receipt = playbook_services.check_playbook_write(request.auth, **data)
        return Response(receipt, status=201 if receipt["status"] == "written" else 200)

    @extend_schema(responses=PlaybookListOut,
                   summary="Every playbook, on and off, with its newest version")  # fmt: skip
    def get(self, request):
        return Response({"results": selectors.playbooks_list(request.auth)})


class PlaybooksForApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "situation", str, required=True,
                description=f"a JSON object, at most {MAX_SITUATION_CHARS} characters",
            )
        ],
        responses=PlaybookFitListOut,
        summary="Switched-on playbooks whose trigger fits ?situation=<JSON object>",
    )  # fmt: skip
    def get(self, request):
        raw = request.query_params.get("situation", "")
        if len(raw) > MAX_SITUATION_CHARS:
            raise ApplicationError(
                "situation is too long.", field="situation", limit=MAX_SITUATION_CHARS
            )
        situation = json_loads(raw, field="situation", limits=FREE_FORM)
        rows = selectors.playbooks_for(request.auth, situation=situation)
        return Response({"results": rows})


class PlaybookDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses=PlaybookOut, summary="A playbook with its versions, runs and switch")
    def get(self, request, key: str):
        playbook = selectors.playbook_get(request.auth, key=key)
        if playbook is None:
            raise NotFoundError("No such playbook.")
        return Response(playbook)


class RunIn(StrictSerializer):
    episode = serializers.CharField(help_text="the episode (id) that ran it", max_length=200)
    succeeded = serializers.BooleanField(help_text="whether the run succeeded")


class RunReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    episode = serializers.CharField()
    status = serializers.ChoiceField(choices=["judged", "unchanged"])
    enabled = serializers.BooleanField()
    failures_in_row = serializers.IntegerField(allow_null=True)


class PlaybookRunApi(RecordsRefusals, APIView):
    refusal_kind = "playbook_run"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=RunIn, responses={200: RunReceiptOut},
                   summary="Judge the run of a playbook in one episode, once")  # fmt: skip
    def post(self, request, key: str):
        data = validated(request, RunIn)
        return Response(playbook_services.check_playbook_run(request.auth, key=key, **data))


class SwitchIn(StrictSerializer):
    enabled = serializers.BooleanField(help_text="on (true) or off (false)")
    reason = serializers.CharField(
        help_text="why, for the record", required=False, allow_blank=True, max_length=500
    )


class SwitchOut(serializers.Serializer):
    id = serializers.CharField()
    enabled = serializers.BooleanField()
    switched_by = serializers.CharField()
    switched_at = serializers.CharField()


class PlaybookSwitchApi(RecordsRefusals, APIView):
    refusal_kind = "playbook_switch"
    required_scope = KeyScope.REVIEW

    @extend_schema(request=SwitchIn, responses={200: SwitchOut},
                   summary="Switch a playbook on or off (review)")  # fmt: skip
    def post(self, request, key: str):
        data = validated(request, SwitchIn)
        return Response(playbook_services.check_playbook_switch(request.auth, key=key, **data))
