"""Agent API of episodes, lessons, playbooks, handoffs, promotion and knowledge, by family."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS

from apps.graph.write_failures import write_failure_record
from apps.lessons.references import REF_KINDS
from apps.tenants.models import KeyScope
from memoryproject.api_errors import ApplicationError, StrictSerializer


class RefIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=REF_KINDS)
    id = serializers.CharField(max_length=200)


def refs_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=RefIn(), max_length=100, **kwargs)


def validated(request, serializer_class, *, kind: str | None, data=None) -> dict:
    """The request's input, checked; a refused write (`kind` given) is recorded as a
    WriteFailure too, like the refusals of the services."""
    try:
        payload = request.data if data is None else data
    except ApplicationError as refusal:  # the body parser's (memoryproject.api_parsers)
        if kind:
            write_failure_record(
                request.auth, kind=kind, reason=f"{refusal.code}: {refusal.message}"
            )
        raise
    serializer = serializer_class(data=payload)
    if not serializer.is_valid():
        if kind:
            reason = f"invalid: {dict(serializer.errors)}"
            write_failure_record(request.auth, kind=kind, reason=reason)
        serializer.is_valid(raise_exception=True)
    return {
        k: [dict(r) for r in v] if k in {"cites", "points_to"} else v
        for k, v in serializer.validated_data.items()
    }


class ReadOrWrite:
    """A route with a list (GET, memory:read) and a create (POST, memory:write) on one path."""

    @property
    def required_scope(self) -> str:
        method = getattr(getattr(self, "request", None), "method", "POST")
        return KeyScope.MEMORY_READ if method in SAFE_METHODS else KeyScope.MEMORY_WRITE
