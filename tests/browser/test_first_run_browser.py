"""In Debian's chromium: the first run (`manage.py demo_setup --with-data`, as `make run` calls
it) leaves a newcomer a dashboard, a review queue and entity pages with something real in them;
a second run changes nothing."""

import io
import re
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from apps.tenants.models import Tenant
from tests.conftest import browser_login, graph_wipe_tenant, nav_click

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def demo_setup() -> str:
    out = io.StringIO()
    call_command("demo_setup", "--with-data", stdout=out)
    return out.getvalue()


def stat(page, name: str) -> int:
    return int(page.inner_text(f'[data-stat="{name}"]'))


def test_first_login_shows_real_documents_reviews_entities_and_lessons(live_server, page):
    try:
        first = demo_setup()
        password = re.search(r"user: admin\s+password: (\S+)", first).group(1)
        assert re.search(r"Demo data: 4 documents, [1-9]\d* pending reviews", first), first
        browser_login(page, live_server, SimpleNamespace(username="admin", raw_password=password))

        assert stat(page, "documents") == 4 and stat(page, "pending_reviews") >= 1
        assert stat(page, "entities") >= 8 and stat(page, "messages") == 8
        assert stat(page, "lessons") == 1

        nav_click(page, "Review queue")
        page.wait_for_selector("#pair article[data-pair]")
        assert "Babbage" in page.inner_text("#pair")

        page.goto(f"{live_server.url}/entities/?q=Analytical+Engine")
        page.locator("#entity-results a:text-is('Analytical Engine')").first.click()
        page.wait_for_selector("text=Charles Babbage")

        nav_click(page, "Conversations")
        page.click("#users a:text('grace')")
        page.click("#sessions a:text('history-of-computing')")
        assert page.inner_text("#summary").strip()

        nav_click(page, "Lessons")
        page.wait_for_selector("main a[href$='/show-the-table']")
        assert page.console_errors == []

        again = demo_setup()
        assert "Demo data: not written" in again and "password: " not in again
        page.goto(f"{live_server.url}/")
        assert stat(page, "documents") == 4
    finally:
        for tenant in Tenant.objects.filter(slug="demo"):
            graph_wipe_tenant(tenant.uid)
