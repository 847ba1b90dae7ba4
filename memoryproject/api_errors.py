"""One application error type and one JSON error shape for every API error:

    {"error": {"code": "...", "message": "...", "fields": {"content": ["..."]},
               "field": "content", "limit": 1000000}}

`fields` appears for validation errors, `field` and `limit` where one field broke one limit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings


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
    # Imported here: rest_framework.views loads the parser setting, whose parser imports this.
    from rest_framework.views import exception_handler as drf_exception_handler

    if isinstance(exc, ApplicationError):
        body = error_body(exc.code, exc.message, field=exc.field, limit=exc.limit, extra=exc.extra)
        return Response(body, status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = error_body(
            "too_large", f"The request body is larger than {limit} bytes.", field="body",
            limit=limit,
        )  # fmt: skip
        return Response(body, status=413)
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
            field=getattr(exc, "field", None)
            or (first if len(fields) == 1 and first != "non_field_errors" else None),
            limit=getattr(exc, "limit", None),
        )
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = getattr(exc, "default_code", "error")
        response.data = error_body(str(code), str(detail))
    return response


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# DRF's codes of a broken bound, each the name of the field attribute that holds the bound.
BOUND_CODES = {"max_value", "min_value", "max_length", "min_length"}
NUMBER_FIELDS = (serializers.IntegerField, serializers.FloatField, serializers.DecimalField)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, instead of silently dropping them, and integers the
    graph cannot store (beyond signed 64 bits) even where a field sets no bound of its own."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
            # DRF takes true as 1 and false as 0 in a number field; a JSON boolean is no number.
            flags = sorted(
                name for name, field in self.fields.items()
                if isinstance(field, NUMBER_FIELDS) and isinstance(data.get(name), bool)
            )  # fmt: skip
            if flags:
                message = "A number is expected, not true or false."
                raise serializers.ValidationError(
                    {name: [serializers.ErrorDetail(message, code="invalid")] for name in flags}
                )
        value = super().to_internal_value(data)
        huge = [
            k for k, v in value.items() if isinstance(v, int) and not INT64_MIN <= v <= INT64_MAX
        ]
        if huge:
            message = f"Ensure this value is less than or equal to {INT64_MAX}."
            raise serializers.ValidationError(
                {name: [serializers.ErrorDetail(message, code="max_value")] for name in huge}
            )
        return value

    def is_valid(self, *, raise_exception=False):
        valid = super().is_valid()
        if not valid and raise_exception:
            error = serializers.ValidationError(self.errors)
            error.field, error.limit = self.broken_bound()
            raise error
        return valid

    def broken_bound(self) -> tuple[str | None, Any]:
        """Where the one problem of the errors is, as a path (`entities[0].name`, however deep
        the field), and the bound it broke, if there is one problem; (None, None) otherwise."""
        found = _one_problem(self.errors, self, "")
        if found is None:
            return None, None
        path, field, problem = found
        code = getattr(problem, "code", None)
        if field is None or code not in BOUND_CODES:
            return path, None
        bound = getattr(field, code, None)
        return path, INT64_MAX if bound is None and code == "max_value" else bound


def _one_problem(errors, field, path: str):
    """(path, field, first error) of the only invalid leaf of DRF's nested errors, else None."""
    if isinstance(errors, dict):
        if len(errors) != 1:
            return None
        key, inner = next(iter(errors.items()))
        if key == api_settings.NON_FIELD_ERRORS_KEY:
            return (path, None, inner[0]) if path and isinstance(inner, list) else None
        if isinstance(field, (serializers.ListField, serializers.ListSerializer)):
            return _one_problem(inner, field.child, f"{path}[{key}]")
        child = field.child if isinstance(field, serializers.DictField) else None
        if isinstance(field, serializers.Serializer):
            child = field.fields.get(key)
        return _one_problem(inner, child, f"{path}.{key}" if path else str(key))
    if isinstance(errors, list) and errors:
        if all(isinstance(e, str) for e in errors):
            return (path, field, errors[0]) if path else None
        broken = [(i, e) for i, e in enumerate(errors) if e]  # a list serializer's items
        if len(broken) != 1:
            return None
        index, inner = broken[0]
        return _one_problem(inner, getattr(field, "child", None), f"{path}[{index}]")
    return None


# --- Errors Django answers before (or instead of) a DRF view: the same shape under /api/ ------

API_PREFIX = "/api/"


def api_error_response(request, status: int, code: str, message: str, **kwargs):
    """The JSON error for a request under /api/; None for a page (which answers in HTML)."""
    if not request.path.startswith(API_PREFIX):
        return None
    return JsonResponse(error_body(code, message, **kwargs), status=status)


def handler400(request, exception=None):
    """Django's 400s (SuspiciousOperation), among them a body over DATA_UPLOAD_MAX_MEMORY_SIZE
    read outside the API's parser: a 413 then."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        answer = api_error_response(
            request, 413, "too_large", f"The request body is larger than {limit} bytes.",
            field="body", limit=limit,
        )  # fmt: skip
    else:
        answer = api_error_response(request, 400, "bad_request", "The request is malformed.")
    return answer or defaults.bad_request(request, exception)


def handler403(request, exception=None):
    answer = api_error_response(request, 403, "permission_denied", "Not allowed.")
    return answer or defaults.permission_denied(request, exception)


def handler404(request, exception=None):
    answer = api_error_response(request, 404, "not_found", "No API route matches this path.")
    return answer or defaults.page_not_found(request, exception)


def handler500(request):
    answer = api_error_response(request, 500, "server_error", "The server failed; it is logged.")
    return answer or defaults.server_error(request)
