"""The output schema of every tool: written from the REST route's output serializer where it has
one (the same answer, the same fields), else by hand for the few answers built here. The SDK's
client checks every structured answer against it, and so do the tests."""

from __future__ import annotations

from rest_framework import serializers

_SCALARS = (
    (serializers.BooleanField, "boolean"),
    (serializers.IntegerField, "integer"),
    (serializers.FloatField, "number"),
    (serializers.DecimalField, "number"),
    (serializers.DictField, "object"),
    (serializers.JSONField, None),  # any JSON value
    (serializers.CharField, "string"),
    (serializers.DateTimeField, "string"),
    (serializers.DateField, "string"),
)


def field_schema(field: serializers.Field) -> dict:
    """One serializer field as JSON Schema. Every value may be null: DRF renders a missing
    attribute as null whatever the field says."""
    if isinstance(field, serializers.ListSerializer):
        return {"type": ["array", "null"], "items": field_schema(field.child)}
    if isinstance(field, serializers.Serializer):
        return {**serializer_schema(type(field), fields=field.fields), "type": ["object", "null"]}
    if isinstance(field, serializers.ListField):
        return {"type": ["array", "null"], "items": field_schema(field.child)}
    if isinstance(field, serializers.ChoiceField):
        return {"enum": [*field.choices, None]}
    if isinstance(field, serializers.SerializerMethodField | serializers.ReadOnlyField):
        return {}
    for kind, name in _SCALARS:
        if isinstance(field, kind):
            return {} if name is None else {"type": [name, "null"]}
    return {}


def serializer_schema(serializer_class: type[serializers.Serializer], *, fields=None) -> dict:
    """An object schema of an output serializer's fields. Extra keys stay allowed: an answer
    that was cut says so in `truncated`, and a later release may add a field."""
    fields = fields if fields is not None else serializer_class().fields
    return {"type": "object",
            "properties": {name: field_schema(field) for name, field in fields.items()}}  # fmt: skip


def obj(**properties: dict) -> dict:
    """An object answer with these keys, each present."""
    return {"type": "object", "properties": properties, "required": sorted(properties)}


ANY = {}
ROWS = obj(results={"type": "array", "items": {"type": "object"}})
OBJECT = {"type": "object"}
