"""In Debian's chromium at 1366x900: a reviewer reaches the clusters from the review queue, sees
six fragments of a firm side by side with the conflicting phone marked (no serious axe-core
violation), accepts them all with y, and takes the whole decision back with u. Screens go to
the browser tests' artifacts."""

import pytest
from playwright.sync_api import expect

from apps.tenants.models import Role
from tests.browser.test_accessibility_browser import axe_violations
from tests.conftest import browser_login, htmx_settled, nav_click, scope_for, screenshot
from tests.review.cluster_fixtures import entity_states, firm_fragments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reviewer_accepts_a_cluster_then_undoes_it(live_server, page, make_tenant, make_person):
    tenant = make_tenant()
    scope = scope_for(tenant)
    firm_fragments(scope)
    page.set_viewport_size({"width": 1366, "height": 900})
    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    nav_click(page, "Review queue")
    page.click("#clusters-link")
    page.wait_for_selector("#pair article[data-pair]")
    htmx_settled(page)
    cluster_id = page.get_attribute("#pair article", "data-pair")
    assert page.locator("#pair [data-member]").count() == 6
    assert page.locator("#pair .member.conflicting").count() == 2  # the two phones
    assert "phones differ" in page.inner_text("#pair")
    assert page.locator('#pair [data-decide="confirm"]').is_visible()
    screenshot(page, "cluster-1-members")
    # The demo data makes no cluster, so the accessibility walk sees this page only empty.
    assert axe_violations(page) == []

    page.keyboard.press("y")
    flash = page.locator("#review-flash")
    expect(flash).to_contain_text("Merged 6 members into “Anthropic”")
    expect(page.locator("#cluster-count")).to_have_text("0")
    assert list(entity_states(scope).values()).count("active") == 1
    screenshot(page, "cluster-2-accepted")

    htmx_settled(page)
    page.keyboard.press("u")
    expect(flash).to_contain_text("the cluster is back")
    expect(page.locator("#pair article")).to_have_attribute("data-pair", cluster_id)
    expect(page.locator("#cluster-count")).to_have_text("1")
    assert set(entity_states(scope).values()) == {"active"}
    screenshot(page, "cluster-3-undone")
    assert page.console_errors == []
