"""In Debian's chromium: a reviewer reaches the suspect merges from the review queue, sees the
weights now and then, undoes one with n and keeps the other with y."""

import pytest

from apps.resolution.auto_merges import auto_merges_rescore
from apps.review.suspect_merges import suspect_queue
from apps.tenants.models import Role
from tests.browser.test_review_browser import settled
from tests.conftest import browser_login, nav_click, scope_for
from tests.review.test_suspect_merges import auto_merged, born_counts_for_little, entity

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reviewer_undoes_and_keeps_suspect_merges_with_the_keyboard(
    live_server, page, make_tenant, make_person
):
    tenant = make_tenant()
    scope = scope_for(tenant)
    auto_merged(scope, "Grace", "Hopper", "1906-12-09")
    auto_merged(scope, "Alan", "Turing", "1912-06-23")
    born_counts_for_little(scope)
    assert auto_merges_rescore(scope)["suspect"] == 2
    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    nav_click(page, "Review queue")
    page.click("#suspects-link")
    page.wait_for_selector("#pair article[data-pair]")
    assert page.inner_text("#suspect-count").strip() == "2"
    assert "same birth date" in page.inner_text("#suspect-evidence")

    first = page.get_attribute("#pair article", "data-pair")
    name = next(r["name"] for r in suspect_queue(scope)["results"] if r["uid"] == first)
    settled(page)
    page.keyboard.press("n")
    page.wait_for_function("document.querySelector('#suspect-count').textContent.trim() === '1'")
    assert "Undone" in page.inner_text("#review-flash")
    assert page.locator(f"#row-{first}").count() == 0
    assert entity(scope, name)["not_same"]

    page.wait_for_selector("#pair article[data-pair]")
    settled(page)
    page.keyboard.press("y")
    page.wait_for_function("document.querySelector('#suspect-count').textContent.trim() === '0'")
    assert "Kept" in page.inner_text("#review-flash")
    assert page.is_visible("#pair-empty")
    assert suspect_queue(scope)["suspect"] == 0
