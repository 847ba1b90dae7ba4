"""API of lessons: learn one, weigh it with evidence, read them (promotion is in promotion.py)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.lessons import selectors
from apps.lessons.api import ReadOrWrite
from apps.lessons.services import lessons as lesson_services
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import validated

ID = {"max_length": 120}


class LessonIn(StrictSerializer):
    key = serializers.CharField(help_text="your id for the lesson; the same key revises it", **ID)
    statement = serializers.CharField(help_text="what was learnt, one sentence", max_length=2000)
    supported_by = serializers.ListField(
        help_text="the episodes (ids) that show it",
        child=serializers.CharField(max_length=200),
        min_length=1,
        max_length=100,
    )
    about = serializers.ListField(
        help_text="the entities (uids) it is about",
        child=serializers.CharField(max_length=200),
        required=False,
        max_length=100,
    )


class LessonReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.CharField()
    weight = serializers.IntegerField()


class LessonRowOut(serializers.Serializer):
    id = serializers.CharField()
    statement = serializers.CharField()
    weight = serializers.IntegerField()
    support = serializers.IntegerField(allow_null=True)
    against = serializers.IntegerField(allow_null=True)
    helped = serializers.IntegerField(allow_null=True)
    failed = serializers.IntegerField(allow_null=True)
    touched_at = serializers.CharField(allow_null=True)


class LessonListOut(serializers.Serializer):
    results = LessonRowOut(many=True)


class LessonEvidenceOut(serializers.Serializer):
    episode = serializers.CharField()
    title = serializers.CharField(allow_null=True, allow_blank=True)
    at = serializers.CharField(allow_null=True)
    by = serializers.CharField(allow_null=True)
    side = serializers.ChoiceField(choices=["for", "against", "helped", "failed"])


class LessonAboutOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField(allow_null=True)


class LessonOut(LessonRowOut):
    by = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    evidence = LessonEvidenceOut(many=True)
    about = LessonAboutOut(many=True)


class LessonsQuery(StrictSerializer):
    about = serializers.CharField(required=False, max_length=200)
    at_least = serializers.IntegerField(required=False, min_value=-1_000_000, max_value=1_000_000)
    since = serializers.DateTimeField(required=False)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=200)


class LessonsApi(RecordsRefusals, ReadOrWrite, APIView):
    refusal_kind = "lesson"

    @extend_schema(request=LessonIn, responses={201: LessonReceiptOut, 200: LessonReceiptOut},
                   summary="Learn a lesson (200 if it was learned already)")  # fmt: skip
    def post(self, request):
        data = validated(request, LessonIn)
        receipt = lesson_services.check_lesson_learn(request.auth, **data)
        return Response(receipt, status=201 if receipt["status"] == "learned" else 200)

    @extend_schema(
        parameters=[LessonsQuery],
        responses=LessonListOut,
        summary="Lessons at or above the threshold; ?about=, ?at_least=, ?since=",
    )
    def get(self, request):
        query = validated(request, LessonsQuery, data=request.query_params)
        return Response({"results": selectors.lessons_list(request.auth, **query)})


class LessonDetailApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses=LessonOut, summary="A lesson with its evidence and weight")
    def get(self, request, key: str):
        lesson = selectors.lesson_get(request.auth, key=key)
        if lesson is None:
            raise NotFoundError("No such lesson.")
        return Response(lesson)


class LessonEvidenceIn(StrictSerializer):
    episode = serializers.CharField(help_text="the episode (id) that bears on it", max_length=200)
    agrees = serializers.BooleanField(
        help_text="whether the episode agrees with the lesson",
        required=False,
        allow_null=True,
        default=None,
    )
    helped = serializers.BooleanField(
        help_text="whether following it helped", required=False, allow_null=True, default=None
    )


class LessonEvidenceApi(RecordsRefusals, APIView):
    refusal_kind = "lesson"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(
        request=LessonEvidenceIn,
        responses=LessonReceiptOut,
        summary="An episode for or against it, or a use",
    )
    def post(self, request, key: str):
        data = validated(request, LessonEvidenceIn)
        return Response(lesson_services.check_lesson_weigh(request.auth, key=key, **data))
