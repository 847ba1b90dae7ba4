"""Every write route of the URL conf against the same hostile bodies (issue 38): a body over the
request-size limit, invalid JSON, a lone surrogate, NaN and a form body. Each is refused before
the route does anything (no job queued), with the status the API's parser gives it, in the JSON
error shape. Generated from the URL conf: a new route that never reads its body fails here."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver

from apps.tenants.models import Job

WRITE_METHODS = ("post", "put", "patch")


def _routes(patterns=None, prefix=""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and route.startswith("api/v1/"):
            view = getattr(entry.callback, "view_class", None) or entry.callback.cls
            for method in WRITE_METHODS:
                if hasattr(view, method):
                    yield route, method


WRITE_ROUTES = sorted(set(_routes()))


def concrete(route: str) -> str:
    """Every converter filled with a value it matches; the object need not exist."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", "x0", route)


def hostile_bodies() -> list[tuple[str, bytes, str, int, str]]:
    """(what, body, content type, status, code) of each attack."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    big = b'{"text": "' + b"x" * (limit + 10) + b'"}'
    return [
        ("too large", big, "application/json", 413, "too_large"),
        ("invalid JSON", b'{"a": ', "application/json", 400, "invalid_json"),
        ("lone surrogate", b'{"x": "\\ud800"}', "application/json", 400, "invalid_unicode"),
        ("NaN", b'{"x": NaN}', "application/json", 400, "invalid_json"),
        ("form body", b"a=1&b=2", "application/x-www-form-urlencoded", 415,
         "unsupported_media_type"),
    ]  # fmt: skip


def test_the_url_conf_has_write_routes():
    assert len(WRITE_ROUTES) >= 40
    assert ("api/v1/tasks/<str:task>/release", "post") in WRITE_ROUTES


@pytest.mark.parametrize(
    ("route", "method"), WRITE_ROUTES, ids=[f"{m} {r}" for r, m in WRITE_ROUTES]
)
def test_every_write_route_refuses_hostile_bodies_first(tenant, api_client, route, method):
    path = concrete(route)
    for what, body, content_type, status, code in hostile_bodies():
        response = getattr(api_client, method)(path, data=body, content_type=content_type)
        assert response.status_code == status, (what, response.status_code, response.content[:300])
        assert response["Content-Type"].startswith("application/json"), what
        error = response.json()["error"]
        assert error["code"] == code, (what, error)
        if status == 413:
            assert (
                error["field"] == "body" and error["limit"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            )
    assert not Job.objects.filter(tenant=tenant).exists()


def test_an_operation_without_fields_refuses_one_and_takes_none(tenant, api_client):
    refused = api_client.post("/api/v1/tasks/similarity-sync", {"force": True}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "force"
    assert not Job.objects.filter(tenant=tenant).exists()
    for body in ({}, None):
        assert (
            api_client.post("/api/v1/tasks/similarity-sync", body, format="json").status_code == 202
        )
