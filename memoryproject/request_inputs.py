"""What every app's API and pages do with a request's input, defined once: query parameters
taken one value each, a serializer's checked data, the longest id."""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework import serializers

from memoryproject.api_errors import ApplicationError, StrictSerializer

# Uids are 32 hex characters (or a uuid); anything longer is no uid of ours, so it is cut before
# it reaches a query, a page or a log line.
MAX_UID_CHARS = 64
# Names, keys and agent/user ids given in a path or a query parameter.
MAX_NAME_CHARS = 200


def query_params(request) -> dict:
    """Each parameter once: a repeated one is kept as a list, so a serializer refuses it rather
    than silently taking the last."""
    params = {}
    for key, values in request.query_params.lists():
        params[key] = values[0] if len(values) == 1 else values
    return params


def validated(request, serializer_class, *, data=None, context=None) -> dict:
    """The request's body (or `data`, such as its query parameters, or an MCP tool's
    arguments), checked by `serializer_class`; a 400 with the fields otherwise (a view that mixes
    in RecordsRefusals records it). Lists of objects come back as plain dicts."""
    serializer = serializer_class(
        data=request.data if data is None else data, context=context or {}
    )
    serializer.is_valid(raise_exception=True)
    return {
        key: [dict(v) if isinstance(v, Mapping) else v for v in value]
        if isinstance(value, list)
        else value
        for key, value in serializer.validated_data.items()
    }


class KeyedDictField(serializers.DictField):
    """An object of at most `max_keys` names of at most `key_chars` characters each, refused
    beyond (naming the field and the bound); its schema says both."""

    def __init__(self, *, max_keys: int, key_chars: int, **kwargs) -> None:
        self.max_keys, self.key_chars = max_keys, key_chars
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, dict) and len(data) > self.max_keys:
            raise ApplicationError(f"{self.field_name} has at most {self.max_keys} names.",
                                   field=self.field_name, limit=self.max_keys)  # fmt: skip
        if isinstance(data, dict) and any(len(str(k)) > self.key_chars for k in data):
            raise ApplicationError(f"A name in {self.field_name} has at most {self.key_chars} "
                                   "characters.", field=self.field_name, limit=self.key_chars)  # fmt: skip
        return super().to_internal_value(data)

    def schema_bounds(self) -> dict:
        return {"maxProperties": self.max_keys, "propertyNames": {"maxLength": self.key_chars}}


class NoFieldsIn(StrictSerializer):
    """The body of an operation that takes none: empty, `{}`, or refused like any other body
    (size, UTF-8, JSON, media type by the parser; any field as unknown)."""


def body_checked(request) -> None:
    """Read and check the body of an operation that takes no fields, before it queues or
    changes anything: an unread body would skip every check of the API's parser."""
    validated(request, NoFieldsIn)


def filters_from(serializer_class, source) -> dict:
    """A page's filters, from the same serializer the API list checks strictly: a value that
    does not check is left out (its default, or None), so a hand-edited URL shows the page
    rather than a 400. Unknown parameters are ignored."""
    fields = serializer_class().fields
    data = {name: source.get(name) for name in fields if source.get(name) not in (None, "")}
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        data = {name: value for name, value in data.items() if name not in serializer.errors}
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
    return {name: serializer.validated_data.get(name) for name in fields}
