"""In Debian's chromium: log in, see the dashboard's numbers, switch tenant."""

import pytest

from apps.graph import cypher
from apps.tenants.models import Role
from tests.conftest import browser_login, scope_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_login_dashboard_numbers_and_tenant_switch(live_server, page, make_tenant, make_person):
    first, second = make_tenant("acme-a"), make_tenant("acme-b")
    person = make_person(first, Role.ADMIN, username="ada")
    from apps.tenants.services import membership_grant

    membership_grant(user=person, tenant=second, role=Role.VIEWER)
    for _ in range(3):
        cypher.write(
            scope_for(second),
            "CREATE (:Document {uid: randomUUID(), tenant: $tenant, source: 's'})",
        )

    browser_login(page, live_server, person)
    assert page.locator("h1").inner_text() == "acme-a"
    assert page.locator('[data-stat="documents"]').inner_text() == "0"

    page.select_option("#tenant-select", "acme-b")
    page.wait_for_selector("h1:text('acme-b')")
    assert page.locator('[data-stat="documents"]').inner_text() == "3"

    # htmx refreshes the numbers without a reload.
    cypher.write(
        scope_for(second), "CREATE (:Document {uid: randomUUID(), tenant: $tenant, source: 's'})"
    )
    page.wait_for_function(
        "document.querySelector('[data-stat=\"documents\"]').textContent.trim() === '4'",
    )
    assert page.console_errors == []


def test_logged_out_visitor_is_sent_to_login(live_server, page):
    page.goto(f"{live_server.url}/")
    assert page.url.startswith(f"{live_server.url}/accounts/login/")
