"""In Debian's chromium: an admin with data (the demo data set) walks every page of the nav, and
a detail page of each kind, and the tenant console; no page logs a console error, fails a request, or shows a raw ISO
time instead of a readable one."""

import re

import pytest

from apps.tenant_data.services.demo_data import demo_data_fill
from apps.tenants.models import Role
from apps.tenants.usage import usage_sample_record
from tests.conftest import browser_login, nav_click

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
RAW_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
# One detail link of each kind, reached from the list pages of the nav.
DETAIL_LINKS = {
    "/review/": "#pair a[href^='/entities/']",
    "/conversations/": "#users a",
    "/memory/episodes": "main a[href^='/memory/episodes/']",
    "/memory/lessons": "main a[href^='/memory/lessons/']",
}


def watch(page) -> list[str]:
    problems: list[str] = []
    # Leaving a page aborts its htmx polls in flight (net::ERR_ABORTED): that is no failure.
    page.on(
        "requestfailed",
        lambda r: (
            None
            if r.failure == "net::ERR_ABORTED"
            else problems.append(f"failed {r.url}: {r.failure}")
        ),
    )
    page.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    return problems


def visit(page, url: str) -> str:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if page.locator("main").count() == 0:  # the API docs page is Swagger UI's own
        return ""
    text = page.inner_text("main")
    assert not RAW_ISO_TIME.search(text), (url, RAW_ISO_TIME.search(text).group())
    return text


def test_every_nav_page_is_clean(live_server, page, tenant, make_person):
    demo_data_fill(tenant=tenant)
    usage_sample_record(tenant=tenant)  # the Usage page's history has a row to show
    admin = make_person(tenant, Role.ADMIN)
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    problems = watch(page)
    browser_login(page, live_server, admin)

    hrefs = page.locator("nav.mainnav a").evaluate_all("links => links.map(a => a.pathname)")
    pages = [h for h in dict.fromkeys(hrefs) if not h.startswith("/admin/")]
    assert len(pages) >= 10, pages
    visited = []
    for path in pages:
        visit(page, live_server.url + path)
        visited.append(path)
        selector = DETAIL_LINKS.get(path)
        if selector:
            link = page.locator(selector).first
            link.wait_for()
            detail = link.evaluate("a => a.pathname")
            visit(page, live_server.url + detail)
            visited.append(detail)
    # The tenant console's own pages, from its sub-navigation.
    page.goto(live_server.url + "/")
    nav_click(page, "Console")
    sections = page.locator("nav.subnav a").evaluate_all("links => links.map(a => a.pathname)")
    assert len(sections) == 7, sections
    for path in sections:
        visit(page, live_server.url + path)
        visited.append(path)
    # Site staff also reach the Django admin, which must not lean on the outside either.
    page.goto(f"{live_server.url}/admin/")
    page.wait_for_load_state("networkidle")

    assert problems == [], problems
    assert page.console_errors == [], page.console_errors
    assert len(visited) >= 20, visited
