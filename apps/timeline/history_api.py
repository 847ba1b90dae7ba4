"""Agent API of reads over time (history, as_of, related, pointing_at, search_history, diff),
what relied on an entry (and marking it wrong), and trust in an agent."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.tenants.models import KeyScope
from apps.timeline import selectors
from apps.timeline.impact import check_entry_invalidate, impact_of_entry, impact_of_state
from apps.timeline.rows import MAX_KEY_CHARS, parse_time
from apps.timeline.similar import MAX_LIMIT as MAX_SIMILAR
from apps.timeline.similar import similar
from apps.timeline.time_diff import diff_between
from apps.timeline.trust import agent_trust
from apps.timeline.what_if import MAX_ROWS as MAX_WHAT_IF_ROWS
from apps.timeline.what_if import what_if
from memoryproject.api_errors import ApplicationError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_NAME_CHARS, MAX_UID_CHARS, query_params, validated

NAME = {"max_length": 40}


class HistoryIn(StrictSerializer):
    last = serializers.IntegerField(required=False, min_value=1, max_value=selectors.MAX_HISTORY,
                                    default=selectors.MAX_HISTORY)  # fmt: skip


class AtIn(StrictSerializer):
    at = serializers.CharField(required=False, max_length=40)


class AsOfIn(StrictSerializer):
    at = serializers.CharField(max_length=40)


class SearchIn(StrictSerializer):
    q = serializers.CharField(max_length=500)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100, default=20)


class SimilarIn(StrictSerializer):
    through = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=900,
        help_text="relation types, comma-separated; all when empty",
    )
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SIMILAR,
                                     default=20)  # fmt: skip


class SpanIn(StrictSerializer):
    since = serializers.CharField(max_length=40)
    until = serializers.CharField(max_length=40)


class InvalidateIn(StrictSerializer):
    reason = serializers.CharField(
        help_text="why it is wrong, for the record",
        required=False,
        allow_blank=True,
        max_length=500,
    )


class WhatIfIn(StrictSerializer):
    at = serializers.CharField(max_length=40, help_text="ISO 8601 with a time zone")
    rows = serializers.ListField(
        child=serializers.DictField(), min_length=1, max_length=MAX_WHAT_IF_ROWS,
        help_text="rows of the write rule without `t` ({kind, key, values, relations})",
    )  # fmt: skip


class WhatIfOut(serializers.Serializer):
    at = serializers.CharField()
    entities = serializers.DictField(child=serializers.IntegerField())
    joins = serializers.ListField(child=serializers.DictField())
    splits = serializers.ListField(child=serializers.DictField())
    importance = serializers.ListField(child=serializers.DictField())


class ResultsOut(serializers.Serializer):
    results = serializers.ListField(child=serializers.DictField())


class StateOut(serializers.Serializer):
    state = serializers.DictField(allow_null=True)


class ChangedOut(serializers.Serializer):
    kind = serializers.CharField(allow_null=True)
    key = serializers.CharField(allow_null=True)
    changes = serializers.DictField(child=serializers.DictField(),
                                    help_text="{value: {before, after}}")  # fmt: skip


class CreatedOut(serializers.Serializer):
    kind = serializers.CharField(allow_null=True)
    key = serializers.CharField(allow_null=True)
    values = serializers.DictField()


class WindowOut(serializers.Serializer):
    source = serializers.CharField(allow_null=True)
    kind = serializers.CharField(allow_null=True)
    relation = serializers.CharField(allow_null=True)
    target = serializers.CharField(allow_null=True)
    at = serializers.CharField()
    by = serializers.CharField(allow_null=True)


class DiffOut(serializers.Serializer):
    since = serializers.CharField()
    until = serializers.CharField()
    created = CreatedOut(many=True)
    changed = ChangedOut(many=True)
    opened = WindowOut(many=True)
    closed = WindowOut(many=True)
    truncated = serializers.BooleanField()


class ImpactEntryOut(serializers.Serializer):
    id = serializers.CharField()
    episode = serializers.CharField(allow_null=True)
    seq = serializers.IntegerField(allow_null=True)
    type = serializers.CharField(allow_null=True)
    by = serializers.CharField(allow_null=True)
    text = serializers.CharField(allow_null=True, allow_blank=True)
    values = serializers.DictField(help_text="the entry's values as recorded")
    invalid = serializers.BooleanField()
    invalidated_by = serializers.CharField(allow_null=True)
    invalidated_at = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)


class ImpactStateOut(serializers.Serializer):
    state = serializers.CharField()
    kind = serializers.CharField(allow_null=True)
    key = serializers.CharField(allow_null=True)
    valid_from = serializers.CharField(allow_null=True)
    valid_to = serializers.CharField(allow_null=True)
    by = serializers.CharField(allow_null=True)


class LessonAtRiskOut(serializers.Serializer):
    key = serializers.CharField()
    statement = serializers.CharField(allow_null=True)
    support = serializers.IntegerField(allow_null=True)
    against = serializers.IntegerField(allow_null=True)
    left = serializers.IntegerField()
    at_risk = serializers.BooleanField(allow_null=True)


class PlaybookAtRiskOut(serializers.Serializer):
    key = serializers.CharField()
    version = serializers.IntegerField()
    left = serializers.IntegerField()
    at_risk = serializers.BooleanField()


class ImpactOut(serializers.Serializer):
    entry = ImpactEntryOut()
    states = ImpactStateOut(many=True)
    lessons = LessonAtRiskOut(many=True)
    playbooks = PlaybookAtRiskOut(many=True)


class StateHeadOut(ImpactStateOut):
    entry = serializers.CharField(allow_null=True)


class OpenedWindowOut(serializers.Serializer):
    rel = serializers.CharField()
    target = serializers.CharField(allow_null=True)
    valid_to = serializers.CharField(allow_null=True)


class StateImpactOut(serializers.Serializer):
    state = StateHeadOut()
    relations = OpenedWindowOut(many=True, help_text="the relation windows the State opened")
    entry = ImpactOut(allow_null=True, help_text="what rests on its entry; null without one")


class InvalidateOut(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=["invalidated", "exists"])
    impact = ImpactOut()


# `for` is a Python keyword, so the class is built with type().
TrustRateOut = type("TrustRateOut", (serializers.Serializer,), {
    "for": serializers.IntegerField(), "against": serializers.IntegerField(),
    "rate": serializers.FloatField(), "__module__": __name__,
})  # fmt: skip


class TrustOut(serializers.Serializer):
    agent = serializers.CharField()
    score = serializers.FloatField(allow_null=True, help_text="null without evidence")
    rates = serializers.DictField(child=TrustRateOut(),
                                  help_text="entries, episodes, runs, versions")  # fmt: skip


def _at(query: dict, name: str = "at"):
    return parse_time(query[name], field=name) if query.get(name) else None


class Reader(APIView):
    required_scope = KeyScope.MEMORY_READ


class HistoryApi(Reader):
    @extend_schema(parameters=[HistoryIn], responses=ResultsOut,
                   summary="The States of an entity, oldest first (the last `last`)")  # fmt: skip
    def get(self, request, kind: str, key: str):
        query = validated(request, HistoryIn, data=query_params(request))
        rows = selectors.history(request.auth, kind=kind[:40], key=key[:MAX_KEY_CHARS],
                                 last=query["last"])  # fmt: skip
        return Response({"results": rows})


class AsOfApi(Reader):
    @extend_schema(parameters=[AsOfIn], responses=StateOut,
                   summary="The State that held at a time (null before the first)")  # fmt: skip
    def get(self, request, kind: str, key: str):
        query = validated(request, AsOfIn, data=query_params(request))
        state = selectors.as_of(request.auth, kind=kind[:40], key=key[:MAX_KEY_CHARS],
                                at=_at(query))  # fmt: skip
        return Response({"state": state})


class RelatedApi(Reader):
    @extend_schema(parameters=[AtIn], responses=ResultsOut,
                   summary="Targets of a relation, now or at a time")  # fmt: skip
    def get(self, request, kind: str, key: str, rel: str):
        query = validated(request, AtIn, data=query_params(request))
        keys = selectors.related(request.auth, kind=kind[:40], key=key[:MAX_KEY_CHARS],
                                 rel=rel[:40], at=_at(query))  # fmt: skip
        return Response({"results": keys})


class PointingAtApi(Reader):
    @extend_schema(parameters=[AtIn], responses=ResultsOut,
                   summary="Entities whose relation points at this one, now or at a time")  # fmt: skip
    def get(self, request, kind: str, key: str, rel: str):
        query = validated(request, AtIn, data=query_params(request))
        rows = selectors.pointing_at(request.auth, kind=kind[:40], key=key[:MAX_KEY_CHARS],
                                     rel=rel[:40], at=_at(query))  # fmt: skip
        return Response({"results": rows})


class SearchHistoryApi(Reader):
    @extend_schema(parameters=[SearchIn], responses=ResultsOut,
                   summary="Past States of a kind by the words of their text")  # fmt: skip
    def get(self, request, kind: str):
        query = validated(request, SearchIn, data=query_params(request))
        rows = selectors.search_history(request.auth, kind=kind[:40], q=query["q"],
                                        limit=query["limit"])  # fmt: skip
        return Response({"results": rows})


class SimilarApi(Reader):
    @extend_schema(parameters=[SimilarIn], responses=ResultsOut,
                   summary="Entities of the kind ranked by the relation targets they share "
                           "with this one (rare targets weigh more)")  # fmt: skip
    def get(self, request, kind: str, key: str):
        query = validated(request, SimilarIn, data=query_params(request))
        through = [n.strip() for n in query.get("through", "").split(",") if n.strip()]
        rows = similar(request.auth, kind=kind[:40], key=key[:MAX_KEY_CHARS],
                       through=through, limit=query["limit"])  # fmt: skip
        return Response({"results": rows})


class DiffApi(Reader):
    @extend_schema(parameters=[SpanIn], responses=DiffOut, summary="What changed between two times")
    def get(self, request):
        query = validated(request, SpanIn, data=query_params(request))
        since, until = _at(query, "since"), _at(query, "until")
        if not since < until:
            raise ApplicationError("since comes before until.", field="until")
        return Response(diff_between(request.auth, since=since, until=until))


class WhatIfApi(Reader):
    @extend_schema(request=WhatIfIn, responses=WhatIfOut,
                   summary="Rows laid over a time, not stored: groups that join or split, "
                           "importance that changes")  # fmt: skip
    def post(self, request):
        data = validated(request, WhatIfIn)
        return Response(what_if(request.auth, at=_at(data), rows=data["rows"]))


class EntryImpactApi(Reader):
    @extend_schema(responses=ImpactOut, summary="What relied on an episode entry")
    def get(self, request, uid: str):
        return Response(impact_of_entry(request.auth, entry=uid[:MAX_UID_CHARS]))


class StateImpactApi(Reader):
    @extend_schema(responses=StateImpactOut,
                   summary="What relied on a State: the windows it opened, its entry's impact")  # fmt: skip
    def get(self, request, uid: str):
        return Response(impact_of_state(request.auth, state=uid[:MAX_UID_CHARS]))


class EntryInvalidateApi(RecordsRefusals, APIView):
    refusal_kind = "invalidate"
    required_scope = KeyScope.REVIEW

    @extend_schema(request=InvalidateIn, responses={201: InvalidateOut, 200: InvalidateOut},
                   summary="Mark an entry wrong (never changed; 200 if it was already)")  # fmt: skip
    def post(self, request, uid: str):
        data = validated(request, InvalidateIn)
        receipt = check_entry_invalidate(request.auth, entry=uid[:MAX_UID_CHARS], **data)
        return Response(receipt, status=201 if receipt["status"] == "invalidated" else 200)


class TrustApi(Reader):
    @extend_schema(responses=TrustOut,
                   summary="How far an agent's work held: four smoothed rates and their mean")  # fmt: skip
    def get(self, request, name: str):
        return Response(agent_trust(request.auth, agent=name[:MAX_NAME_CHARS]))
