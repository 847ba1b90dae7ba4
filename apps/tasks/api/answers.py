"""The shapes of the work graph's read answers (one task, the ready set, one evidence node), as
the OpenAPI schema documents them; test_api_responses.py checks real answers against them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers


class TaskStatusRefOut(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.CharField()


class TaskClaimOut(serializers.Serializer):
    agent = serializers.CharField(allow_null=True)
    at = serializers.CharField(allow_null=True)
    until = serializers.CharField(allow_null=True)
    released_at = serializers.CharField(allow_null=True)


class TaskEvidenceOut(serializers.Serializer):
    id = serializers.CharField()
    uid = serializers.CharField()
    content = serializers.CharField(allow_blank=True)
    source = serializers.CharField(allow_null=True)
    url = serializers.CharField(allow_null=True)
    strength = serializers.FloatField()
    corroborated_by = serializers.IntegerField(
        help_text="independent sources that say the same by meaning (the similarity sync)"
    )
    corroborated_strength = serializers.FloatField(
        help_text="strength refined by corroboration, within [strength, 0.95]"
    )
    superseded = serializers.BooleanField()
    supersedes = serializers.ListField(child=serializers.CharField())
    superseded_by = serializers.ListField(child=serializers.CharField())


class TaskDetailOut(serializers.Serializer):
    uid = serializers.CharField()
    id = serializers.CharField(help_text="the short id (t-a3f1)")
    kind = serializers.CharField(allow_null=True)
    description = serializers.CharField()
    embed_text = serializers.CharField(allow_null=True)
    embedded_text = serializers.CharField(
        allow_null=True, help_text="What was embedded: embed_text, else the description's "
        "projection (one sentence, at most 12 words)")  # fmt: skip
    status = serializers.CharField()
    prepared_prompt = serializers.CharField(allow_null=True)
    antifocus = serializers.CharField(allow_null=True)
    result_summary = serializers.CharField(allow_null=True)
    owner = serializers.CharField(allow_null=True)
    lease_until = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    finished_at = serializers.CharField(allow_null=True)
    waiting_on = serializers.IntegerField(allow_null=True, help_text="dependencies not DONE")
    ready = serializers.BooleanField()
    parent = serializers.CharField(allow_null=True)
    subtasks = serializers.ListField(child=serializers.CharField())
    depends_on = TaskStatusRefOut(many=True)
    dependents = serializers.ListField(child=serializers.CharField())
    claims = TaskClaimOut(many=True)
    evidence = TaskEvidenceOut(many=True)


class ReadyTaskOut(serializers.Serializer):
    uid = serializers.CharField()
    id = serializers.CharField()
    kind = serializers.CharField(allow_null=True)
    description = serializers.CharField()
    created_at = serializers.CharField(allow_null=True)


class ReadyOut(serializers.Serializer):
    results = ReadyTaskOut(many=True)


class EvidenceMentionOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_null=True)


class SimilarEvidenceOut(serializers.Serializer):
    id = serializers.CharField(allow_null=True)
    score = serializers.FloatField(allow_null=True)


@extend_schema_serializer(component_name="TaskEvidenceDetailOut")
class EvidenceDetailOut(serializers.Serializer):
    uid = serializers.CharField()
    id = serializers.CharField(help_text="the short id (e-7c0b)")
    content = serializers.CharField(allow_blank=True)
    embed_text = serializers.CharField(allow_null=True)
    source = serializers.CharField(allow_null=True)
    url = serializers.CharField(allow_null=True)
    strength = serializers.FloatField()
    corroborated_by = serializers.IntegerField(
        help_text="independent sources that say the same by meaning (the similarity sync)"
    )
    corroborated_strength = serializers.FloatField(
        help_text="strength refined by corroboration, within [strength, 0.95]"
    )
    superseded = serializers.BooleanField()
    created_at = serializers.CharField(allow_null=True)
    task = serializers.CharField(allow_null=True, help_text="the task that produced it")
    supersedes = serializers.ListField(child=serializers.CharField())
    superseded_by = serializers.ListField(child=serializers.CharField())
    mentions = EvidenceMentionOut(many=True)
    similar = SimilarEvidenceOut(many=True)
