"""In Debian's chromium at 1366x900: an admin invites an email address nobody has; the console
shows the one-time link; the invited person opens it, sets a password, lands on the dashboard
logged in; the link then says it was used. axe-core finds no serious violation on the
set-password page (no walk from the menu reaches it: it needs a token)."""

import pytest
from playwright.sync_api import expect

from apps.tenants.models import Role
from tests.browser.test_accessibility_browser import axe_violations
from tests.conftest import BROWSER_WAIT_MS, browser_login, htmx_settled, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_invited_address_sets_its_password_once(live_server, page, browser, tenant,
                                                   make_person):  # fmt: skip
    page.set_viewport_size({"width": 1366, "height": 900})
    browser_login(page, live_server, make_person(tenant, Role.ADMIN))
    page.goto(f"{live_server.url}/console/{tenant.slug}/members")
    htmx_settled(page)
    expect(page.locator("#invite select[name=role]")).to_have_value("viewer")
    page.fill("#invite input[name=username]", "grace@example.org")
    page.click("#invite button[type=submit]")
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    expect(page.locator("#invited")).to_contain_text("no mail is configured")
    screenshot(page, "console-invited-link")
    url = link.input_value()

    newcomer = browser.new_context(viewport={"width": 1366, "height": 900})
    newcomer.set_default_timeout(BROWSER_WAIT_MS)
    other = newcomer.new_page()
    try:
        other.goto(url)
        expect(other.locator("h1")).to_have_text("Set your password")
        assert axe_violations(other) == []
        other.fill("#id_new_password1", "a-long-pass-7310")
        other.fill("#id_new_password2", "a-long-pass-7310")
        other.click("button[type=submit]")
        other.wait_for_url(f"{live_server.url}/")
        expect(other.locator(".messages")).to_contain_text("Your password is set")
        other.goto(url)
        expect(other.locator("[role=alert]")).to_contain_text("used already or has expired")
    finally:
        newcomer.close()
    assert page.console_errors == []
