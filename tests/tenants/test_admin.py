"""The Django admin (site staff only) lists one API key model, ours, with what an admin needs at a
glance: tenant, scopes, last use, issuer."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework_api_key.models import APIKey

from apps.tenants.models import TenantAPIKey
from apps.tenants.services import api_key_issue

pytestmark = pytest.mark.django_db


def test_one_api_key_model_with_scopes_last_use_and_issuer(tenant):
    assert not admin.site.is_registered(APIKey) and admin.site.is_registered(TenantAPIKey)
    api_key_issue(tenant=tenant, name="nightly agent", scopes=["review"])
    get_user_model().objects.create_superuser("site-admin", password="pw-admin-123")
    client = Client()
    client.login(username="site-admin", password="pw-admin-123")
    index = client.get("/admin/").content.decode()
    assert index.count("API keys") == 1, "one API key list"
    assert "/admin/rest_framework_api_key/" not in index
    listing = client.get("/admin/tenants/tenantapikey/").content.decode()
    for column in ("column-scopes", "column-last_used_at", "column-created_by", "nightly agent"):
        assert column in listing


def test_people_without_staff_rights_do_not_reach_the_admin(tenant, make_person):
    from apps.tenants.models import Role

    person = make_person(tenant, Role.ADMIN)
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    assert client.get("/admin/").status_code == 302
