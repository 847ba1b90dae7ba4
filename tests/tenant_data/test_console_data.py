"""The console's Data pages: an export's archive downloads for that tenant's admins only, an
import into a tenant with data is refused with 409, a deletion needs the typed slug and is
followed on a page only its requester and site staff may open."""

import gzip
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.conversations.services import check_message_append
from apps.tenant_data.services.tenant_export import JOB_KIND, export_run
from apps.tenants.models import Role, TenantDeletion
from apps.tenants.services import job_create
from tests.conftest import scope_for

pytestmark = pytest.mark.django_db


def login(person) -> Client:
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def exported(tenant) -> str:
    scope = scope_for(tenant)
    check_message_append(scope, user="u", sid="s", role="user", text="to export", by="u")
    job = job_create(scope, kind=JOB_KIND)
    assert export_run(job_uid=job.uid)["node"] >= 2
    return job.uid


def test_an_export_downloads_for_its_tenants_admins_only(make_tenant, make_person):
    mine, other = make_tenant(), make_tenant()
    uid = exported(mine)
    admin = login(make_person(mine, Role.ADMIN))
    page = admin.get(f"/console/{mine.slug}/data")
    assert page.status_code == 200 and f"/data/exports/{uid}/archive".encode() in page.content
    response = admin.get(f"/console/{mine.slug}/data/exports/{uid}/archive")
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    lines = gzip.decompress(b"".join(response.streaming_content)).decode().splitlines()
    assert json.loads(lines[0])["format"] == "anamnesis-tenant/1"
    assert json.loads(lines[-1])["kind"] == "footer"

    reviewer = login(make_person(mine, Role.REVIEWER))
    assert reviewer.get(f"/console/{mine.slug}/data/exports/{uid}/archive").status_code == 403
    stranger = login(make_person(other, Role.ADMIN))
    assert stranger.get(f"/console/{mine.slug}/data/exports/{uid}/archive").status_code == 403
    # Another tenant's export through one's own console is no export at all.
    assert stranger.get(f"/console/{other.slug}/data/exports/{uid}/archive").status_code == 404


def test_an_import_into_a_tenant_with_data_answers_409(tenant, make_person):
    check_message_append(scope_for(tenant), user="u", sid="s", role="user", text="x", by="u")
    admin = login(make_person(tenant, Role.ADMIN))
    assert b'id="import-closed"' in admin.get(f"/console/{tenant.slug}/data").content
    upload = SimpleUploadedFile("a.ndjson.gz", gzip.compress(b"{}\n"))
    response = admin.post(f"/console/{tenant.slug}/data/import", {"archive": upload})
    assert response.status_code == 409 and b'id="data-error"' in response.content


def test_a_deletion_needs_the_typed_slug_and_its_page_is_the_requesters(tenant, make_person):
    admin = login(make_person(tenant, Role.ADMIN))
    wrong = admin.post(f"/console/{tenant.slug}/data/delete", {"confirm": "nope"})
    assert wrong.status_code == 400 and not TenantDeletion.objects.exists()
    right = admin.post(f"/console/{tenant.slug}/data/delete", {"confirm": tenant.slug})
    deletion = TenantDeletion.objects.get()
    assert right.status_code == 302 and right["Location"] == f"/console/deletions/{deletion.uid}"
    assert admin.get(right["Location"]).status_code == 200
    other = login(make_person(tenant, Role.ADMIN))
    assert other.get(right["Location"]).status_code == 403
    staff = get_user_model().objects.create_user("site-staff", password="pw-s-1234", is_staff=True)
    staff.raw_password = "pw-s-1234"
    assert login(staff).get(right["Location"]).status_code == 200
