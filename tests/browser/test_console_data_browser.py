"""In Debian's chromium: an admin exports the tenant from the console, watches the job finish,
and downloads the archive, which holds the tenant's memory."""

import gzip
import json

import pytest

from apps.conversations.services import check_message_append
from apps.tenants.models import Role
from tests.conftest import browser_login, scope_for

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_export_then_download(live_server, page, tenant, make_person, celery_worker, tmp_path):
    check_message_append(scope_for(tenant), user="u", sid="s", role="user", text="kept", by="u")
    browser_login(page, live_server, make_person(tenant, Role.ADMIN))
    page.goto(f"{live_server.url}/console/{tenant.slug}/data")
    page.click("#export-form button[type=submit]")
    link = page.locator("a[data-download]")
    link.wait_for(timeout=180_000)  # the page follows the job until it is done
    with page.expect_download() as download:
        link.click()
    path = tmp_path / "archive.ndjson.gz"
    download.value.save_as(path)
    records = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert records[0]["tenant"]["slug"] == tenant.slug
    texts = [r["props"].get("text") for r in records if r["kind"] == "node"]
    assert "kept" in texts
    assert records[-1]["kind"] == "footer" and records[-1]["counts"]["node"] >= 2
    assert page.console_errors == []
