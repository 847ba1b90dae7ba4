"""The shapes of the conversation API's read answers, as the OpenAPI schema documents them
(and as test_api_responses.py checks them against answers holding real messages)."""

from __future__ import annotations

from rest_framework import serializers


class MessageMentionOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_null=True)


class MessageReadOut(serializers.Serializer):
    uid = serializers.CharField()
    sid = serializers.CharField()
    no = serializers.IntegerField()
    role = serializers.CharField()
    text = serializers.CharField(allow_blank=True)
    by = serializers.CharField(allow_null=True)
    at = serializers.CharField(allow_null=True)
    mentions = MessageMentionOut(many=True)
    unknown_mentions = serializers.ListField(child=serializers.CharField())


class MessagesReadOut(serializers.Serializer):
    user = serializers.CharField()
    sid = serializers.CharField()
    messages = MessageReadOut(many=True)


class SessionSummaryOut(serializers.Serializer):
    uid = serializers.CharField()
    upto = serializers.IntegerField()
    text = serializers.CharField(allow_blank=True)
    by = serializers.CharField(allow_null=True)
    at = serializers.CharField(allow_null=True)


class SessionContextOut(serializers.Serializer):
    user = serializers.CharField()
    sid = serializers.CharField()
    summary = SessionSummaryOut(allow_null=True)
    upto = serializers.IntegerField()
    last_no = serializers.IntegerField()
    messages = MessageReadOut(many=True)
    waiting = serializers.IntegerField()


class SessionRowOut(serializers.Serializer):
    sid = serializers.CharField()
    messages = serializers.IntegerField(allow_null=True)
    last_at = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    summarized = serializers.BooleanField()


class SessionsOut(serializers.Serializer):
    user = serializers.CharField()
    sessions = SessionRowOut(many=True)


class SaidAboutOut(serializers.Serializer):
    user = serializers.CharField()
    entity = serializers.CharField()
    messages = MessageReadOut(many=True)


class FoundMessageOut(MessageReadOut):
    score = serializers.FloatField()


class SearchOut(serializers.Serializer):
    user = serializers.CharField()
    messages = FoundMessageOut(many=True)


class SummaryStoredOut(serializers.Serializer):
    user = serializers.CharField()
    sid = serializers.CharField()
    upto = serializers.IntegerField()
    stored = serializers.BooleanField(help_text="false when the session had a later summary")


class ContextStepOut(serializers.Serializer):
    step = serializers.CharField()
    ms = serializers.FloatField()
    count = serializers.IntegerField()


class ContextTimingsOut(serializers.Serializer):
    embed_ms = serializers.FloatField()
    server_ms = serializers.FloatField()
    steps = ContextStepOut(many=True)


class ConversationContextOut(serializers.Serializer):
    message = serializers.DictField(help_text="the message stored: uid, no, at, mentions")
    summary = serializers.DictField(allow_null=True, help_text="uid, upto, text")
    message_hits = serializers.ListField(child=serializers.DictField())
    knowledge = serializers.ListField(
        child=serializers.DictField(), help_text="the user's promoted facts the message names"
    )
    entry_hits = serializers.ListField(
        child=serializers.DictField(), help_text="episode entries above the relevance floor"
    )
    entity_hits = serializers.ListField(child=serializers.DictField())
    neighbours = serializers.ListField(child=serializers.DictField())
    traces = serializers.ListField(child=serializers.DictField())
    context = serializers.CharField(allow_blank=True, help_text="the block for the prompt")
    tokens = serializers.IntegerField()
    cited = serializers.ListField(child=serializers.CharField(), help_text="sources, in order")
    trace = serializers.CharField(help_text="the reasoning trace recorded for this call")
    timings = ContextTimingsOut()


class ErasurePreviewOut(serializers.Serializer):
    user = serializers.CharField()
    session = serializers.CharField(allow_null=True)
    sids = serializers.ListField(child=serializers.CharField())
    sessions = serializers.IntegerField()
    messages = serializers.IntegerField()
    summaries = serializers.IntegerField()
    traces = serializers.IntegerField()
    failures = serializers.IntegerField(help_text="refused writes kept about the user")
