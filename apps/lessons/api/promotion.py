"""API of promotion: run a rule on ended episodes, try a rule without writing, and the rules a
tenant declares in data (saved as versions, one of them active)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.lessons import selectors
from apps.lessons.api import ReadOrWrite
from apps.lessons.services.promotion import Receipts, check_promote, check_promotion_try
from apps.lessons.services.promotion_rules import (
    check_promotion_rule_activate,
    check_promotion_rule_save,
)
from apps.tenants.models import KeyScope
from memoryproject.api_errors import NotFoundError, StrictSerializer
from memoryproject.refusals import RecordsRefusals
from memoryproject.request_inputs import validated


class PromoteIn(StrictSerializer):
    rule = serializers.CharField(
        help_text="the declared rule to promote by (its name)", max_length=120
    )
    at_least = serializers.IntegerField(
        required=False, min_value=1, max_value=1000,
        help_text="episodes that must agree; else the rule's own, else the tenant's playbook_needs",
    )  # fmt: skip
    limit = serializers.IntegerField(
        help_text="the most episodes read", required=False, min_value=1, max_value=200
    )


class PromotionReceiptOut(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=list(Receipts.ORDER))
    reason = serializers.CharField(required=False)
    weight = serializers.FloatField(required=False)
    count = serializers.IntegerField(required=False, help_text="episodes agreeing so far")
    version = serializers.IntegerField(required=False, help_text="a playbook's, once written")


class PromotionRunOut(serializers.Serializer):
    id = serializers.CharField()
    episode = serializers.CharField()
    status = serializers.CharField()
    reason = serializers.CharField(required=False)
    enabled = serializers.BooleanField(required=False)


class PromotionOut(serializers.Serializer):
    episodes = serializers.IntegerField(help_text="episodes the rule read in this call")
    at_least = serializers.IntegerField(help_text="episodes that had to agree")
    lessons = PromotionReceiptOut(many=True)
    playbooks = PromotionReceiptOut(many=True)
    runs = PromotionRunOut(many=True)


class PromoteApi(RecordsRefusals, APIView):
    refusal_kind = "promotion"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=PromoteIn, responses={200: PromotionOut},
                   summary="Promote what repeats in ended episodes (a rule)")  # fmt: skip
    def post(self, request):
        data = validated(request, PromoteIn)
        return Response(check_promote(request.auth, **data))


class PromotionTryIn(StrictSerializer):
    rule = serializers.JSONField(help_text="a declared rule (docs/reference/lessons.md)")
    at_least = serializers.IntegerField(
        help_text="episodes that must agree", required=False, min_value=1, max_value=1000
    )
    limit = serializers.IntegerField(
        help_text="the most episodes read", required=False, min_value=1, max_value=200
    )


class ShownOut(serializers.Serializer):
    episode = serializers.CharField()
    claims = serializers.ListField(child=serializers.JSONField())


class PromotionTryOut(PromotionOut):
    dry_run = serializers.BooleanField()
    shown = ShownOut(many=True, help_text="what each of the first 20 episodes showed")


class PromotionTryApi(RecordsRefusals, APIView):
    refusal_kind = "promotion_rule"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=PromotionTryIn, responses={200: PromotionTryOut},
                   summary="Try a rule on ended episodes: the receipts, nothing written")  # fmt: skip
    def post(self, request):
        data = validated(request, PromotionTryIn)
        return Response(check_promotion_try(request.auth, **data))


class RuleIn(StrictSerializer):
    rule = serializers.JSONField(help_text="a declared rule (docs/reference/lessons.md)")


class RuleReceiptOut(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["saved", "unchanged", "active"])


class RuleRowOut(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.IntegerField()
    versions = serializers.IntegerField(required=False)
    active = serializers.BooleanField(required=False)
    by = serializers.CharField(allow_null=True)
    created_at = serializers.CharField()
    rule = serializers.JSONField()


class RuleListOut(serializers.Serializer):
    results = RuleRowOut(many=True)


class RuleVersionsOut(serializers.Serializer):
    name = serializers.CharField()
    active = serializers.IntegerField(allow_null=True)
    versions = RuleRowOut(many=True)


class PromotionRulesApi(ReadOrWrite, RecordsRefusals, APIView):
    refusal_kind = "promotion_rule"

    @extend_schema(responses={200: RuleListOut}, summary="The active version of each rule")
    def get(self, request):
        return Response({"results": selectors.promotion_rules_list(request.auth)})

    @extend_schema(request=RuleIn, responses={201: RuleReceiptOut, 200: RuleReceiptOut},
                   summary="Save a rule as its next version, made active")  # fmt: skip
    def post(self, request):
        data = validated(request, RuleIn)
        receipt = check_promotion_rule_save(request.auth, rule=data["rule"])
        return Response(receipt, status=201 if receipt["status"] == "saved" else 200)


class PromotionRuleApi(APIView):
    required_scope = KeyScope.MEMORY_READ

    @extend_schema(responses={200: RuleVersionsOut}, summary="A rule with all its versions")
    def get(self, request, name):
        found = selectors.promotion_rule_versions(request.auth, name=name)
        if found is None:
            raise NotFoundError("No such rule.", field="name")
        return Response(found)


class ActivateIn(StrictSerializer):
    version = serializers.IntegerField(help_text="the version to make active", min_value=1)


class PromotionRuleActivateApi(RecordsRefusals, APIView):
    refusal_kind = "promotion_rule"
    required_scope = KeyScope.MEMORY_WRITE

    @extend_schema(request=ActivateIn, responses={200: RuleReceiptOut},
                   summary="Make one stored version of a rule the active one")  # fmt: skip
    def post(self, request, name):
        data = validated(request, ActivateIn)
        return Response(check_promotion_rule_activate(request.auth, name=name, **data))
