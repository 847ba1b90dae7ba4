"""The entity pages for people: search and open an entity, in a real chromium; escaping; roles."""

import pytest
from django.test import Client

from apps.resolution.candidates import EntityCandidate, Provenance, RelationCandidate
from apps.resolution.services import entities_resolve
from apps.tenants.models import Role
from tests.conftest import browser_login, nav_click, scope_for

AGENT = Provenance(agent="agent:test")


def seed(tenant):
    return entities_resolve(
        scope_for(tenant),
        entities=[
            EntityCandidate("Ada Lovelace", "Person", aliases=("Countess of Lovelace",),
                            description="Mathematician who wrote the first published program."),
            EntityCandidate("Analytical Engine", "Object",
                            description="Charles Babbage's mechanical general-purpose computer."),
            EntityCandidate("<script>alert(1)</script> Corp", "Organization"),
        ],
        relations=[RelationCandidate(0, "WROTE_PROGRAMS_FOR", 1, confidence=0.9)],
        provenance=AGENT,
    )  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_search_then_open_an_entity(live_server, page, make_tenant, make_person):
    tenant = make_tenant()
    seed(tenant)
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    nav_click(page, "Entities")
    page.wait_for_selector("table.entity-results")
    page.fill("#entity-q", "countess mathematician")
    page.wait_for_function(
        "document.querySelector('table.entity-results tbody tr a')?.textContent === 'Ada Lovelace'"
        " && document.querySelector('table.entity-results th:last-child').textContent"
        " === 'Found by'",
    )
    assert "q=countess" in page.url  # the search is in the address, so it can be shared
    page.click("table.entity-results >> text=Ada Lovelace")
    page.wait_for_selector("h1[data-entity]")
    assert "Countess of Lovelace" in page.inner_text("#entity-aliases")
    relations = page.inner_text("#entity-relations")
    assert "WROTE_PROGRAMS_FOR" in relations and "Analytical Engine" in relations
    page.click("#entity-relations >> text=Analytical Engine")
    page.wait_for_selector("h1:has-text('Analytical Engine')")
    assert page.console_errors == []


def test_pages_escape_names_and_hide_other_tenants(make_tenant, make_person):
    tenant, other = make_tenant(), make_tenant()
    receipts = seed(tenant)
    client = Client()
    person = make_person(tenant, Role.VIEWER)
    client.login(username=person.username, password=person.raw_password)
    listing = client.get("/entities/")
    assert listing.status_code == 200
    assert b"<script>alert(1)</script>" not in listing.content
    assert b"&lt;script&gt;alert(1)&lt;/script&gt; Corp" in listing.content
    fragment = client.get("/entities/", {"q": "Lovelace"}, HTTP_HX_REQUEST="true")
    assert b"<html" not in fragment.content and b"Ada Lovelace" in fragment.content
    assert client.get(f"/entities/{receipts[0].entity_uid}/").status_code == 200

    outsider = Client()
    stranger = make_person(other, Role.ADMIN)
    outsider.login(username=stranger.username, password=stranger.raw_password)
    assert outsider.get(f"/entities/{receipts[0].entity_uid}/").status_code == 404
    found = outsider.get("/entities/", {"q": "Ada Lovelace"}).content
    assert b"No entity matches" in found and receipts[0].entity_uid.encode() not in found
