"""GET /api/v1/entities and /api/v1/entities/{uid}: words and meaning, the entity's whole story,
bad input, scopes, and tenants that never see each other."""

import pytest

from apps.graph.cypher import count_round_trips
from apps.resolution.candidates import EntityCandidate, MentionSpan, Provenance, RelationCandidate
from apps.resolution.services import entities_resolve
from apps.tenants.models import KeyScope
from tests.chunks import chunk_ingest, document_for

TEXT = "Marie Curie studied radioactivity at the University of Paris with Pierre Curie."
CANDIDATES = [
    EntityCandidate(
        "Marie Curie", "Person", aliases=("Maria Sklodowska",),
        description="Physicist and chemist who pioneered research on radioactivity.",
        mentions=(MentionSpan("Marie Curie", 0, 11),),
    ),
    EntityCandidate(
        "University of Paris", "Organization", description="A university in France.",
        mentions=(MentionSpan("University of Paris", 41, 60),),
    ),
    EntityCandidate("Pierre Curie", "Person", description="French physicist."),
]  # fmt: skip
RELATIONS = [
    RelationCandidate(0, "STUDIED_AT", 1, confidence=0.9, nuance="radioactivity"),
    RelationCandidate(0, "MARRIED_TO", 2, confidence=0.7),
]


def ingest(scope, *, title="Curie notes"):
    """What the ingestion pipeline does for one chunk: the document, then the chunk and the
    resolution in one transaction."""
    return chunk_ingest(scope, TEXT, CANDIDATES, RELATIONS, title=title, source="notes")[1]


def test_search_by_words_and_by_meaning(scope, api_client):
    ingest(scope)
    by_alias = api_client.get("/api/v1/entities", {"q": "Sklodowska"}).json()["results"]
    assert by_alias[0]["name"] == "Marie Curie" and "words" in by_alias[0]["via"]
    by_meaning = api_client.get(
        "/api/v1/entities", {"q": "scientist of radioactive elements", "type": "Person"}
    ).json()["results"]
    assert by_meaning[0]["name"] == "Marie Curie" and by_meaning[0]["via"] == ["meaning"]
    assert {r["type"] for r in by_meaning} == {"Person"}
    limited = api_client.get("/api/v1/entities", {"q": "curie", "limit": 1}).json()["results"]
    assert len(limited) == 1
    browse = api_client.get("/api/v1/entities").json()["results"]
    assert {r["name"] for r in browse} == {"Marie Curie", "University of Paris", "Pierre Curie"}


def test_a_few_letters_list_what_they_spell_not_everything_by_meaning(scope, api_client):
    """Below the floor the meaning search only pads: typing "okaf" lists the Okafors alone."""
    from apps.ingestion.services import check_facts_submit

    names = [("Chidi Okafor", "Person"), ("Maria Lopez", "Person"), ("Ada Lovelace", "Person"),
             ("Charles Babbage", "Person"), ("Turin", "Location"), ("Acme Corp", "Organization"),
             ("Analytical Engine", "Object"), ("Okafor Holdings", "Organization")]  # fmt: skip
    check_facts_submit(scope, entities=[{"name": n, "type": t} for n, t in names], relations=[])
    found = api_client.get("/api/v1/entities", {"q": "okaf"}).json()["results"]
    assert {r["name"] for r in found} == {"Chidi Okafor", "Okafor Holdings"}
    assert all("words" in r["ranks"] for r in found)


def test_detail_shows_names_relations_mentions_and_pending(scope, api_client):
    receipts = ingest(scope)
    [pending] = entities_resolve(
        scope,
        entities=[EntityCandidate("Marie Curie-Sklodowska", "Person",
                                  description=CANDIDATES[0].description)],
        provenance=Provenance(agent="agent:test"),
    )  # fmt: skip
    assert pending.action == "pending", pending.reason
    uid = receipts[0].entity_uid
    with count_round_trips() as trips:
        response = api_client.get(f"/api/v1/entities/{uid}")
    assert response.status_code == 200
    assert trips[0] == 1  # one round trip, whatever the entity's size
    body = response.json()
    assert (body["name"], body["type"], body["aliases"]) == (
        "Marie Curie", "Person", ["Maria Sklodowska"]
    )  # fmt: skip
    assert body["description"].startswith("Physicist")
    relations = {r["predicate"]: r for r in body["relations"]}
    assert relations["STUDIED_AT"]["other"]["name"] == "University of Paris"
    assert (relations["STUDIED_AT"]["weight"], relations["STUDIED_AT"]["confidence"]) == (1, 0.9)
    assert relations["STUDIED_AT"]["direction"] == "out"
    [mention] = body["mentions"]
    assert (mention["surface"], mention["start"], mention["end"]) == ("Marie Curie", 0, 11)
    assert mention["text"] == TEXT and mention["document_uid"] == document_for(scope, TEXT)
    assert mention["document_title"] == "Curie notes"
    [pair] = body["pending"]
    assert pair["other"]["uid"] == pending.entity_uid and pair["reason"] == pending.reason
    # The weight in bits of each comparison that had evidence (issue 12's match model).
    assert set(pair["signals"]) == {"name", "description"}
    # The other end shows the relation inbound.
    other = api_client.get(f"/api/v1/entities/{receipts[1].entity_uid}").json()
    assert other["relations"][0]["direction"] == "in"


def test_another_tenants_entities_are_invisible(scope, make_tenant, make_api_client):
    receipts = ingest(scope)
    stranger = make_api_client(make_tenant())
    assert stranger.get(f"/api/v1/entities/{receipts[0].entity_uid}").status_code == 404
    assert stranger.get("/api/v1/entities", {"q": "Marie Curie"}).json()["results"] == []
    assert stranger.get("/api/v1/entities").json()["results"] == []


@pytest.mark.parametrize(
    "params,field",
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"limit": "many"}, "limit"),
        ({"type": "Software"}, "type"),
        ({"q": "x" * 501}, "q"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_input_names_the_field(tenant, api_client, params, field):
    response = api_client.get("/api/v1/entities", params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert field in error["fields"]


def test_the_limit_is_stated(tenant, api_client):
    error = api_client.get("/api/v1/entities", {"limit": 101}).json()["error"]
    assert "100" in str(error["fields"]["limit"])


def test_reading_needs_memory_read(tenant, make_api_client):
    writer = make_api_client(tenant, scopes=[KeyScope.MEMORY_WRITE])
    assert writer.get("/api/v1/entities").status_code == 403
    assert writer.get("/api/v1/entities/abc").status_code == 403


def test_a_missing_entity_is_404(tenant, api_client):
    response = api_client.get("/api/v1/entities/no-such-uid")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_search_is_one_round_trip(scope, api_client):
    ingest(scope)
    with count_round_trips() as trips:
        response = api_client.get("/api/v1/entities", {"q": "curie", "type": "Person"})
    # The search, and one read of its results' possible twins (resolution.twin_reads).
    assert response.status_code == 200 and trips[0] == 2
