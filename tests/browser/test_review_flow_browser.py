"""In Debian's chromium at 1366x900: a reviewer sees the pair's reason and the decision buttons
without scrolling, the merge reports the counts its preview showed, the result is in view, an
undo comes back to the pair it restored, and a decision leads to the pair below it in the
queue, not back to the top. Screens of each step go to the browser tests' artifacts."""

import pytest
from playwright.sync_api import expect

from apps.resolution.candidates import EntityCandidate
from apps.tenants.models import Role
from tests.browser.test_review_browser import two_pairs
from tests.conftest import browser_login, htmx_settled, scope_for, screenshot
from tests.review.review_fixtures import ingest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WINDOW = {"width": 1366, "height": 900}
COHERE = "A Canadian company that builds language models for businesses."


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= WINDOW["height"]


def queue_order(page) -> list[str]:
    return page.locator("#queue-list li[data-uid]").evaluate_all(
        "rows => rows.map(r => r.dataset.uid)"
    )


def shown(page) -> str:
    return page.get_attribute("#pair article[data-pair]", "data-pair")


def test_review_flow_keeps_the_pair_and_its_result_in_view(
    live_server, page, make_tenant, make_person
):
    tenant = make_tenant()
    scope = scope_for(tenant)
    two_pairs(scope)
    ingest(scope, "Cohere trains models.",
           [EntityCandidate("Cohere", "Organization", description=COHERE)])  # fmt: skip
    third = ingest(scope, "Cohere Inc released a model.",
                   [EntityCandidate("Cohere Inc", "Organization", description=COHERE)])  # fmt: skip
    assert third[0].action == "pending", third[0].reason
    page.set_viewport_size(WINDOW)
    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    page.goto(f"{live_server.url}/review/")
    page.wait_for_selector("#pair article[data-pair]")
    htmx_settled(page)
    assert len(queue_order(page)) == 3

    # The pair's own reason and the buttons are on the first screen.
    assert page.inner_text("#pair .reason").strip()
    assert in_view(page, "#pair .reason") and in_view(page, '#pair [data-decide="confirm"]')
    screenshot(page, "review-1-pair")

    # A decision on the middle pair leads to the one below it.
    first, middle, last = queue_order(page)
    page.click(f"#row-{middle} a")
    expect(page.locator("#pair article")).to_have_attribute("data-pair", middle)
    htmx_settled(page)
    page.click('#pair [data-decide="reject"]')
    expect(page.locator("#review-flash")).to_contain_text("are not the same")
    expect(page.locator("#pair article")).to_have_attribute("data-pair", last)
    assert in_view(page, "#review-flash")
    screenshot(page, "review-2-rejected-next-pair")

    # The merge says what its preview said, in view.
    htmx_settled(page)
    moved = int(page.inner_text("#preview-moved"))
    combined = int(page.inner_text("#preview-combined"))
    merged_pair = shown(page)
    page.click('#pair [data-decide="confirm"]')
    flash = page.locator("#review-flash")
    expect(flash).to_contain_text("Merged")
    text = flash.inner_text()
    assert f"{moved} edge{'' if moved == 1 else 's'} moved" in text, text
    assert f"{combined} relation{'' if combined == 1 else 's'} combined" in text, text
    assert in_view(page, "#review-flash") and in_view(page, '#pair [data-decide="confirm"]')
    screenshot(page, "review-3-merged")

    # Undo brings back the pair it restored, not another one.
    htmx_settled(page)
    page.click("#undo-last")
    expect(flash).to_contain_text("the pair is back")
    expect(page.locator("#pair article")).to_have_attribute("data-pair", merged_pair)
    screenshot(page, "review-4-undone")
    # The same screen at 1920x1080: the pair, its reason and the buttons still on it.
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert page.locator('#pair [data-decide="confirm"]').is_visible()
    screenshot(page, "review-5-pair-1920x1080")
    assert page.console_errors == []
