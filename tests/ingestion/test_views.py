"""The ingestion jobs fragment: a viewer sees their tenant's jobs and counters, no one else's."""

from django.test import Client

from apps.ingestion import services
from apps.tenants.models import Role
from tests.conftest import scope_for


def login(person):
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def test_the_fragment_lists_this_tenants_ingestion_jobs(make_tenant, make_person):
    mine, other = make_tenant(), make_tenant()
    queued = services.check_document_submit(
        scope_for(mine), content="Ada Lovelace wrote notes.", source="Ada's <b>notes</b>", wait=True
    )
    hidden = services.check_document_submit(
        scope_for(other), content="Charles Babbage built engines.", source="s"
    )
    client = login(make_person(mine, Role.VIEWER))
    response = client.get("/ingestion/jobs", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-job="{queued["job"]}"' in html and 'data-status="done"' in html
    assert hidden["job"] not in html
    assert "Ada&#x27;s &lt;b&gt;notes&lt;/b&gt;" in html  # the document by its source, escaped
    assert "<html" not in html  # a fragment for htmx
    assert "<html" in client.get("/ingestion/jobs").content.decode()
    assert 'hx-get="/ingestion/jobs"' in client.get("/").content.decode()
