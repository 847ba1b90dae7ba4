"""Filters of the episode and handoff lists, defined once: the API checks them strictly (400
with the field), the pages leniently (`filters_from`)."""

from __future__ import annotations

from rest_framework import serializers

from memoryproject.api_errors import StrictSerializer
from memoryproject.request_inputs import MAX_NAME_CHARS


class EpisodeFilters(StrictSerializer):
    status = serializers.ChoiceField(choices=["open", "closed"], required=False)
    about = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NAME_CHARS,
                                  help_text="an entity uid")  # fmt: skip


class HandoffFilters(StrictSerializer):
    agent = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NAME_CHARS,
                                  help_text="to or from this agent (default: the caller)")  # fmt: skip
    status = serializers.ChoiceField(choices=["given", "accepted"], required=False)
