"""Agent API of episodes, lessons, playbooks, handoffs and promotion, a module per family; what
they share: references given as input, and routes that list (read) and create (write)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS

from apps.lessons.services.references import REF_KINDS
from apps.tenants.models import KeyScope
from memoryproject.api_errors import StrictSerializer


class RefIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=REF_KINDS)
    id = serializers.CharField(max_length=200)


def refs_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=RefIn(), max_length=100, **kwargs)


class ReadOrWrite:
    """A route with a list (GET, memory:read) and a create (POST, memory:write) on one path."""

    @property
    def required_scope(self) -> str:
        method = getattr(getattr(self, "request", None), "method", "POST")
        return KeyScope.MEMORY_READ if method in SAFE_METHODS else KeyScope.MEMORY_WRITE
