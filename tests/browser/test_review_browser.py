"""In Debian's chromium: a reviewer works the queue with the keyboard (y merges, n rejects, j/k
move), undoes a merge from the entity's history; a viewer cannot decide."""

import pytest
from playwright.sync_api import expect

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate
from apps.tenants.models import Role
from tests.conftest import browser_login, htmx_settled, nav_click, scope_for
from tests.review.review_fixtures import anthropic_pair, ingest, pending_pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MISTRAL = "A French company that builds open-weight language models."
MISTRAL_TEXT = "Mistral AI released a model."

EDGES = """
MATCH (e:Entity {tenant: $tenant, name: $name})-[r]-(o)
RETURN type(r) AS type, startNode(r) = e AS out, coalesce(o.name, labels(o)[0]) AS other,
       r.weight AS weight ORDER BY type, other, out
"""


def edges(scope, name):
    return cypher.read(scope, EDGES, name=name)


def two_pairs(scope):
    anthropic_pair(scope)
    ingest(scope, "Mistral trains models.",
           [EntityCandidate("Mistral", "Organization", description=MISTRAL)])  # fmt: skip
    second = ingest(scope, MISTRAL_TEXT,
                    [EntityCandidate("Mistral AI", "Organization", description=MISTRAL)])  # fmt: skip
    assert second[0].action == "pending", second[0].reason
    return {p["a"]: p["uid"] for p in pending_pairs(scope)}


def settled(page):
    # A person waits for the pair to appear before deciding; so does the test.
    htmx_settled(page)


def count(page):
    return page.inner_text("#pending-count").strip()


def test_reviewer_merges_rejects_and_unmerges_with_the_keyboard(
    live_server, page, make_tenant, make_person
):
    tenant = make_tenant()
    scope = scope_for(tenant)
    pairs = two_pairs(scope)
    before_a, before_b = edges(scope, "Anthropic AI"), edges(scope, "Anthropic")
    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    nav_click(page, "Review queue")
    page.wait_for_selector("#pair article[data-pair]")
    assert count(page) == "2"

    # j / k move through the queue; the pair in view follows.
    first = page.get_attribute("#pair article", "data-pair")
    settled(page)  # review.js is deferred: a key before it ran is lost
    page.keyboard.press("j")
    page.wait_for_function(f"document.querySelector('#pair article').dataset.pair !== '{first}'")
    page.keyboard.press("k")
    page.wait_for_function(f"document.querySelector('#pair article').dataset.pair === '{first}'")
    page.keyboard.press("?")
    expect(page.locator("#review-help")).to_be_visible()
    page.keyboard.press("Escape")

    # Bring the Anthropic pair into view and press y.
    page.click(f"#row-{pairs['Anthropic AI']} a")
    page.wait_for_selector(f"#pair article[data-pair='{pairs['Anthropic AI']}']")
    settled(page)
    page.keyboard.press("y")
    page.wait_for_function("document.querySelector('#pending-count').textContent.trim() === '1'")
    assert page.locator(f"#row-{pairs['Anthropic AI']}").count() == 0
    assert "Merged" in page.inner_text("#review-flash")
    assert [e["type"] for e in edges(scope, "Anthropic AI")] == ["MERGED_INTO"]
    moved = edges(scope, "Anthropic")
    assert len([e for e in moved if e["type"] == "MENTIONS"]) == 2
    assert {e["other"] for e in moved if e["type"] == "RELATED_TO"} == {
        "Claude", "Dario Amodei", "Google"
    }  # fmt: skip

    # n on the other pair: NOT_SAME, and the same text again proposes nothing.
    page.wait_for_selector(f"#pair article[data-pair='{pairs['Mistral AI']}']")
    settled(page)
    page.keyboard.press("n")
    page.wait_for_function("document.querySelector('#pending-count').textContent.trim() === '0'")
    page.wait_for_selector("#pair-empty")
    assert cypher.read(
        scope,
        "RETURN COUNT { MATCH (:Entity {tenant: $tenant, name: 'Mistral AI'})-[:NOT_SAME]-"
        "(:Entity {name: 'Mistral'}) } AS n",
    ) == [{"n": 1}]
    ingest(scope, "Mistral AI released another model.",
           [EntityCandidate("Mistral AI", "Organization", description=MISTRAL)],
           title="another document")  # fmt: skip
    # The rejected pair is never proposed again: a new document naming Mistral AI goes through the
    # gate (the same text again would be a replay that writes nothing), and whatever it decides
    # for the new mention, 'Mistral' and 'Mistral AI' are not paired again.
    assert not [p for p in pending_pairs(scope) if {p["a"], p["b"]} == {"Mistral", "Mistral AI"}]
    mentions = cypher.read(
        scope,
        "RETURN COUNT { MATCH (:Chunk {tenant: $tenant})-[:MENTIONS]->(:Entity {name: 'Mistral AI'})"
        " } AS n",
    )
    assert mentions == [{"n": 2}]

    # Unmerge from the survivor's history: both entities and all their edges come back.
    survivor = cypher.read(
        scope, "MATCH (e:Entity {tenant: $tenant, name: 'Anthropic'}) RETURN e.uid AS uid"
    )[0]["uid"]
    page.goto(f"{live_server.url}/entities/{survivor}/")
    page.wait_for_selector("#entity-graph[data-ready=true]")
    assert page.evaluate("document.getElementById('entity-graph').cy.nodes().length") >= 4
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#merge-history button.unmerge")
    page.wait_for_selector("#extras-message:has-text('Merge undone')")
    assert "undone by user:" in page.inner_text("#merge-history")
    assert edges(scope, "Anthropic AI") == before_a
    assert edges(scope, "Anthropic") == before_b
    assert page.console_errors == []


def test_a_viewer_sees_the_queue_but_cannot_decide(live_server, page, make_tenant, make_person):
    tenant = make_tenant()
    anthropic_pair(scope_for(tenant))
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    page.goto(f"{live_server.url}/review/")
    page.wait_for_selector("#pair article[data-pair]")
    assert page.locator("[data-decide]").count() == 0
    assert page.is_visible("#viewer-note")
    settled(page)
    page.keyboard.press("y")
    # Keys are handled in order: once ? opened the help, y was handled, and any request it sent
    # has started; wait for none to be in flight rather than for a time.
    page.keyboard.press("?")
    page.wait_for_selector("#review-help[open]")
    settled(page)
    assert count(page) == "1" and len(pending_pairs(scope_for(tenant))) == 1
    assert page.console_errors == []


def test_the_pair_says_what_each_comparison_added_or_took_away(
    live_server, page, make_tenant, make_person
):
    tenant = make_tenant()
    scope = scope_for(tenant)
    ingest(scope, "Jonathan Smith joined.", [EntityCandidate(
        "Jonathan Smith", "Person", values={"born": "1990-01-02", "phone": "+44 20 7946 0001"})])  # fmt: skip
    second = ingest(scope, "Jonathon Smith left.", [EntityCandidate(
        "Jonathon Smith", "Person", values={"born": "1990-01-02", "phone": "+44 20 7946 0999"})],
        title="second")  # fmt: skip
    assert second[0].action == "pending", second[0].reason
    browser_login(page, live_server, make_person(tenant, Role.REVIEWER))
    nav_click(page, "Review queue")
    page.wait_for_selector("#pair-evidence li")
    born = page.inner_text("#pair-evidence li[data-comparison='born']")
    assert born.startswith("same birth date: very strong evidence for (+"), born
    phone = page.inner_text("#pair-evidence li.against[data-comparison='phone']")
    assert phone.startswith("phones differ: ") and "evidence against (-" in phone, phone
    assert phone.endswith("; forbids an automatic merge")
