"""The API's error shape for a broken field: `field` names it however deep it sits
(`entities[0].name`) and `limit` gives the bound it broke; `fields` keeps DRF's whole tree."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from memoryproject.api_errors import StrictSerializer, exception_handler


class Part(StrictSerializer):
    name = serializers.CharField(max_length=5)
    tags = serializers.ListField(child=serializers.CharField(max_length=3), max_length=2,
                                 required=False)  # fmt: skip


class Whole(StrictSerializer):
    title = serializers.CharField(max_length=4, required=False)
    parts = serializers.ListField(child=Part(), required=False)
    items = Part(many=True, required=False)
    values = serializers.DictField(child=serializers.IntegerField(max_value=9), required=False)


def error_of(data) -> dict:
    with pytest.raises(serializers.ValidationError) as refused:
        Whole(data=data).is_valid(raise_exception=True)
    return exception_handler(refused.value, {}).data["error"]


@pytest.mark.parametrize(
    "data,field,limit",
    [
        ({"title": "too long"}, "title", 4),
        ({"parts": [{"name": "ok"}, {"name": "far too long"}]}, "parts[1].name", 5),
        ({"parts": [{"name": "ok", "tags": ["a", "b", "c"]}]}, "parts[0].tags", 2),
        ({"parts": [{"name": "ok", "tags": ["long"]}]}, "parts[0].tags[0]", 3),
        ({"items": [{"name": "ok"}, {"name": "far too long"}]}, "items[1].name", 5),
        ({"values": {"a": 1, "b": 10}}, "values.b", 9),
        ({"parts": [{"name": "ok", "colour": "red"}]}, "parts[0].colour", None),
    ],
)
def test_one_broken_field_is_named_by_its_path_with_its_limit(data, field, limit):
    error = error_of(data)
    assert error["code"] == "invalid" and error["field"] == field
    assert error.get("limit") == limit
    assert next(iter(data)) in error["fields"]  # the whole tree stays


def test_several_problems_name_no_single_field():
    error = error_of({"parts": [{"name": "far too long"}, {"name": "also too long"}]})
    assert error["field"] == "parts" and "limit" not in error  # the top-level field, as before
    error = error_of({"title": "too long", "values": {"b": 10}})
    assert "field" not in error and "limit" not in error


def test_the_facts_api_names_a_nested_field_and_its_limit(api_client):
    body = {"entities": [{"name": "Ada", "type": "Person"}, {"name": "x" * 201, "type": "Person"}]}
    response = api_client.post("/api/v1/facts", body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["limit"]) == ("entities[1].name", 200), error
