"""The OpenAPI schema of /api/v1/ (drf-spectacular): what every operation may answer.

The view's own `extend_schema` says its success bodies, query parameters and request; this class
adds what holds for every operation: the API key, and the errors in the one error shape
(memoryproject.api_errors) with the statuses each kind of operation can answer.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

ERRORS = {
    400: "The input is invalid: `field` names it, `limit` the bound it broke.",
    401: "No API key, or not a valid one.",
    403: "The key lacks the scope this operation needs.",
    404: "No such object in the caller's tenant (or no such route).",
    409: "The write conflicts with the object's state.",
    413: "The request body is larger than MAX_REQUEST_BYTES.",
    414: "The URL is longer than MAX_URL_CHARS.",
    429: "Too many requests from this key or address; see Retry-After.",
    503: "The graph database has not enough free memory for this now; ask again later.",
}


class ErrorDetailOut(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(required=False)
    field = serializers.CharField(required=False)
    limit = serializers.JSONField(required=False)


class ErrorOut(serializers.Serializer):
    error = ErrorDetailOut()


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "apps.tenants.auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Api-Key <key>` (or the key alone in the `X-Api-Key` header).",
        }


class DocumentedAutoSchema(AutoSchema):
    def _get_serializer(self):
        # Our APIViews declare their bodies with extend_schema; without one there is no guess.
        if not hasattr(self.view, "serializer_class"):
            return None
        return super()._get_serializer()

    def get_response_serializers(self):
        declared = super().get_response_serializers()
        return OpenApiTypes.OBJECT if declared is None else declared

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        # Bounds a field checks that drf-spectacular does not write (a time's length, a map's,
        # a list of objects').
        bounds = field.schema_bounds() if hasattr(field, "schema_bounds") else {}
        if isinstance(field, serializers.ListSerializer) and field.max_length is not None:
            bounds["maxItems"] = field.max_length
        return {**schema, **bounds} if bounds and isinstance(schema, dict) else schema

    def get_operation_id(self) -> str:
        # A list and a detail route share their words; the detail one ends in a parameter.
        words = [t.replace("-", "_") for t in self._tokenize_path()] or ["root"]
        action = self.method.lower()
        if self.method == "GET":
            action = "get" if self.path.rstrip("/").endswith("}") else "list"
        return "_".join([action, *words])

    def error_statuses(self) -> list[int]:
        statuses = [400, 401, 403, 414, 429]
        if "{" in self.path or self.method != "GET":
            statuses.append(404)
        if self.method in ("POST", "PUT", "PATCH"):
            statuses += [409, 413]
        if self.path.startswith("/api/v1/graph/"):
            statuses.append(503)  # the whole-graph algorithms (apps/insights)
        return sorted(statuses)

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response" or not self.path.startswith("/api/v1/"):
            return responses
        for status in self.error_statuses():
            answer = OpenApiResponse(ErrorOut, description=ERRORS[status])
            responses.setdefault(str(status), self._get_response_for_code(answer, str(status)))
        return responses
