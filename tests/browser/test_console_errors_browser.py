"""In Debian's chromium: a change the console refuses says why where the form is, and the
control shows what the server holds, not what was asked: an invite of an account that does not
exist, a key with no scopes, and demoting the tenant's last admin."""

import pytest
from playwright.sync_api import expect

from apps.tenants.models import Membership, Role
from tests.conftest import browser_login, htmx_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def script_errors(page) -> list[str]:
    """Console errors but chromium's own line for the refused request's 4xx status."""
    return [e for e in page.console_errors if not e.startswith("Failed to load resource")]


def test_inviting_an_unknown_account_says_so_beside_the_form(
    live_server, page, tenant, make_person
):
    browser_login(page, live_server, make_person(tenant, Role.ADMIN))
    page.goto(f"{live_server.url}/console/{tenant.slug}/members")
    htmx_settled(page)
    page.fill("#invite input[name=username]", "nobody-here")
    page.click("#invite button[type=submit]")
    error = page.locator("#members [role=alert]")
    expect(error).to_contain_text("No active account has this username")
    assert error.is_visible()
    assert page.locator("#members tr[data-member=nobody-here]").count() == 0
    assert script_errors(page) == []


def test_a_key_with_no_scopes_is_refused_in_the_keys_form(live_server, page, tenant, make_person):
    browser_login(page, live_server, make_person(tenant, Role.ADMIN))
    page.goto(f"{live_server.url}/console/{tenant.slug}/keys")
    htmx_settled(page)
    page.fill("#issue-key input[name=name]", "no scopes")
    for box in page.locator("#issue-key input[name=scopes]").all():
        box.uncheck()
    page.click("#issue-key button[type=submit]")
    error = page.locator("#keys [role=alert]")
    expect(error).to_contain_text("at least one scope")
    assert error.is_visible()
    assert page.locator("#new-key").count() == 0
    assert "no scopes" not in page.locator("#keys table").inner_text()
    assert script_errors(page) == []


def test_demoting_the_last_admin_is_refused_and_the_menu_keeps_admin(
    live_server, page, tenant, make_person
):
    admin = make_person(tenant, Role.ADMIN, username="ada")
    make_person(tenant, Role.VIEWER, username="vic")
    browser_login(page, live_server, admin)
    page.goto(f"{live_server.url}/console/{tenant.slug}/members")
    htmx_settled(page)
    page.select_option("tr[data-member=ada] select[name=role]", "viewer")
    page.click("tr[data-member=ada] button:text('Change')")
    error = page.locator("#members [role=alert]")
    expect(error).to_contain_text("admin")
    assert error.is_visible()
    # The menu shows the role the server kept, not the one that was picked.
    expect(page.locator("tr[data-member=ada] select[name=role]")).to_have_value("admin")
    assert Membership.objects.get(user=admin, tenant=tenant).role == Role.ADMIN
    assert script_errors(page) == []
