"""Twins in reads: two entities of a pending pair above TWIN_MIN_P are one item in entity search,
the one search, context and the entity's own reads until a reviewer decides; after a reject they
are two, after a merge one. Data is made through the services; the real Neo4j and model."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.conversations import context
from apps.graph import cypher
from apps.resolution import twin_reads
from apps.resolution.candidates import EntityCandidate
from apps.review.services import check_review_confirm, check_review_reject
from apps.tenants.models import Role
from tests.conftest import scope_for
from tests.review.review_fixtures import ANTHROPIC, anthropic_pair, ingest

PAIR = """
MATCH (a:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]->(b:Entity {tenant: $tenant})
RETURN s.uid AS uid, s.score AS p, a.uid AS newer, b.uid AS older
"""


@pytest.fixture
def twins(scope):
    """Anthropic (older, with Claude and Dario) and Anthropic AI (Google invested in it),
    pending as one pair above the twin threshold."""
    first, second = anthropic_pair(scope)
    [pair] = cypher.read(scope, PAIR)
    assert pair["p"] >= twin_reads.TWIN_MIN_P, pair
    assert pair["older"] == first[0].entity_uid and pair["newer"] == second[0].entity_uid
    return pair


def anthropics(results):
    return [r for r in results if r["name"].startswith("Anthropic")]


def test_entity_search_shows_the_pair_once_with_the_twin_and_its_facts_under_it(twins, api_client):
    results = api_client.get("/api/v1/entities", {"q": "Anthropic"}).json()["results"]
    [item] = anthropics(results)
    assert item["uid"] == twins["older"]  # the older side is the item
    [twin] = item["twins"]
    assert twin["uid"] == twins["newer"] and twin["name"] == "Anthropic AI"
    assert twin["pair"] == twins["uid"] and twin["review"] == f"/review/pairs/{twins['uid']}/"
    assert twin["p"] == pytest.approx(twins["p"], abs=1e-4)
    # The twin's own relations travel with it, marked as its own.
    assert {(f["from"], f["predicate"], f["to"]) for f in twin["facts"]} >= {
        ("Google", "INVESTED_IN", "Anthropic AI")
    }
    # Browsing (no q) folds the pair the same way.
    browsed = api_client.get("/api/v1/entities").json()["results"]
    assert len(anthropics(browsed)) == 1


def test_one_search_over_entities_gives_one_item_saying_possibly_the_same(twins, api_client):
    found = api_client.get("/api/v1/search", {"q": "Anthropic", "in": "entities"}).json()
    [item] = [r for r in found["results"] if r["source"]["title"].startswith("Anthropic")]
    assert item["uid"] == twins["older"]
    assert [t["uid"] for t in item["twins"]] == [twins["newer"]]
    assert "possibly the same as Anthropic AI" in item["snippet"]


def test_context_names_the_pair_once_and_says_it_may_be_one(twins, scope):
    found = context.check_context(scope, user="ann", sid="main", k=5,
                                  message="What does Anthropic AI build, and who leads Anthropic?")  # fmt: skip
    hits = anthropics(found["entity_hits"])
    assert len(hits) == 1, hits
    [twin] = hits[0]["twins"]
    other = ({twins["older"], twins["newer"]} - {hits[0]["uid"]}).pop()
    assert twin["uid"] == other
    assert f"possibly the same as {twin['name']} (P=" in found["context"]
    assert f"pending review {twins['uid']}" in found["context"]


def test_entity_detail_and_page_link_the_pending_pair(twins, api_client, tenant, make_person):
    detail = api_client.get(f"/api/v1/entities/{twins['older']}").json()
    assert [(t["uid"], t["pair"]) for t in detail["twins"]] == [(twins["newer"], twins["uid"])]
    reviewer = make_person(tenant, Role.REVIEWER)
    page = Client()
    page.login(username=reviewer.username, password=reviewer.raw_password)
    html = page.get(f"/entities/{twins['newer']}/", HTTP_HOST="localhost").content.decode()
    assert 'id="entity-twins"' in html and "Possibly the same as" in html
    assert f'href="/review/pairs/{twins["uid"]}/"' in html


def test_after_a_reject_they_are_two_and_after_a_merge_one(twins, scope, api_client):
    check_review_reject(scope, review_uid=twins["uid"], reason="two firms")
    results = anthropics(api_client.get("/api/v1/entities", {"q": "Anthropic"}).json()["results"])
    assert sorted(r["uid"] for r in results) == sorted([twins["older"], twins["newer"]])
    assert all(r["twins"] == [] for r in results)
    assert api_client.get(f"/api/v1/entities/{twins['older']}").json()["twins"] == []


def test_after_a_merge_they_are_one_without_a_twin(twins, scope, api_client):
    check_review_confirm(scope, review_uid=twins["uid"])
    [item] = anthropics(api_client.get("/api/v1/entities", {"q": "Anthropic"}).json()["results"])
    assert item["uid"] == twins["older"] and item["twins"] == []


def test_a_pending_pair_never_shows_in_another_tenant(twins, make_tenant, make_api_client):
    other = make_tenant()
    ingest(scope_for(other), "Anthropic trains models.",
           [EntityCandidate("Anthropic", "Organization", description=ANTHROPIC)])  # fmt: skip
    client = make_api_client(other)
    [item] = anthropics(client.get("/api/v1/entities", {"q": "Anthropic"}).json()["results"])
    assert item["twins"] == []
    # Asked with the first tenant's uids, the other tenant's read finds nothing.
    assert twin_reads.twins_read(scope_for(other), [twins["older"], twins["newer"]]) == {}


def test_a_pair_below_the_threshold_is_two_items(twins, api_client, monkeypatch):
    monkeypatch.setattr(twin_reads, "TWIN_MIN_P", min(1.0, twins["p"] + 0.001))
    results = anthropics(api_client.get("/api/v1/entities", {"q": "Anthropic"}).json()["results"])
    assert len(results) == 2 and all(r["twins"] == [] for r in results)


def _twin(uid, p, primary):
    return {"uid": uid, "name": uid, "type": "Person", "p": p, "pair": f"s-{uid}",
            "review": "", "facts": [], "primary": primary}  # fmt: skip


def test_fold_keeps_the_primary_at_the_better_place_and_follows_a_chain():
    items = [{"uid": "b"}, {"uid": "x"}, {"uid": "a"}, {"uid": "c"}]
    # a is primary over b (b's twin a says primary=False from b's side), b over c.
    found = {
        "b": [_twin("a", 0.9, False), _twin("c", 0.8, True)],
        "a": [_twin("b", 0.9, True)],
        "c": [_twin("b", 0.8, False)],
    }
    folded = twin_reads.twins_fold(items, found)
    assert [i["uid"] for i in folded] == ["a", "x"]
    assert [t["uid"] for t in folded[0]["twins"]] == ["b", "c"]
    assert folded[1]["twins"] == []


def test_the_shown_side_carries_each_rankings_best_place_of_the_pair():
    """Search says how its rankings placed a row: a row that stands for a pair says the better
    place of either side (the document's mention first by words, the agent's entity shown)."""
    items = [{"uid": "b", "ranks": {"words": 1, "meaning": 3}}, {"uid": "a", "ranks": {"words": 2}}]
    found = {"b": [_twin("a", 0.9, False)], "a": [_twin("b", 0.9, True)]}
    folded = twin_reads.twins_fold(items, found)
    assert [i["uid"] for i in folded] == ["a"]
    assert folded[0]["ranks"] == {"words": 1, "meaning": 3}
    assert items[1]["ranks"] == {"words": 2}  # the read rows are left as they were


def test_a_pending_pair_that_is_no_twin_stays_two_items_the_first_naming_the_second():
    items = [{"uid": "a"}, {"uid": "x"}, {"uid": "b"}]
    below = {"a": [{**_twin("b", 0.65, True), "pair": "s-ab", "twin": False}],
             "b": [{**_twin("a", 0.65, False), "pair": "s-ab", "twin": False}]}  # fmt: skip
    folded = twin_reads.twins_fold(items, below, among=True)
    assert [i["uid"] for i in folded] == ["a", "x", "b"]
    assert [(p["uid"], p["pair"], p["p"]) for p in folded[0]["pending"]] == [("b", "s-ab", 0.65)]
    assert folded[1]["pending"] == folded[2]["pending"] == [] and folded[0]["twins"] == []
    # Other reads (search) neither read nor name them.
    assert "pending" not in twin_reads.twins_fold(items, {})[0]


def test_the_older_side_is_primary_whatever_neo4j_trims_of_its_time():
    # Neo4j writes '...:01.5Z' for 01.500 and '...:01Z' for a whole second: as text, both
    # sorted after a later '...:01.512Z' and the newer side was shown.
    for older, newer in [("2026-12-05T15:20:01.5Z", "2026-12-05T15:20:01.512Z"),
                         ("2026-12-05T15:20:01Z", "2026-12-05T15:20:01.3Z")]:  # fmt: skip
        row = {"stated": True, "created_at": older, "proposed_against": False,
               "twin": {"stated": True, "created_at": newer}}  # fmt: skip
        assert twin_reads._primary(row) is True
        flipped = {**row, "created_at": newer, "twin": {"stated": True, "created_at": older}}
        assert twin_reads._primary(flipped) is False
