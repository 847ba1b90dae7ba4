"""Every page needs a login; roles decide what a person sees; CSRF guards every form."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from apps.tenants.models import Role

PUBLIC = {"accounts/login/", "accounts/logout/", "favicon.ico"}
# /metrics answers this host (the test client is 127.0.0.1) and staff: tests/memoryproject/test_metrics.py
PUBLIC |= {"metrics"}
# An invitation's one-time link is opened before its owner has a password: its token guards it
# (tests/tenants/test_invitations.py).
PUBLIC |= {"accounts/set-password/<uidb64>/<token>/"}


def _page_routes(patterns=None, prefix=""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith(("api/", "admin/")):
                continue
            yield from _page_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and route not in PUBLIC and not route.startswith("api/"):
            yield route


PAGE_ROUTES = sorted(set(_page_routes()))


@pytest.mark.parametrize("route", PAGE_ROUTES)
def test_every_page_requires_login(db, route):
    path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", "x0", route)
    for method in ("get", "post"):
        response = getattr(Client(), method)(path)
        assert response.status_code in (302, 405), (route, method, response.status_code)
        if response.status_code == 302:
            assert response.url.startswith("/accounts/login/")


def test_api_docs_need_login(db):
    response = Client().get("/api/docs/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_a_person_without_a_role_is_refused(db):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(username="nobody", password="pw-nobody-123")
    client = Client()
    client.login(username="nobody", password="pw-nobody-123")
    assert client.get("/").status_code == 403


def test_dashboard_shows_the_current_tenants_stats(tenant, make_person):
    person = make_person(tenant, Role.VIEWER)
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    response = client.get("/")
    assert response.status_code == 200
    assert b'data-stat="documents"' in response.content
    fragment = client.get("/", HTTP_HX_REQUEST="true")
    assert b"<html" not in fragment.content and b'data-stat="entities"' in fragment.content


def test_switching_to_a_tenant_without_a_role_does_nothing(make_tenant, make_person):
    mine, other = make_tenant(), make_tenant()
    person = make_person(mine, Role.VIEWER)
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    client.post("/tenants/switch", {"tenant": other.slug})
    assert client.get("/").context["current_tenant"] == mine


def test_forms_are_csrf_protected(tenant, make_person):
    person = make_person(tenant, Role.VIEWER)
    client = Client(enforce_csrf_checks=True)
    client.login(username=person.username, password=person.raw_password)
    assert client.post("/tenants/switch", {"tenant": tenant.slug}).status_code == 403
