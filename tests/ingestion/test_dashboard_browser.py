"""In Debian's chromium: the dashboard lists recent ingestion jobs and htmx moves their progress
bars as the job runs, without a reload."""

import pytest

from apps.ingestion import services
from apps.tenants.models import Job, Role
from tests.conftest import browser_login, scope_for
from tests.ingestion.test_pipeline import DOCUMENT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_ingestion_jobs_show_progress_refreshed_by_htmx(live_server, page, tenant, make_person):
    person = make_person(tenant, Role.VIEWER)
    queued = services.check_document_submit(scope_for(tenant), content=DOCUMENT, source="notes")
    browser_login(page, live_server, person)

    row = page.locator(f'tr[data-job="{queued["job"]}"]')
    row.wait_for()
    assert row.get_attribute("data-status") == "queued"
    assert row.locator("[data-chunks]").inner_text() == "0/0 chunks"

    job = Job.objects.select_related("tenant").get(uid=queued["job"])
    services.document_ingest_job_run(job)

    page.wait_for_selector(f'tr[data-job="{queued["job"]}"][data-status="done"]')
    assert row.locator("[data-chunks]").inner_text() == "4/4 chunks"
    assert row.locator("progress").get_attribute("value") == "4"
    assert page.url == f"{live_server.url}/"  # refreshed in place
    assert page.console_errors == []
