"""Agent API of cluster review: list the clusters of pending pairs, read one, decide it (accept,
split or reject) in one request, undo that. The same services as the reviewer pages; keys need
the 'review' scope."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.review import cluster_decisions, cluster_selectors
from apps.review.api import PairEvidenceRowOut, PairOtherOut
from apps.review.cluster_finding import MAX_CLUSTER_ID_CHARS, MAX_MEMBERS
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import MAX_UID_CHARS, body_checked, query_params, validated

MAX_LIMIT = 200
ID_PATH = [OpenApiParameter("cluster_id", str, OpenApiParameter.PATH,
                            description="`<smallest member uid>.<digest of the member uids>`")]  # fmt: skip


class ClusterListIn(StrictSerializer):
    offset = serializers.IntegerField(required=False, min_value=0, max_value=100_000, default=0)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT, default=50)


class ClusterRowOut(serializers.Serializer):
    id = serializers.CharField()
    size = serializers.IntegerField()
    members = PairOtherOut(many=True)
    pairs = serializers.IntegerField(help_text="pending pairs among the members")
    component_size = serializers.IntegerField(
        help_text="members of the whole component; more than size when it was cut"
    )
    top_score = serializers.FloatField()


class ClusterListOut(serializers.Serializer):
    clusters = serializers.IntegerField(help_text="clusters of 3 members or more")
    too_large = serializers.IntegerField(help_text="components too large to cut, left out")
    truncated = serializers.BooleanField(help_text="more pending pairs than one listing reads")
    results = ClusterRowOut(many=True)


class ClusterListApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=[ClusterListIn], responses=ClusterListOut,
                   summary="Clusters of pending pairs (3 to 12 members), largest first")  # fmt: skip
    def get(self, request):
        v = validated(request, ClusterListIn, data=query_params(request))
        listing = cluster_selectors.pending_clusters(
            request.auth, offset=v["offset"], limit=v["limit"]
        )
        return Response(ClusterListOut(listing).data)


class ClusterMentionOut(serializers.Serializer):
    surface = serializers.CharField(allow_null=True)
    sentence = serializers.CharField(allow_blank=True)
    document_uid = serializers.CharField(allow_null=True)
    document_title = serializers.CharField(allow_blank=True)


class ClusterDisagreeOut(serializers.Serializer):
    name = serializers.CharField(allow_null=True)
    value = serializers.JSONField()


class ClusterValueOut(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.JSONField()
    conflicts = serializers.ListField(child=serializers.JSONField(),
                                      help_text="other values this member holds for the key")  # fmt: skip
    learned = serializers.BooleanField()
    disagree = ClusterDisagreeOut(many=True, help_text="other members holding another value")


class ClusterEvidenceOut(serializers.Serializer):
    pair_uid = serializers.CharField()
    other_uid = serializers.CharField()
    other_name = serializers.CharField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    words_for = serializers.ListField(child=serializers.CharField(),
                                      help_text="the strongest comparisons for, in words")  # fmt: skip
    words_against = serializers.ListField(child=serializers.CharField())


class ClusterMemberOut(serializers.Serializer):
    uid = serializers.CharField()
    name = serializers.CharField(allow_null=True)
    type = serializers.CharField(allow_null=True)
    description = serializers.CharField(allow_null=True, allow_blank=True)
    aliases = serializers.ListField(child=serializers.CharField())
    created_at = serializers.CharField(allow_null=True)
    mention_count = serializers.IntegerField()
    relation_count = serializers.IntegerField()
    document_count = serializers.IntegerField()
    mentions = ClusterMentionOut(many=True)
    value_rows = ClusterValueOut(many=True)
    conflicting = serializers.BooleanField(help_text="holds a value another member contradicts")
    not_same = serializers.ListField(child=serializers.CharField(allow_null=True),
                                     help_text="members decided not the same as this one")  # fmt: skip
    survivor = serializers.BooleanField(help_text="survives an accept")
    evidence = ClusterEvidenceOut(many=True, help_text="its pending pairs with other members")


class ClusterPairOut(serializers.Serializer):
    uid = serializers.CharField()
    a = serializers.CharField()
    b = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    reason = serializers.CharField(allow_null=True, allow_blank=True)
    evidence = PairEvidenceRowOut(many=True)


class ClusterDetailOut(serializers.Serializer):
    id = serializers.CharField()
    size = serializers.IntegerField()
    component_size = serializers.IntegerField()
    survivor_uid = serializers.CharField()
    members = ClusterMemberOut(many=True)
    pairs = ClusterPairOut(many=True)
    not_same = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))


class ClusterDetailApi(APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=ID_PATH, responses=ClusterDetailOut,
                   summary="One cluster: its members side by side, evidence for and against")  # fmt: skip
    def get(self, request, cluster_id: str):
        cluster = cluster_selectors.cluster_detail(
            request.auth, cluster_id=cluster_id[:MAX_CLUSTER_ID_CHARS]
        )
        if cluster is None:
            raise NotFoundError("No such cluster (or it changed: list the clusters again).")
        return Response(ClusterDetailOut(cluster).data)


UIDS = serializers.ListField(
    child=serializers.CharField(max_length=MAX_UID_CHARS), min_length=1, max_length=MAX_MEMBERS
)


class ClusterDecisionIn(StrictSerializer):
    decision = serializers.ChoiceField(
        choices=cluster_decisions.DECISIONS,
        help_text="accept: all one thing; split: the groups given; reject: none the same",
    )
    groups = serializers.ListField(
        child=UIDS, required=False, min_length=2, max_length=MAX_MEMBERS,
        help_text="split only: every member in exactly one group",
    )  # fmt: skip
    expected_members = serializers.ListField(
        child=serializers.CharField(max_length=MAX_UID_CHARS), required=False,
        max_length=MAX_MEMBERS, help_text="the members as read; 409 if the cluster changed",
    )  # fmt: skip

    def validate(self, data):
        if (data["decision"] == "split") != ("groups" in data):
            raise serializers.ValidationError({"groups": ["Given for a split, and only then."]})
        return data


class ClusterMergeOut(serializers.Serializer):
    merge_uid = serializers.CharField()
    survivor_uid = serializers.CharField()
    merged_uid = serializers.CharField()
    survivor_name = serializers.CharField(allow_null=True)
    merged_name = serializers.CharField(allow_null=True)
    moved = serializers.IntegerField()


class ClusterDecisionOut(serializers.Serializer):
    decision_uid = serializers.CharField()
    cluster_id = serializers.CharField()
    decision = serializers.CharField()
    members = serializers.ListField(child=serializers.CharField())
    groups = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    survivors = serializers.ListField(child=serializers.CharField())
    merges = ClusterMergeOut(many=True)
    rejected = serializers.ListField(child=serializers.CharField(),
                                     help_text="pending pairs closed as not the same")  # fmt: skip
    not_same = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    made = serializers.ListField(child=serializers.CharField(),
                                 help_text="pairs made to join a group, merged at once")  # fmt: skip
    created_at = serializers.CharField()


class ClusterDecisionApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=ID_PATH, request=ClusterDecisionIn, responses=ClusterDecisionOut,
                   summary="Decide a cluster in one transaction (409 if it changed or was decided)")  # fmt: skip
    def post(self, request, cluster_id: str):
        v = validated(request, ClusterDecisionIn)
        result = cluster_decisions.check_cluster_decide(
            request.auth, cluster_id=cluster_id[:MAX_CLUSTER_ID_CHARS], decision=v["decision"],
            groups=v.get("groups"), expected=v.get("expected_members"),
        )  # fmt: skip
        return Response(ClusterDecisionOut(result).data)


class ClusterUndoOut(serializers.Serializer):
    decision_uid = serializers.CharField()
    cluster_id = serializers.CharField()
    decision = serializers.CharField()
    members = serializers.ListField(child=serializers.CharField())
    merges_undone = serializers.ListField(child=serializers.CharField())
    pending_again = serializers.ListField(child=serializers.CharField())
    undone_at = serializers.CharField()


class ClusterUndoApi(RecordsRefusals, APIView):
    required_scope = KeyScope.REVIEW

    @extend_schema(parameters=ID_PATH, request=None, responses=ClusterUndoOut,
                   summary="Undo the cluster's latest decision, all of it (409 if built on)")  # fmt: skip
    def post(self, request, cluster_id: str):
        body_checked(request)
        result = cluster_decisions.check_cluster_undo(
            request.auth, cluster_id=cluster_id[:MAX_CLUSTER_ID_CHARS]
        )
        return Response(ClusterUndoOut(result).data)
