"""In Debian's chromium, at 1366x900 and 1920x1080: the entity page draws its neighbourhood with
edges and their labels, a click on a node adds that node's neighbours, the page "Graph" draws
the most important entities and the connection finder's path, and no other tenant's entity
appears. Screenshots go to the browser tests' artifact folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from apps.tenants.models import Role
from tests.browser.test_graph_browser import pick
from tests.conftest import browser_login, scope_for, screenshot
from tests.insights.known_graph import known_graph_write

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", ".local/test/browser-artifacts"))
SIZES = [(1366, 900), (1920, 1080)]


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def shot(page, name: str) -> None:
    # In the artifact folder of every browser test (tests/conftest.py screenshot).
    screenshot(page, name, full_page=True)


def drawn(page, view: str, what: str):
    return page.evaluate(f"document.getElementById('{view}').cy.{what}")


def click_node(page, view: str, uid: str) -> None:
    """A real click where Cytoscape drew the node (the pointer moves there first, as a hand)."""
    page.locator(f"#{view} .graph-canvas").scroll_into_view_if_needed()
    x, y = page.evaluate(
        """([view, uid]) => {
             const el = document.getElementById(view), box = el.querySelector('.graph-canvas')
               .getBoundingClientRect(), p = el.cy.getElementById(uid).renderedPosition();
             return [box.left + p.x, box.top + p.y]; }""",
        [view, uid],
    )
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def expand_node(page, view: str, uid: str, times: int) -> None:
    """Click a node until the view has expanded `times` nodes. Cytoscape reads the canvas's
    place from a cache it refreshes on the scroll event, which a loaded browser can deliver after
    the click: that click lands where the canvas was and is lost. A node already being expanded
    ignores a second click, so clicking again cannot add its neighbours twice."""
    expanded = f"#{view}[data-expanded='{times}']"
    for _ in range(6):
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        click_node(page, view, uid)
        try:
            page.wait_for_selector(expanded, timeout=30_000)
            return
        except PlaywrightTimeout:
            pass
    said = page.locator(f"#{view} .graph-selected").text_content()
    raise AssertionError(f"{uid} was not expanded after 6 clicks; the view says {said!r}")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_entity_graph_draws_edges_and_expands_a_node_on_click(live_server, page, make_tenant,
                                                                  make_person, width, height):  # fmt: skip
    tenant = make_tenant()
    prefix = known_graph_write(scope_for(tenant))
    other = known_graph_write(scope_for(make_tenant()))
    page.set_viewport_size({"width": width, "height": height})
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    page.goto(f"{live_server.url}/entities/{prefix}A4/")
    page.wait_for_selector("#entity-graph[data-ready=true]")
    assert drawn(page, "entity-graph", "edges().length") == 4
    labels = drawn(page, "entity-graph", "edges().map(e => e.data('label'))")
    assert sorted(labels) == ["near", "near", "works_for", "works_for"]
    assert drawn(page, "entity-graph", "edges('.ended').length") == 1  # A4 -> B1 closed
    width_seen = page.evaluate("document.getElementById('entity-graph').cy.width()")
    assert width_seen > 600
    assert page.locator("#entity-graph table.graph-edges tbody tr").count() == 4
    # (a full-page screenshot resizes the window for a moment: taken after the click)
    expand_node(page, "entity-graph", prefix + "B1", 1)  # B1's own group joins the picture
    ids = drawn(page, "entity-graph", "nodes().map(n => n.id())")
    assert {prefix + n for n in ("B2", "B3", "B4")} <= set(ids)
    assert not [i for i in ids if i.startswith(other)]
    assert page.locator("#entity-graph table.graph-edges tbody tr").count() == drawn(
        page, "entity-graph", "edges().length"
    )
    shot(page, f"entity-graph-expanded-{width}x{height}")
    assert page.console_errors == []


def test_the_graph_page_draws_communities_and_the_connection_path(live_server, page, make_tenant,
                                                                  make_person):  # fmt: skip
    tenant = make_tenant()
    prefix = known_graph_write(scope_for(tenant))
    other = known_graph_write(scope_for(make_tenant()))
    page.set_viewport_size({"width": 1920, "height": 1080})
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    page.goto(f"{live_server.url}/graph/")
    page.wait_for_selector("#graph-picture[data-ready=true]")
    assert drawn(page, "graph-picture", "edges().length") > 0
    colours = drawn(page, "graph-picture", "nodes().map(n => n.data('colour'))")
    assert len(set(colours)) >= 3  # the communities A, B and C in colours of their own
    ids = drawn(page, "graph-picture", "nodes().map(n => n.id())")
    assert ids and not [i for i in ids if i.startswith(other)]

    pick(page, "source", "A1")
    pick(page, "target", "B2")
    page.click("#graph-connection-form button")
    page.wait_for_selector("#graph-picture[data-path='3']")
    assert drawn(page, "graph-picture", "edges('.path').length") == 3
    assert drawn(page, "graph-picture", "nodes('.path').length") == 4
    assert prefix + "B2" in drawn(page, "graph-picture", "nodes('.path').map(n => n.id())")
    page.locator("#graph-picture").scroll_into_view_if_needed()
    screenshot(page, "graph-page-path-window-1920x1080")  # the window only (the README's)
    shot(page, "graph-page-path-1920x1080")
    page.set_viewport_size({"width": 1366, "height": 900})
    shot(page, "graph-page-path-1366x900")
    assert page.console_errors == []
