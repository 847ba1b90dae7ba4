"""The dashboard's background work: a viewer sees the tenant's jobs of every kind (ingestion has
its own card) with their label, progress and error, refreshed by htmx; no other tenant's."""

from apps.tenants.models import Role
from apps.tenants.services import job_create, job_finish, job_progress
from tests.conftest import scope_for


def test_the_dashboard_lists_this_tenants_background_work(client, make_tenant, make_person):
    mine, other = make_tenant(), make_tenant()
    erasing = job_create(scope_for(mine), kind="conversation_erase", subject="one user", total=40)
    job_progress(erasing, done=10)
    failed = job_create(scope_for(mine), kind="tenant_import", subject="<b>an archive</b>")
    job_finish(failed, error="The archive's version is <unknown>.")
    ingesting = job_create(scope_for(mine), kind="document_ingest", subject="doc-1")
    hidden = job_create(scope_for(other), kind="conversation_import", subject="one session")

    client.force_login(make_person(mine, Role.VIEWER))
    page = client.get("/").content.decode()
    assert 'hx-get="/jobs/recent"' in page and 'hx-trigger="every 3s"' in page  # one unfinished
    fragment = client.get("/jobs/recent", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment
    for html in (page, fragment):
        assert f'data-job="{erasing.uid}"' in html and "Conversation erasure" in html
        assert 'value="10"' in html and "10/40" in html
        assert f'data-job="{failed.uid}"' in html and 'data-status="failed"' in html
        assert "&lt;b&gt;an archive&lt;/b&gt;" in html and "&lt;unknown&gt;" in html
        assert f'data-job="{ingesting.uid}"' not in html  # the ingestion card shows it
        assert hidden.uid not in html

    job_finish(erasing, result={"messages": 40})
    done = client.get("/jobs/recent").content.decode()
    assert 'hx-trigger="every 15s"' in done  # nothing left running: it asks less often
