"""Agent API of conversations: messages, reads, summaries, search, context for a prompt, and
erasure for admin keys. One view per operation; every call names the user."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.conversations import context, erasure, imports, selectors, services
from apps.conversations import input_limits as limits
from apps.conversations.answers import (
    ConversationContextOut,
    ErasurePreviewOut,
    MessagesReadOut,
    SaidAboutOut,
    SearchOut,
    SessionContextOut,
    SessionsOut,
    SummaryStoredOut,
)
from apps.graph.scope import Scope
from apps.tenants.api import JobAcceptedOut, job_accepted
from apps.tenants.models import KeyScope
from apps.tenants.services import QUEUE_DOWN
from memoryproject.api_errors import BOUND_CODES, ApplicationError, StrictSerializer
from memoryproject.api_schema import ErrorOut
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import validated


class RecordsRefusalsOfUser(RecordsRefusals):
    """Kept under the user and session the refused write was about, so erasing them erases it;
    never with the path, which holds the user's name."""

    def refusal_record(self, scope: Scope, error: dict, exc: BaseException | None = None) -> None:
        try:
            data = self.request.data
        except (APIException, ApplicationError):  # the body itself was refused (415, 400, 413)
            data = {}
        data = data if isinstance(data, dict) else {}
        detail = error.get("fields") or error.get("message", "")
        services.message_refusal_record(
            scope,
            user=self.kwargs.get("user") or data.get("user"),
            sid=self.kwargs.get("sid") or data.get("session"),
            problem=f"{type(self).__name__}: {str(detail)[:500]}",
            text=data.get("text") or data.get("message"),
            kind=str(error.get("code", "refused")),
            exc=exc,
        )


MAX_TIME_CHARS = 40  # 2026-12-03T19:04:02.123456+05:30 is 32


class ZonedDateTimeField(serializers.DateTimeField):
    """Leaves a time without a zone as it came, so the input check refuses it (DRF would read it
    in the server's zone). Longer than MAX_TIME_CHARS is no time (DRF's parser takes any number
    of second's digits)."""

    max_length = MAX_TIME_CHARS

    def to_internal_value(self, value):
        if isinstance(value, str) and len(value) > self.max_length:
            raise serializers.ValidationError(
                f"Ensure this field has no more than {self.max_length} characters.",
                code="max_length",
            )
        return super().to_internal_value(value)

    def enforce_timezone(self, value):
        return super().enforce_timezone(value) if timezone.is_aware(value) else value

    def schema_bounds(self) -> dict:
        return {"maxLength": self.max_length}


class MessageIn(StrictSerializer):
    role = serializers.CharField(help_text="e.g. user, assistant, system or tool", max_length=32)
    text = serializers.CharField(help_text="the message", trim_whitespace=False)
    by = serializers.CharField(help_text="who wrote it", max_length=limits.MAX_BY_CHARS)
    mentions = serializers.ListField(
        help_text="entity uids it is about",
        child=serializers.CharField(max_length=limits.MAX_MENTION_CHARS),
        max_length=limits.MAX_MENTIONS,
        required=False,
    )
    at = ZonedDateTimeField(help_text="ISO 8601 time with a zone (default: now)", required=False)


class StoredMessageOut(serializers.Serializer):
    uid = serializers.CharField()
    no = serializers.IntegerField()
    at = serializers.CharField()
    mentions = serializers.DictField()


class ReadQuery(StrictSerializer):
    last = serializers.IntegerField(min_value=1, max_value=limits.MAX_LAST, default=20)
    before = serializers.IntegerField(min_value=1, required=False)


class MessageOut(StoredMessageOut):
    user = serializers.CharField()
    sid = serializers.CharField()


class MessageBatchIn(StrictSerializer):
    messages = MessageIn(
        help_text="the messages, in order",
        many=True,
        allow_empty=False,
        max_length=services.MAX_BATCH,
    )


class MessageBatchOut(serializers.Serializer):
    user = serializers.CharField()
    sid = serializers.CharField()
    messages = StoredMessageOut(many=True)


def _valid_batch(serializer_class, data, *, limit: int) -> dict:
    """A batch's serializer errors name the first refused message by its index, like the
    service's own checks: field `messages[3].role`, `index` 3."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return serializer.validated_data
    problems = serializer.errors.get("messages")
    if isinstance(problems, list):  # older DRF gives a list with an entry per message
        problems = dict(enumerate(problems))
    if isinstance(problems, dict) and "non_field_errors" in problems:
        raise ApplicationError(f"`messages` is a list of 1-{limit} messages.",
                               field="messages", limit=limit)  # fmt: skip
    for index, problem in sorted((problems or {}).items()):
        if problem and isinstance(index, int):
            name = next(iter(problem))
            code = getattr(problem[name][0], "code", None)  # a broken bound gives its limit
            bound = (
                getattr(MessageIn().fields.get(name), code, None) if code in BOUND_CODES else None
            )
            raise ApplicationError(
                f"Message {index}: {name}: {problem[name][0]}",
                field=f"messages[{index}].{name}",
                limit=bound,
                extra={"index": index, "fields": problem},
            )
    raise serializers.ValidationError(serializer.errors)


class MessagesApi(RecordsRefusalsOfUser, APIView):
    """POST appends (memory:write); GET reads the last N, or those before a number."""

    def get_permissions(self):
        self.required_scope = (
            KeyScope.MEMORY_WRITE if self.request.method == "POST" else KeyScope.MEMORY_READ
        )
        return super().get_permissions()

    required_scope = KeyScope.MEMORY_READ

    @extend_schema(request=MessageIn, responses={201: MessageOut}, summary="Append a message")
    def post(self, request, user: str, sid: str):
        data = validated(request, MessageIn)
        stored = services.check_message_append(request.auth, user=user, sid=sid, **data)
        return Response(MessageOut(stored).data, status=201)

    @extend_schema(
        parameters=[ReadQuery],
        responses=MessagesReadOut,
        summary="The last N messages of a session (or those before a number)",
    )
    def get(self, request, user: str, sid: str):
        query = validated(request, ReadQuery, data=request.query_params)
        found = selectors.messages_read(request.auth, user=user, sid=sid, **query)
        return Response({"user": user, "sid": sid, "messages": found})


class MessageBatchApi(RecordsRefusalsOfUser, APIView):
    """POST appends up to 500 messages in order, in one transaction (memory:write)."""

    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(
        request=MessageBatchIn,
        responses={201: MessageBatchOut},
        summary="Append a batch of messages, in order (all or none)",
        description="Up to 500 messages, numbered after the session's last without gaps, "
        "in one transaction. A refused message refuses the batch: the error's `field` and "
        "`index` name it, and nothing is written. The worker embeds the batch in one task.",
    )
    def post(self, request, user: str, sid: str):
        data = _valid_batch(MessageBatchIn, request.data, limit=services.MAX_BATCH)
        stored = services.check_messages_append(
            request.auth, user=user, sid=sid, messages=data["messages"]
        )
        return Response(MessageBatchOut(stored).data, status=201)


class MessageImportIn(StrictSerializer):
    messages = MessageIn(
        help_text="the history, in order",
        many=True,
        allow_empty=False,
        max_length=imports.MAX_IMPORT_MESSAGES,
    )


class MessageImportApi(RecordsRefusalsOfUser, APIView):
    """POST imports a history larger than one batch, as a job (memory:write)."""

    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(
        request=MessageImportIn,
        responses={202: JobAcceptedOut, 503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN)},
        summary="Import a conversation history as a job",
        description="Up to 20,000 messages (and the request's size limit), checked like a "
        "batch's before anything is staged; a worker appends them in order, in batches of "
        "500 embedded as they are written. Progress at the job's `url`.",
    )
    def post(self, request, user: str, sid: str):
        data = _valid_batch(MessageImportIn, request.data, limit=imports.MAX_IMPORT_MESSAGES)
        job = imports.check_import_start(
            request.auth, user=user, sid=sid, messages=data["messages"]
        )
        return job_accepted(job)


class ContextQuery(StrictSerializer):
    last = serializers.IntegerField(min_value=0, max_value=limits.MAX_LAST, default=20)


class SessionContextApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[ContextQuery],
        responses=SessionContextOut,
        summary="The summary, the last N messages after it, and `waiting`",
    )
    def get(self, request, user: str, sid: str):
        query = validated(request, ContextQuery, data=request.query_params)
        return Response(selectors.session_context(request.auth, user=user, sid=sid, **query))


class SummaryIn(StrictSerializer):
    text = serializers.CharField(
        help_text="the session's summary", max_length=limits.MAX_SUMMARY_CHARS
    )
    upto = serializers.IntegerField(help_text="the last message number it covers", min_value=1)
    by = serializers.CharField(help_text="who wrote it", max_length=limits.MAX_BY_CHARS)


class SummaryApi(RecordsRefusalsOfUser, APIView):
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=SummaryIn, responses={200: SummaryStoredOut},
                   summary="Store the session's one summary, up to a number")  # fmt: skip
    def put(self, request, user: str, sid: str):
        data = validated(request, SummaryIn)
        return Response(services.check_summary_store(request.auth, user=user, sid=sid, **data))


class ListQuery(StrictSerializer):
    limit = serializers.IntegerField(min_value=1, max_value=500, default=50)


class SessionsApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[ListQuery],
        responses=SessionsOut,
        summary="The user's sessions, the most recently active first",
    )
    def get(self, request, user: str):
        query = validated(request, ListQuery, data=request.query_params)
        found = selectors.sessions_list(request.auth, user=user, **query)
        return Response({"user": user, "sessions": found})


class SaidAboutQuery(StrictSerializer):
    entity = serializers.CharField(max_length=64)
    limit = serializers.IntegerField(min_value=1, max_value=limits.MAX_LAST, default=20)


class SaidAboutApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(
        parameters=[SaidAboutQuery],
        responses=SaidAboutOut,
        summary="The user's messages that mention an entity, newest first",
    )
    def get(self, request, user: str):
        query = validated(request, SaidAboutQuery, data=request.query_params)
        found = selectors.said_about(request.auth, user=user, **query)
        return Response({"user": user, "entity": query["entity"], "messages": found})


class SearchQuery(StrictSerializer):
    q = serializers.CharField(max_length=limits.MAX_SEARCH_CHARS)
    limit = serializers.IntegerField(min_value=1, max_value=limits.MAX_LAST, default=20)


class SearchApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(parameters=[SearchQuery], responses=SearchOut,
                   summary="Search the user's messages by words")  # fmt: skip
    def get(self, request, user: str):
        query = validated(request, SearchQuery, data=request.query_params)
        found = selectors.messages_search(
            request.auth, user=user, words=query["q"], limit=query["limit"]
        )
        return Response({"user": user, "messages": found})


# Component names unique across apps (apps/tasks has its own ContextIn).
@extend_schema_serializer(component_name="ConversationContextIn")
class ContextIn(StrictSerializer):
    user = serializers.CharField(max_length=limits.MAX_USER_CHARS)
    session = serializers.CharField(max_length=limits.MAX_SID_CHARS)
    message = serializers.CharField(trim_whitespace=False)
    k = serializers.IntegerField(min_value=1, max_value=limits.MAX_K, default=5)
    token_budget = serializers.IntegerField(
        min_value=50, max_value=limits.MAX_TOKEN_BUDGET, default=1000
    )
    role = serializers.CharField(max_length=32, default="user")
    by = serializers.CharField(max_length=limits.MAX_BY_CHARS, required=False)


class ContextApi(RecordsRefusalsOfUser, APIView):
    """Stores the message, so it needs memory:write."""

    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=ContextIn, responses={200: ConversationContextOut},
                   summary="Store a message and get context for a prompt")  # fmt: skip
    def post(self, request):
        data = validated(request, ContextIn)
        found = context.check_context(
            request.auth,
            user=data["user"],
            sid=data["session"],
            message=data["message"],
            k=data["k"],
            token_budget=data["token_budget"],
            role=data["role"],
            by=data.get("by"),
        )
        return Response(found)


class ErasureIn(StrictSerializer):
    user = serializers.CharField(help_text="the end user's id", max_length=limits.MAX_USER_CHARS)
    session = serializers.CharField(
        help_text="only this session of theirs", max_length=limits.MAX_SID_CHARS, required=False
    )


class ErasurePreviewApi(RecordsRefusalsOfUser, APIView):
    required_scope = KeyScope.ADMIN

    @extend_schema(request=ErasureIn, responses={200: ErasurePreviewOut},
                   summary="What an erasure would delete")  # fmt: skip
    def post(self, request):
        data = validated(request, ErasureIn)
        return Response(
            erasure.erasure_preview(request.auth, user=data["user"], sid=data.get("session"))
        )


class ErasureApi(RecordsRefusalsOfUser, APIView):
    required_scope = KeyScope.ADMIN

    @extend_schema(
        request=ErasureIn,
        responses={
            202: JobAcceptedOut,
            503: OpenApiResponse(ErrorOut, description=QUEUE_DOWN),
        },
        summary="Erase a user's conversations (or one session)",
    )
    def post(self, request):
        data = validated(request, ErasureIn)
        job = erasure.check_erasure_start(request.auth, user=data["user"], sid=data.get("session"))
        return job_accepted(job)
