"""API of playbooks and handoffs."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.lessons import handoffs as handoff_services
from apps.lessons import playbooks as playbook_services
from apps.lessons.api import ReadOrWrite, refs_field, validated
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError, NotFoundError, StrictSerializer
from memoryproject.json_values import FREE_FORM, json_loads

MAX_SITUATION_CHARS = 10_000


class PlaybookIn(StrictSerializer):
    key = serializers.CharField(max_length=120)
    trigger = serializers.DictField()
    steps = serializers.ListField(max_length=50)
    supported_by = serializers.ListField(
        child=serializers.CharField(max_length=200), max_length=100
    )
    needs = serializers.IntegerField(required=False, min_value=1, max_value=100)


class PlaybookReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()


class PlaybooksApi(ReadOrWrite, APIView):
    @extend_schema(request=PlaybookIn, responses=PlaybookReceiptOut, summary="Write a playbook")
    def post(self, request):
        data = validated(request, PlaybookIn, kind="playbook")
        receipt = playbook_services.check_playbook_write(request.auth, **data)
        return Response(receipt, status=201 if receipt["status"] == "written" else 200)

    @extend_schema(summary="Every playbook, on and off, with its newest version")
    def get(self, request):
        return Response({"results": playbook_services.playbooks_list(request.auth)})


class PlaybooksForApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(summary="Switched-on playbooks whose trigger fits ?situation=<JSON object>")
    def get(self, request):
        raw = request.query_params.get("situation", "")
        if len(raw) > MAX_SITUATION_CHARS:
            raise ApplicationError(
                "situation is too long.", field="situation", limit=MAX_SITUATION_CHARS
            )
        situation = json_loads(raw, field="situation", limits=FREE_FORM)
        rows = playbook_services.playbooks_for(request.auth, situation=situation)
        return Response({"results": rows})


class PlaybookDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(summary="A playbook with its versions, runs and switch")
    def get(self, request, key: str):
        playbook = playbook_services.playbook_get(request.auth, key=key)
        if playbook is None:
            raise NotFoundError("No such playbook.")
        return Response(playbook)


class RunIn(StrictSerializer):
    episode = serializers.CharField(max_length=200)
    succeeded = serializers.BooleanField()


class PlaybookRunApi(APIView):
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=RunIn, summary="Judge the run of a playbook in one episode, once")
    def post(self, request, key: str):
        data = validated(request, RunIn, kind="playbook_run")
        return Response(playbook_services.check_playbook_run(request.auth, key=key, **data))


class SwitchIn(StrictSerializer):
    enabled = serializers.BooleanField()
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class PlaybookSwitchApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(request=SwitchIn, summary="Switch a playbook on or off (review)")
    def post(self, request, key: str):
        data = validated(request, SwitchIn, kind="playbook_switch")
        return Response(playbook_services.check_playbook_switch(request.auth, key=key, **data))


class HandoffIn(StrictSerializer):
    key = serializers.CharField(max_length=120)
    to = serializers.CharField(max_length=200)
    points_to = refs_field(min_length=1)
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class HandoffsApi(ReadOrWrite, APIView):
    @extend_schema(request=HandoffIn, summary="Hand work to another agent")
    def post(self, request):
        data = validated(request, HandoffIn, kind="handoff")
        receipt = handoff_services.check_handoff_give(request.auth, **data)
        return Response(receipt, status=201 if receipt["status"] == "given" else 200)

    @extend_schema(summary="Handoffs to or from ?agent= (default: the calling agent), ?status=")
    def get(self, request):
        agent = request.query_params.get("agent", request.auth.actor)[:200]
        status = request.query_params.get("status")
        rows = handoff_services.handoffs_for(
            request.auth,
            agent=agent,
            status=status if status in {"given", "accepted"} else None,
        )
        return Response({"agent": request.auth.actor, "results": rows})


class HandoffAcceptApi(APIView):
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=None, summary="Accept a handoff given to the calling agent")
    def post(self, request, key: str):
        return Response(handoff_services.check_handoff_accept(request.auth, key=key))


class AgentMeApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(summary="The agent name of the calling key (what handoffs are given `to`)")
    def get(self, request):
        return Response({"agent": request.auth.actor})
