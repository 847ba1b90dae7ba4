"""In Debian's chromium, with a demo tenant's data: every page route of the URL conf, reached by
following links from the top menu, is exactly as wide as the window at 1366x900 and at
1920x1080 (no horizontal scroll), and the top menu marks the page's own link, once.

A route the walk cannot reach by a link is either not a page (an action, a fragment htmx asks
for, a download: NOT_PAGES) or needs data the demo set does not make (NO_DEMO_LINK); a new page
route in neither set fails the test until it is reachable or listed."""

from urllib.parse import urlparse

import pytest
from django.urls import resolve

from apps.tenant_data.services.demo_data import demo_data_fill
from apps.tenants.models import Role
from apps.tenants.usage import usage_sample_record
from memoryproject.urls import pages
from tests.conftest import browser_login, nav_click, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = [(1366, 900), (1920, 1080)]
NOT_PAGES = {
    # POST actions
    "tenant-switch", "console-member-invite", "console-member-role", "console-member-remove",
    "console-key-issue", "console-key-revoke", "document-delete", "review-undo-last",
    "review-bulk", "review-skipped-clear", "review-confirm", "review-reject", "review-skip",
    "review-merge-undo", "review-suspect-keep", "review-suspect-undo", "playbook-switch",
    "review-cluster-decide", "review-cluster-undo",
    "entry-invalidate", "kind-rows-from-entries", "console-export", "console-import",
    "console-delete", "promotion-action", "graph-communities-refresh",
    # fragments htmx asks for, and a download
    "dashboard-jobs", "entity-review-extras", "review-suspect", "graph-connection",
    "graph-picker", "graph-entity-community", "entity-timeline", "kinds-jobs",
    "work-task-ingests", "console-export-download", "graph-neighbourhood",
    "graph-entity-neighbourhood",
}  # fmt: skip
# Pages whose subject the demo data set has none of (no deletion, erasure, task, playbook...).
NO_DEMO_LINK = {
    "document-deletion", "erasure-job", "console-deletion", "work-task", "playbook",
    "entry-page", "knowledge-user", "work-task-context", "graph-community", "review-cluster",
}  # fmt: skip


def route_name(path: str) -> str | None:
    try:
        return resolve(path).url_name
    except Exception:  # noqa: BLE001 - a link outside the URL conf (static files, the API)
        return None


def widths(page) -> tuple[int, int]:
    return tuple(page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    ))  # fmt: skip


def links_on(page, origin: str) -> list[str]:
    # hx-get too: a pair of the review queue is a link htmx follows (the page answers a plain
    # GET as well); fragments are filtered out by their route.
    hrefs = page.locator("a[href], [hx-get]").evaluate_all(
        "els => els.flatMap(e => [e.getAttribute('href'), e.getAttribute('hx-get')])"
        ".filter(Boolean).map(h => new URL(h, location.href).href)"
    )
    return [h.split("#")[0] for h in hrefs if h.startswith(origin)]


def admin_with_demo_data(page, live_server, tenant, make_person):
    """The demo data set and a usage sample in `tenant`, its staff admin logged in at 1366x900."""
    demo_data_fill(tenant=tenant)
    usage_sample_record(tenant=tenant)
    admin = make_person(tenant, Role.ADMIN)
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    page.set_viewport_size({"width": 1366, "height": 900})
    browser_login(page, live_server, admin)
    return admin


def page_walk(page, live_server, visit) -> dict[str, str]:
    """Every page route reached by following links from the top menu, the console and a search:
    each loaded once at 1366x900, then `visit(page, path)`; the routes seen, with their paths."""
    page_routes = {p.name for p in pages} - NOT_PAGES
    queue = ["/", "/console/", "/search/?q=Babbage", *links_on(page, live_server.url)]
    seen_routes: dict[str, str] = {}
    while queue:
        url = queue.pop(0)
        path = urlparse(url).path
        name = route_name(path)
        if name not in page_routes or name in seen_routes:
            continue
        seen_routes[name] = path
        page.set_viewport_size({"width": 1366, "height": 900})
        page.goto(live_server.url + url if url.startswith("/") else url)
        page.wait_for_load_state("networkidle")
        visit(page, path)
        queue.extend(links_on(page, live_server.url))
    return seen_routes


def test_every_page_is_as_wide_as_the_window(live_server, page, tenant, make_person):
    admin_with_demo_data(page, live_server, tenant, make_person)
    page_routes = {p.name for p in pages} - NOT_PAGES
    too_wide = []

    def visit(page, path):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            scroll, client = widths(page)
            if scroll != client:
                too_wide.append(f"{path} at {width}: {scroll} px wide")
        current = page.locator("nav.mainnav [aria-current=page]")
        assert current.count() <= 1, (path, current.all_text_contents())

    seen_routes = page_walk(page, live_server, visit)

    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/memory/lessons")
    nav_click(page, "Episodes")  # opens the Memory group on the way
    page.wait_for_url("**/memory/episodes")
    page.locator("nav.mainnav summary", has_text="Memory").click()
    assert page.locator("nav.mainnav [aria-current=page]").text_content() == "Episodes"
    screenshot(page, "nav-memory-menu-1366")

    assert too_wide == [], too_wide
    missing = page_routes - NO_DEMO_LINK - set(seen_routes)
    assert missing == set(), f"page routes no link reached: {sorted(missing)}"
    assert page.console_errors == [], page.console_errors
