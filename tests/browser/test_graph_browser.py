"""In Debian's chromium: a viewer opens the page "Graph", reads the most important entities and
the communities now and at a chosen date, finds the connection between two entities picked by
name, and sees an entity's community on its page."""

import pytest

from apps.tenants.models import Role
from tests.conftest import browser_login, nav_click, scope_for
from tests.insights.known_graph import gds_pagerank, known_graph_write, known_nx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pick(page, side: str, name: str) -> None:
    page.fill(f"#{side}-q", name)
    # The first search by meaning loads the embedding model in the server: allow for it.
    page.wait_for_selector(
        f"#{side}-select option[value$='-{name}']", state="attached", timeout=180_000
    )
    page.select_option(f"#{side}-select", label=f"{name} (Object)")


def test_graph_page_at_a_date_and_the_connection_finder(live_server, page, make_tenant,
                                                         make_person):  # fmt: skip
    tenant = make_tenant()
    prefix = known_graph_write(scope_for(tenant))
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    nav_click(page, "Graph")
    page.wait_for_selector("#graph-important li")
    ranks = gds_pagerank(known_nx())
    best = max(sorted(ranks), key=lambda n: ranks[n])
    assert page.locator("#graph-important li").first.get_attribute("data-entity") == prefix + best
    assert page.locator("#graph-communities tbody tr").count() >= 3

    # On 2025-10-01 the bridge A4 -> B1 no longer held: A1 and B2 are not connected then.
    pick(page, "source", "A1")
    pick(page, "target", "B2")
    page.click("#graph-connection-form button")
    page.wait_for_selector("#connection-steps li")
    assert page.locator("#connection-steps li").count() == 3
    assert "no longer holds" in page.inner_text("#connection-steps")

    page.fill("#graph-date-input", "2025-10-01")
    page.click("#graph-date button")
    page.wait_for_selector("#graph-important li")
    assert "on 2025-10-01" in page.inner_text("main")
    assert page.locator("#graph-important li").count() == 12  # every entity existed then
    pick(page, "source", "A1")
    pick(page, "target", "B2")
    page.click("#graph-connection-form button")
    page.wait_for_selector("#connection-none")
    assert "not connected on 2025-10-01" in page.inner_text("#connection-none")

    page.goto(f"{live_server.url}/entities/{prefix}B2/")
    page.wait_for_selector("#entity-community")
    assert "entities" in page.inner_text("#entity-community")
