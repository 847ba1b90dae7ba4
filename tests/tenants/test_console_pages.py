"""The tenant console's pages: who may open them (the tenant's admins, site staff; nobody else),
CSRF on every form, text escaped, and each page showing what its services return."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, get_resolver

from apps.tenants.models import AuditEvent, Role, TenantAPIKey
from apps.tenants.services import api_key_issue

pytestmark = pytest.mark.django_db


def console_routes():
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLPattern):
            continue
        for sub in entry.url_patterns:
            route = str(sub.pattern)
            if isinstance(sub, URLPattern) and route.startswith("console/<slug:slug>/"):
                yield route


CONSOLE_ROUTES = sorted(set(console_routes()))


def login(person) -> Client:
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def path_of(route: str, slug: str) -> str:
    return "/" + route.replace("<slug:slug>", slug).replace("<str:username>", "x").replace(
        "<str:prefix>", "x"
    ).replace("<str:uid>", "x")


def test_there_is_a_page_per_capability():
    assert len(CONSOLE_ROUTES) >= 11, CONSOLE_ROUTES


@pytest.mark.parametrize("role", [Role.REVIEWER, Role.VIEWER])
def test_reviewers_and_viewers_get_403_on_every_console_route(tenant, make_person, role):
    client = login(make_person(tenant, role))
    for route in CONSOLE_ROUTES:
        for method in ("get", "post"):
            response = getattr(client, method)(path_of(route, tenant.slug))
            assert response.status_code in (403, 405), (route, method, response.status_code)
    assert client.get("/console/").status_code == 403
    assert AuditEvent.objects.filter(tenant=tenant).count() == 0


def test_an_admin_of_one_tenant_cannot_open_anothers(make_tenant, make_person):
    mine, other = make_tenant(), make_tenant()
    client = login(make_person(mine, Role.ADMIN))
    assert client.get(f"/console/{mine.slug}/").status_code == 200
    assert client.get(f"/console/{other.slug}/").status_code == 403
    assert client.get("/console/nope-no-tenant/").status_code == 403
    response = client.post(f"/console/{other.slug}/keys/issue", {"name": "x", "scopes": "review"})
    assert response.status_code == 403
    assert not TenantAPIKey.objects.filter(tenant=other).exists()
    home = client.get("/console/").content.decode()
    assert f"/console/{mine.slug}/" in home and f"/console/{other.slug}/" not in home


def test_site_staff_see_every_tenant(make_tenant):
    first, second = make_tenant(), make_tenant()
    staff = get_user_model().objects.create_user("staffer", password="pw-staff-123", is_staff=True)
    staff.raw_password = "pw-staff-123"
    client = login(staff)
    home = client.get("/console/").content.decode()
    assert f"/console/{first.slug}/" in home and f"/console/{second.slug}/" in home
    page = client.get(f"/console/{second.slug}/members")
    assert page.status_code == 200 and b'id="as-staff"' in page.content
    client.post(f"/console/{second.slug}/keys/issue", {"name": "by staff", "scopes": "review"})
    event = AuditEvent.objects.get(tenant=second, action="key.issued")
    assert (event.actor, event.actor_kind) == ("user:staffer", "person")


def test_every_console_form_needs_the_csrf_token(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    client = Client(enforce_csrf_checks=True)
    client.login(username=admin.username, password=admin.raw_password)
    for route in CONSOLE_ROUTES:
        response = client.post(path_of(route, tenant.slug), {"name": "k", "scopes": "review"})
        assert response.status_code in (403, 405), route
    assert not TenantAPIKey.objects.filter(tenant=tenant).exists()


def test_keys_page_shows_the_key_once_and_escapes_names(tenant, make_person):
    client = login(make_person(tenant, Role.ADMIN))
    name = "<script>alert(1)</script>"
    issued = client.post(
        f"/console/{tenant.slug}/keys/issue", {"name": name, "scopes": ["memory:read", "review"]}
    )
    body = issued.content.decode()
    raw = re.search(r'id="new-key" readonly value="([^"]+)"', body).group(1)
    assert issued["Cache-Control"] == "no-store"
    assert "<script>alert(1)</script>" not in body and "&lt;script&gt;" in body
    key = TenantAPIKey.objects.get(tenant=tenant)
    assert raw.startswith(key.prefix) and key.scopes == ["memory:read", "review"]
    again = client.get(f"/console/{tenant.slug}/keys").content.decode()
    assert raw not in again and key.prefix in again

    fragment = client.post(
        f"/console/{tenant.slug}/keys/issue", {"name": ""}, HTTP_HX_REQUEST="true"
    )
    assert fragment.status_code == 400 and b"<html" not in fragment.content
    assert b"name is required" in fragment.content


def test_members_page_invites_changes_and_refuses_with_a_message(tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    get_user_model().objects.create_user("newcomer", password="pw-new-123")
    client = login(admin)
    url = f"/console/{tenant.slug}/members"
    client.post(f"{url}/invite", {"username": "newcomer", "role": "reviewer"})
    page = client.post(f"{url}/newcomer/role", {"role": "viewer"}, HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and b'data-member="newcomer"' in page.content
    refused = client.post(f"{url}/{admin.username}/remove")
    assert refused.status_code == 409 and b"last admin" in refused.content
    missing = client.post(f"{url}/invite", {"username": "ghost", "role": "viewer"})
    assert missing.status_code == 404 and b"No active account" in missing.content


def test_settings_page_validates_and_audits(tenant, make_person):
    client = login(make_person(tenant, Role.ADMIN))
    url = f"/console/{tenant.slug}/settings"
    bad = client.post(url, {"merge_threshold": "2", "max_message_chars": "lots"})
    assert bad.status_code == 400
    assert b'data-error="merge_threshold"' in bad.content
    assert b'data-error="max_message_chars"' in bad.content
    good = client.post(url, {"merge_threshold": "0.97", "max_message_chars": "20000"})
    assert good.status_code == 302
    tenant.refresh_from_db()
    assert tenant.settings == {"merge_threshold": 0.97}
    assert list(AuditEvent.objects.filter(tenant=tenant).values_list("target", flat=True)) == [
        "merge_threshold"
    ]
    assert b"changed" in client.get(url).content


def test_audit_page_filters_and_usage_and_erasure_pages_render(tenant, make_person):
    client = login(make_person(tenant, Role.ADMIN))
    api_key_issue(tenant=tenant, name="agent")
    client.post(f"/console/{tenant.slug}/settings", {"playbook_needs": "4"})
    client.post(f"/console/{tenant.slug}/keys/issue", {"name": "k2", "scopes": "review"})
    audit = client.get(f"/console/{tenant.slug}/audit", {"action": "key.issued"})
    rows = re.findall(r'data-action="([^"]+)"', audit.content.decode())
    assert rows == ["key.issued"]
    rows = client.get(
        f"/console/{tenant.slug}/audit", {"actor": "nobody"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Nothing matches" in rows and "<html" not in rows
    usage = client.get(f"/console/{tenant.slug}/").content.decode()
    assert 'data-stat="documents">0<' in usage and 'data-usage="active_keys">2<' in usage
    erasure = client.get(f"/console/{tenant.slug}/erasure")
    assert erasure.status_code == 200 and b"No erasure was requested" in erasure.content


def test_usage_page_shows_the_counts_over_time(tenant, make_person):
    from apps.tenants.usage import usage_sample_record

    client = login(make_person(tenant, Role.ADMIN))
    empty = client.get(f"/console/{tenant.slug}/").content.decode()
    assert 'id="usage-history-empty"' in empty
    usage_sample_record(tenant=tenant)
    page = client.get(f"/console/{tenant.slug}/").content.decode()
    rows = re.findall(r"<tr data-sample><td>(.*?)</td>", page)
    assert len(rows) == 1 and "<time" in rows[0] and 'data-col="messages">0<' in page
