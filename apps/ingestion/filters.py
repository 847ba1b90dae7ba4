"""The documents list's filters, defined once: the API list checks them strictly (400 naming the
field and the limit), the list page leniently (`filters_from`)."""

from __future__ import annotations

from rest_framework import serializers

from apps.ingestion.selectors import MAX_DOCUMENTS_PAGE
from apps.ingestion.services import MAX_SOURCE_CHARS, MAX_TITLE_CHARS
from memoryproject.api_errors import StrictSerializer
from memoryproject.request_inputs import MAX_NAME_CHARS

MAX_DOCUMENTS_OFFSET = 100_000


class DocumentListQuery(StrictSerializer):
    source = serializers.CharField(max_length=MAX_SOURCE_CHARS, required=False)
    title = serializers.CharField(max_length=MAX_TITLE_CHARS, required=False,
                                  help_text="a part of the title, any case")  # fmt: skip
    created_after = serializers.DateTimeField(
        required=False, input_formats=["iso-8601", "%Y-%m-%d"],
        help_text="stored at or after (YYYY-MM-DD or ISO 8601)",
    )  # fmt: skip
    created_before = serializers.DateTimeField(
        required=False, input_formats=["iso-8601", "%Y-%m-%d"],
        help_text="stored before (YYYY-MM-DD or ISO 8601)",
    )  # fmt: skip
    agent = serializers.CharField(max_length=MAX_NAME_CHARS, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=MAX_DOCUMENTS_PAGE, default=20)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_DOCUMENTS_OFFSET, default=0)

    def validate(self, attrs):
        after, before = attrs.get("created_after"), attrs.get("created_before")
        if after and before and after >= before:
            raise serializers.ValidationError(
                {"created_after": ["created_after must be before created_before."]}
            )
        return attrs
