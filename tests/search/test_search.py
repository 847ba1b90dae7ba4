"""One search over the tenant's memory: one ranked list of passages, entities, messages, entries
and facts, each saying how its rankings placed it; limits named by field; the tenant's only; the
page groups, links, highlights and escapes."""

import pytest
from django.test import Client

from apps.conversations.embedding import messages_embed_pending
from apps.ingestion import services as ingestion
from apps.lessons.services import episodes
from apps.tenants.models import Role
from tests.conftest import scope_for
from tests.conversations.test_messages import say

FOUNDING = (
    "# Company history\n\nQuendrax Logistics was founded in 1988 in Tallinn, in a rented "
    "garage by the docks. <b>Its first customers</b> were fishing cooperatives.\n"
)


def seed(scope):
    ingestion.check_document_submit(scope, content=FOUNDING, source="test",
                                    title="History of Quendrax", wait=True)  # fmt: skip
    ingestion.check_facts_submit(
        scope, entities=[{"name": "Quendrax Logistics", "type": "Organization"}], relations=[]
    )
    say(scope, "Quendrax Logistics called about the late invoice again.", user="ann")
    messages_embed_pending(scope)


def test_one_ranked_list_with_kinds_sources_and_places(scope, api_client):
    seed(scope)
    found = api_client.get("/api/v1/search", {"q": "Quendrax Logistics", "user": "ann"})
    assert found.status_code == 200, found.content
    results = found.json()["results"]
    kinds = {r["kind"] for r in results}
    assert {"passage", "entity", "message"} <= kinds
    passage = next(r for r in results if r["kind"] == "passage")
    assert passage["source"]["title"] == "History of Quendrax"
    assert "1988" in passage["snippet"] and "words #1" in passage["placed"]
    entity = next(r for r in results if r["kind"] == "entity")
    assert entity["source"]["title"] == "Quendrax Logistics" and entity["ranks"]["words"] == 1
    message = next(r for r in results if r["kind"] == "message")
    assert message["source"]["user"] == "ann" and message["ranks"]["words"] == 1
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)

    only = api_client.get("/api/v1/search", {"q": "Quendrax", "in": "passages", "limit": 1})
    assert [r["kind"] for r in only.json()["results"]] == ["passage"]


def test_entries_are_found_by_words(scope, api_client):
    episode = episodes.check_episode_open(scope, key="ops-1", title="Night shift")
    episodes.check_entry_record(scope, episode=episode["id"], type="observation",
                             text="The Quendrax conveyor stalled twice before midnight.")  # fmt: skip
    results = api_client.get("/api/v1/search", {"q": "conveyor stalled", "in": "entries"}).json()
    assert [r["kind"] for r in results["results"]] == ["entry"]
    assert results["results"][0]["source"]["title"] == "Night shift"


def test_nothing_above_the_floor_gives_nothing(scope, api_client):
    seed(scope)
    found = api_client.get("/api/v1/search", {"q": "banana bread recipe", "user": "ann"}).json()
    assert found["results"] == []


def test_another_tenants_memory_is_never_found(make_tenant, make_api_client):
    theirs = make_tenant()
    seed(scope_for(theirs))
    ours = make_api_client(make_tenant())
    found = ours.get("/api/v1/search", {"q": "Quendrax Logistics", "user": "ann"}).json()
    assert found["results"] == []


@pytest.mark.parametrize(
    "params,field",
    [({}, "q"), ({"q": "x" * 501}, "q"), ({"q": "a", "in": "passages,gossip"}, "in"),
     ({"q": "a", "limit": 0}, "limit"), ({"q": "a", "limit": 51}, "limit"),
     ({"q": "a", "limit": "many"}, "limit"), ({"q": "a", "colour": "red"}, "colour"),
     ({"q": "a", "user": "u" * 201}, "user")],
)  # fmt: skip
def test_bad_input_is_a_400_naming_the_field(tenant, api_client, params, field):
    refused = api_client.get("/api/v1/search", params)
    assert refused.status_code == 400
    assert refused.json()["error"]["field"] == field


def test_the_page_groups_links_highlights_and_escapes(tenant, make_person):
    seed(scope_for(tenant))
    client = Client()
    person = make_person(tenant, Role.VIEWER)
    client.login(username=person.username, password=person.raw_password)
    page = client.get("/search/", {"q": "Quendrax customers", "user": "ann"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h2>Passages" in html and "<h2>Entities" in html
    assert "<mark>Quendrax</mark>" in html
    assert "<b>Its first" not in html and "&lt;b&gt;Its first" in html
    assert 'href="/entities/' in html
    assert 'action="/search/"' in page.content.decode()  # the box in the top bar
    empty = client.get("/search/", {"q": "banana bread recipe"}).content.decode()
    assert "Nothing above the relevance floor" in empty
