"""In Debian's chromium: an admin issues an API key in the console, sees it once, copies it,
revokes it, and the key stops working; an admin changes a person's role and that person's pages
change with it."""

import httpx
import pytest

from apps.tenants.models import Role
from tests.conftest import browser_login, htmx_settled, nav_click

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stats_status(live_server, raw_key: str) -> int:
    response = httpx.get(
        f"{live_server.url}/api/v1/stats", headers={"Authorization": f"Api-Key {raw_key}"}
    )
    return response.status_code


def test_issue_a_key_see_it_once_revoke_it_and_it_stops_working(
    live_server, page, tenant, make_person
):
    browser_login(page, live_server, make_person(tenant, Role.ADMIN))
    page.on("dialog", lambda dialog: dialog.accept())
    nav_click(page, "Console")
    page.click("nav.subnav >> text=API keys")
    page.fill("#issue-key input[name=name]", "nightly <agent>")
    page.check("#issue-key input[value=review]")
    page.click("#issue-key button[type=submit]")
    raw = page.locator("#new-key").input_value()
    assert len(raw) > 30
    page.click("[data-copy=new-key]")
    page.wait_for_selector("[data-copy=new-key]:text('Copied')")
    prefix = raw.split(".")[0]
    row = page.locator(f"tr[data-key='{prefix}']")
    assert "nightly <agent>" in row.inner_text() and "review" in row.inner_text()

    assert stats_status(live_server, raw) == 200
    page.reload()  # a fresh page never shows the key again
    assert raw not in page.content()
    assert row.locator("[data-last-used]").inner_text() != "never"
    assert "user:" in row.inner_text()  # who issued it

    row.locator("button:text('Revoke')").click()
    page.wait_for_selector(f"tr[data-key='{prefix}'] [data-state]:text('revoked')")
    assert stats_status(live_server, raw) == 401

    page.click("nav.subnav >> text=Audit")
    page.locator("#audit-rows tr").first.wait_for()  # the Audit page, not the keys page
    page.wait_for_load_state()
    actions = page.locator("#audit-rows tr").evaluate_all("rows => rows.map(r => r.dataset.action)")
    assert actions[:2] == ["key.revoked", "key.issued"]
    assert raw not in page.content()
    assert page.console_errors == []


def test_a_role_change_changes_the_persons_pages(live_server, browser, page, tenant, make_person):
    admin = make_person(tenant, Role.ADMIN)
    bea = make_person(tenant, Role.REVIEWER, username="bea")
    bea_context = browser.new_context()
    bea_page = bea_context.new_page()
    try:
        browser_login(bea_page, live_server, bea)
        nav = bea_page.locator("nav.mainnav")
        assert "Conversations" in nav.text_content() and "Console" not in nav.text_content()
        assert bea_page.goto(f"{live_server.url}/console/{tenant.slug}/").status == 403

        browser_login(page, live_server, admin)
        page.goto(f"{live_server.url}/console/{tenant.slug}/members")
        page.select_option("tr[data-member=bea] select[name=role]", "viewer")
        page.click("tr[data-member=bea] button:text('Change')")
        page.wait_for_selector("tr[data-member=bea] select[name=role] option[value=viewer][selected]",
                               state="attached")  # fmt: skip

        bea_page.reload()
        assert "Conversations" not in bea_page.locator("nav.mainnav").text_content()
        assert bea_page.goto(f"{live_server.url}/conversations/").status == 403
        assert "needs the reviewer role" in bea_page.inner_text("main")

        htmx_settled(page)  # the row was swapped in by the first change
        page.select_option("tr[data-member=bea] select[name=role]", "admin")
        page.click("tr[data-member=bea] button:text('Change')")
        page.wait_for_selector("tr[data-member=bea] select[name=role] option[value=admin][selected]",
                               state="attached")  # fmt: skip
        bea_page.goto(f"{live_server.url}/")
        nav_click(bea_page, "Console")
        bea_page.wait_for_selector("nav.subnav")
        assert bea_page.url.endswith(f"/console/{tenant.slug}/")
        assert page.console_errors == []
    finally:
        bea_context.close()
