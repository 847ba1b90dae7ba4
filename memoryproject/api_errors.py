"""One application error type and one JSON error shape for every API error:

    {"error": {"code": "...", "message": "...", "fields": {"content": ["..."]},
               "field": "content", "limit": 1000000}}

`fields` appears for validation errors, `field` and `limit` where one field broke one limit.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApplicationError(Exception):
    """A refusal by a service: the API maps it to `status`; pages show `message`."""

    status = 400

    def __init__(
        self,
        message: str,
        *,
        code: str = "invalid",
        field: str | None = None,
        limit: Any = None,
        status: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        self.limit = limit
        self.extra = extra or {}
        if status is not None:
            self.status = status


class NotFoundError(ApplicationError):
    """Also what another tenant's object looks like: existence does not leak."""

    status = 404

    def __init__(self, message: str = "Not found.", **kwargs: Any) -> None:
        super().__init__(message, code="not_found", **kwargs)


class PermissionDeniedError(ApplicationError):
    """The caller's role or key lacks the permission: one code, whichever service refuses."""

    status = 403

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(message, code="permission_denied", **kwargs)


class ConflictError(ApplicationError):
    status = 409

    def __init__(self, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("code", "conflict")
        super().__init__(message, **kwargs)


def error_body(
    code: str, message: str, *, fields=None, field=None, limit=None, extra=None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if fields:
        error["fields"] = fields
    if field is not None:
        error["field"] = field
    if limit is not None:
        error["limit"] = limit
    if extra:
        error.update(extra)
    return {"error": error}


def exception_handler(exc, context):
    if isinstance(exc, ApplicationError):
        body = error_body(exc.code, exc.message, field=exc.field, limit=exc.limit, extra=exc.extra)
        return Response(body, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        first = next(iter(fields), None)
        response.data = error_body(
            "invalid",
            "The request is invalid; see fields.",
            fields=fields,
            field=first if len(fields) == 1 and first != "non_field_errors" else None,
            limit=getattr(exc, "limit", None),
        )
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = getattr(exc, "default_code", "error")
        response.data = error_body(str(code), str(detail))
    return response


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, instead of silently dropping them."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)
