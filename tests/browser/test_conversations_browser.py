"""In Debian's chromium: the conversation browser (reviewer) and the erasure page (admin) with
its confirmation and its progress, run by a real worker."""

import re

import pytest
from playwright.sync_api import expect

from apps.conversations import context, services
from apps.tenants.models import Role
from tests.conftest import browser_login, scope_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def say(scope, text, user="ann", sid="main"):
    return services.check_message_append(scope, user=user, sid=sid, role="user", text=text, by=user)


def test_reviewer_browses_sessions_messages_summary_and_traces(live_server, page, tenant,
                                                               make_person):  # fmt: skip
    scope = scope_for(tenant)
    for i in range(1, 56):
        say(scope, f"Line {i} <b>not bold</b>")
    services.check_summary_store(scope, user="ann", sid="main", text="All the lines.", upto=5,
                                 by="desk")  # fmt: skip
    say(scope, "other session", sid="side")
    context.check_context(scope, user="ann", sid="main", message="What about line 3?", k=2)
    reviewer = make_person(tenant, Role.REVIEWER)
    browser_login(page, live_server, reviewer)

    page.goto(f"{live_server.url}/conversations/")
    page.click("#users a:text('ann')")
    rows = page.locator("#sessions tbody tr")
    expect(rows).to_have_count(2)  # the user's page has loaded (count() alone would not wait)
    assert rows.first.locator("td").first.inner_text() == "main"
    page.click("#sessions a:text('main')")
    page.wait_for_url("**/sessions/main/")
    assert "All the lines." in page.locator("#summary").inner_text()
    numbers = page.locator("#messages tbody tr").evaluate_all(
        "rows => rows.map(r => Number(r.dataset.no))"
    )
    assert numbers == list(range(7, 57))
    # User text is shown as text, never as markup.
    assert page.locator("#messages b").count() == 0
    assert "<b>not bold</b>" in page.locator("#messages tbody tr").first.inner_text()
    page.click("#earlier")
    page.wait_for_url(re.compile(r"[?&]before=\d+"))
    numbers = page.locator("#messages tbody tr").evaluate_all(
        "rows => rows.map(r => Number(r.dataset.no))"
    )
    assert numbers == list(range(1, 7))
    page.goto(f"{live_server.url}/conversations/users/ann/sessions/main/")
    page.click("#traces details summary")
    assert "message_hit" in page.locator("#traces").inner_text()
    assert page.console_errors == []


def test_viewer_cannot_browse_conversations(live_server, page, tenant, make_person):
    viewer = make_person(tenant, Role.VIEWER)
    browser_login(page, live_server, viewer)
    response = page.goto(f"{live_server.url}/conversations/")
    assert response.status == 403


def test_admin_erases_a_user_after_a_confirmation_and_sees_progress(
    live_server, page, tenant, make_person, celery_worker
):
    scope = scope_for(tenant)
    for i in range(1, 8):
        say(scope, f"private note {i}", user="ann-secret")
    say(scope, "another session", user="ann-secret", sid="s2")
    say(scope, "bob stays", user="bob")
    admin = make_person(tenant, Role.ADMIN)
    browser_login(page, live_server, admin)

    page.goto(f"{live_server.url}/conversations/erasure/")
    page.fill("#id_user", "ann-secret")
    page.click("#erasure-form button[type=submit]")
    confirmation = page.locator("#confirmation")
    assert confirmation.locator('[data-erase="user"]').inner_text() == "ann-secret"
    assert confirmation.locator('[data-count="messages"]').inner_text() == "8"
    assert confirmation.locator('[data-count="sessions"]').inner_text() == "2"
    assert "main" in confirmation.inner_text() and "s2" in confirmation.inner_text()

    page.click("#confirm-erasure")
    page.wait_for_selector("#erasure-progress")
    page.wait_for_selector('#erasure-progress[data-status="done"]', timeout=300_000)
    assert page.locator('[data-field="done"]').inner_text() == "8"
    assert "Erased 8 messages in 2 sessions" in page.locator("#erasure-progress").inner_text()
    assert "ann-secret" not in page.content()
    assert page.console_errors == []

    page.goto(f"{live_server.url}/conversations/")
    assert "ann-secret" not in page.locator("#users").inner_text()
    assert "bob" in page.locator("#users").inner_text()


def test_reviewer_cannot_open_the_erasure_page(live_server, page, tenant, make_person):
    reviewer = make_person(tenant, Role.REVIEWER)
    browser_login(page, live_server, reviewer)
    assert page.goto(f"{live_server.url}/conversations/erasure/").status == 403
