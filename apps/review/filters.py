"""The review queue's filters, defined once: the API list checks them strictly (400 with the
field), the queue page leniently (`filters_from`)."""

from __future__ import annotations

from rest_framework import serializers

from apps.graph.nodes import ENTITY_TYPES
from apps.review.selectors import QUEUE_ORDERS
from memoryproject.api_errors import StrictSerializer


class QueueFilters(StrictSerializer):
    type = serializers.ChoiceField(choices=ENTITY_TYPES, required=False)
    min_score = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
    max_score = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
    order = serializers.ChoiceField(choices=QUEUE_ORDERS, required=False, default="impact")
