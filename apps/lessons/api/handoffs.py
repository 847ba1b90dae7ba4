"""API of handoffs between agents, and the calling agent's own name (what handoffs go `to`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.lessons import selectors
from apps.lessons.api import ReadOrWrite, refs_field
from apps.lessons.filters import HandoffFilters
from apps.lessons.services import handoffs as handoff_services
from apps.tenants.models import KeyScope
from memoryproject.api_errors import StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import body_checked, query_params, validated


class HandoffIn(StrictSerializer):
    key = serializers.CharField(max_length=120)
    to = serializers.CharField(max_length=200)
    points_to = refs_field(min_length=1)
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class HandoffPointerOut(serializers.Serializer):
    kind = serializers.CharField()
    id = serializers.CharField(allow_null=True)
    label = serializers.CharField(allow_null=True)


class HandoffRowOut(serializers.Serializer):
    id = serializers.CharField()
    giver = serializers.CharField()
    receiver = serializers.CharField()
    note = serializers.CharField(allow_null=True, allow_blank=True)
    status = serializers.CharField()
    given_at = serializers.CharField(allow_null=True)
    accepted_at = serializers.CharField(allow_null=True)
    points_to = HandoffPointerOut(many=True)


class HandoffListOut(serializers.Serializer):
    agent = serializers.CharField()
    results = HandoffRowOut(many=True)


class AgentOut(serializers.Serializer):
    agent = serializers.CharField()


class HandoffReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=["given", "unchanged", "accepted"])


class HandoffsApi(RecordsRefusals, ReadOrWrite, APIView):
    refusal_kind = "handoff"

    @extend_schema(request=HandoffIn, responses={201: HandoffReceiptOut, 200: HandoffReceiptOut},
                   summary="Hand work to another agent (200 if given before, the same)")  # fmt: skip
    def post(self, request):
        data = validated(request, HandoffIn)
        receipt = handoff_services.check_handoff_give(request.auth, **data)
        return Response(receipt, status=201 if receipt["status"] == "given" else 200)

    @extend_schema(parameters=[HandoffFilters], responses=HandoffListOut,
                   summary="Handoffs to or from ?agent= (default: the calling agent), ?status=")  # fmt: skip
    def get(self, request):
        query = validated(request, HandoffFilters, data=query_params(request))
        rows = selectors.handoffs_for(
            request.auth, agent=query.get("agent", request.auth.actor), status=query.get("status")
        )
        return Response({"agent": request.auth.actor, "results": rows})


class HandoffAcceptApi(RecordsRefusals, APIView):
    refusal_kind = "handoff_accept"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=None, responses={200: HandoffReceiptOut},
                   summary="Accept a handoff given to the calling agent")  # fmt: skip
    def post(self, request, key: str):
        body_checked(request)
        return Response(handoff_services.check_handoff_accept(request.auth, key=key))


class AgentMeApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        responses=AgentOut,
        summary="The agent name of the calling key (what handoffs are given `to`)",
    )
    def get(self, request):
        return Response({"agent": request.auth.actor})
