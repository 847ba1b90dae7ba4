"""In Debian's chromium: the documents list (filters, paging), a document read with its mentions
highlighted and linked to their entities, and a reviewer's deletion after a confirmation, with
its progress run by a real worker and its entry in the audit."""

import pytest
from playwright.sync_api import expect

from apps.ingestion import services
from apps.tenants.models import Role
from tests.conftest import browser_login, htmx_settled, nav_click, scope_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "Odalys Fenwright runs the Brackwater Lighthouse. Odalys Fenwright keeps its log."
FACTS = [
    {"name": "Odalys Fenwright", "type": "Person"},
    {"name": "Brackwater Lighthouse", "type": "Location"},
]


def stored_documents(scope, n):
    for i in range(n):
        services.document_store(scope, content=f"Tide table number {i} for the harbour.",
                                source="tides", title=f"Tide table {i:02d}")  # fmt: skip


def test_the_list_filters_and_pages(live_server, page, tenant, make_person):
    scope = scope_for(tenant)
    stored_documents(scope, 27)
    services.document_store(scope, content="The keeper's letter.", source="letters",
                            title="Keeper letter")  # fmt: skip
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    nav_click(page, "Documents")
    rows = page.locator("#documents-rows tbody tr")
    expect(rows).to_have_count(25)
    expect(page.locator('[data-field="total"]')).to_contain_text("28 documents")
    page.click("#documents-next")
    expect(rows).to_have_count(3)
    htmx_settled(page)
    page.fill("input[name=title]", "keeper")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Keeper letter")
    assert "title=keeper" in page.url
    assert page.console_errors == []


def test_a_reviewer_reads_a_document_and_deletes_it_after_a_confirmation(
    live_server, page, tenant, make_person, celery_worker
):
    scope = scope_for(tenant)
    uid = services.check_facts_submit(scope, entities=FACTS, relations=[], source_text=NOTE)[
        "document"
    ]
    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    page.goto(f"{live_server.url}/documents/")
    page.click(f'[data-document="{uid}"] a')
    text = page.locator("#document-text")
    expect(text).to_have_text(NOTE)
    marks = text.locator("a.mention")
    expect(marks).to_have_count(3)
    assert marks.all_inner_texts() == ["Odalys Fenwright", "Brackwater Lighthouse",
                                       "Odalys Fenwright"]  # fmt: skip
    expect(page.locator("#document-entities")).to_contain_text("2 mentions")
    marks.first.click()
    expect(page.locator("h1")).to_contain_text("Odalys Fenwright")
    page.go_back()

    page.click("#delete-document")
    page.click("#confirm-delete")
    progress = page.locator("#deletion-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=300_000)
    expect(progress.locator('[data-field="left"]')).to_have_text("0")
    expect(progress).to_contain_text("2 entities only it named")
    assert page.console_errors == []

    assert page.goto(f"{live_server.url}/documents/{uid}/").status == 404
    page.goto(f"{live_server.url}/documents/")
    expect(page.locator('[data-field="total"]')).to_contain_text("0 documents")
    page.goto(f"{live_server.url}/review/audit/")
    expect(page.locator("#audit-rows")).to_contain_text("document.deleted")
    expect(page.locator("#audit-rows")).to_contain_text("document.delete_requested")


def test_a_viewer_sees_no_delete_button_and_cannot_post_one(live_server, page, tenant,
                                                            make_person):  # fmt: skip
    scope = scope_for(tenant)
    uid = services.check_facts_submit(scope, entities=FACTS, relations=[], source_text=NOTE)[
        "document"
    ]
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    page.goto(f"{live_server.url}/documents/{uid}/?confirm=delete")
    expect(page.locator("#document-text")).to_have_text(NOTE)
    expect(page.locator("#confirm-delete")).to_have_count(0)
    response = page.request.post(f"{live_server.url}/documents/{uid}/delete")
    assert response.status == 403
