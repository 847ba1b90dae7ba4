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
