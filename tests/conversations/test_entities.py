"""Conversations over entities built by the resolution service: mentions, said_about, entity
hits fused from vector and full-text, neighbours, prior traces (each section given when its data
is, an entity without relations too); erasure keeps the entities."""

import pytest

from apps.conversations import context, erasure, selectors, services
from apps.conversations.embedding import messages_embed_pending
from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, Provenance, RelationCandidate
from apps.resolution.services import entities_resolve
from tests.conversations.test_messages import say


def build_world(scope) -> dict:
    entities = [
        EntityCandidate(
            name="Kestrel Turbine",
            type="Object",
            description="A wind turbine model made by Vantor.",
        ),  # fmt: skip
        EntityCandidate(name="Vantor", type="Organization", description="Turbine maker."),
        EntityCandidate(name="Oslo", type="Location", description="City in Norway."),
        EntityCandidate(name="Blue Heron Bakery", type="Organization", description="A bakery."),
    ]
    relations = [
        RelationCandidate(subject=1, predicate="makes", object=0, confidence=0.9),
        RelationCandidate(subject=1, predicate="based_in", object=2, confidence=0.8),
        RelationCandidate(subject=3, predicate="near", object=0, confidence=0.2),
    ]
    receipts = entities_resolve(
        scope, entities=entities, relations=relations, provenance=Provenance(agent="test")
    )
    return {r.name: r.entity_uid for r in receipts if r.kind == "entity"}


def test_mentions_said_about_and_context_over_entities(scope):
    uids = build_world(scope)
    first = say(scope, "The Kestrel turbine is vibrating", mentions=["kestrel  TURBINE", "Nope"])
    assert first["mentions"] == {"linked": [uids["Kestrel Turbine"]], "unknown": ["Nope"]}
    say(scope, "I ordered bread", mentions=["Blue Heron Bakery"])
    say(scope, "Kestrel again, louder", mentions=[uids["Kestrel Turbine"]])
    said = selectors.said_about(scope, user="ann", entity=uids["Kestrel Turbine"])
    assert [m["no"] for m in said] == [3, 1]
    assert selectors.said_about(scope, user="bob", entity=uids["Kestrel Turbine"]) == []

    found = context.check_context(
        scope, user="ann", sid="main", message="Who makes the Kestrel Turbine?", k=2
    )
    hits = [e["name"] for e in found["entity_hits"]]
    assert hits[0] == "Kestrel Turbine"
    assert set(found["entity_hits"][0]["ranks"]) == {"vector", "words"}
    neighbour_names = {n["name"] for n in found["neighbours"]}
    assert "Vantor" in neighbour_names or "Vantor" in hits
    # Oslo is two hops away through confident relations; the bakery's edge is not confident.
    assert "Oslo" in neighbour_names
    assert "Blue Heron Bakery" not in neighbour_names
    assert "Kestrel Turbine" in found["context"]

    again = context.check_context(scope, user="ann", sid="main", message="Kestrel Turbine?", k=2)
    prior = [t for t in again["traces"] if t["uid"] == found["trace"]]
    assert prior and prior[0]["own"] and prior[0]["question"] == "Who makes the Kestrel Turbine?"
    touched = cypher.read(
        scope,
        "MATCH (:ReasoningTrace {uid: $uid})-[r:TOUCHED]->(e:Entity {tenant: $tenant}) "
        "RETURN r.kind AS kind, "
        "e.name AS name",
        uid=found["trace"],
    )
    assert {"kind": "entity_hit", "name": "Kestrel Turbine"} in touched


def test_another_users_prior_trace_shows_no_question(scope):
    build_world(scope)
    context.check_context(scope, user="bob", sid="main", message="Kestrel Turbine price?", k=2)
    found = context.check_context(scope, user="ann", sid="x", message="Kestrel Turbine", k=2)
    assert found["traces"] and all(t["question"] is None and not t["own"] for t in found["traces"])
    assert "price" not in found["context"]


def test_erasure_removes_mentions_and_keeps_entities(scope):
    uids = build_world(scope)
    say(scope, "Kestrel is loud", mentions=["Kestrel Turbine"])
    erasure.messages_erase(scope, user="ann", sid=None)
    left = cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant}) RETURN count(e) AS n, "
        "COUNT { MATCH (:Message)-[:MENTIONS]->(:Entity {tenant: $tenant}) } AS mentions",
    )[0]
    assert left == {"n": len(uids), "mentions": 0}


def test_an_entity_without_relations_is_in_the_context(scope):
    """Found by words or by meaning, an entity is given whether or not it has neighbours."""
    uids = build_world(scope)
    observatory = EntityCandidate(
        name="Quillon Observatory",
        type="Location",
        description="Astronomers watch the night sky through telescopes on this hilltop.",
    )
    [alone] = entities_resolve(scope, entities=[observatory], provenance=Provenance(agent="test"))

    by_words = context.check_context(scope, user="ann", sid="main", k=3,
                                     message="Is the Quillon Observatory open tonight?")  # fmt: skip
    [hit] = [e for e in by_words["entity_hits"] if e["uid"] == alone.entity_uid]
    assert "words" in hit["ranks"]
    assert "Quillon Observatory (Location)" in by_words["context"]
    assert f"entity:{alone.entity_uid}" in by_words["cited"]

    by_meaning = context.check_context(scope, user="ann", sid="main", k=3,
                                       message="Where can I see stars with a big lens?")  # fmt: skip
    [hit] = [e for e in by_meaning["entity_hits"] if e["uid"] == alone.entity_uid]
    assert set(hit["ranks"]) == {"vector"}
    assert "Quillon Observatory (Location)" in by_meaning["context"]

    # The bakery's one relation is not confident enough to follow: it comes without neighbours.
    bakery = context.check_context(scope, user="ann", sid="main", k=3,
                                   message="Blue Heron Bakery opening hours")  # fmt: skip
    assert uids["Blue Heron Bakery"] in [e["uid"] for e in bakery["entity_hits"]]
    assert uids["Blue Heron Bakery"] not in {n["of"] for n in bakery["neighbours"]}


SECTIONS = {
    # section: (what the result lists, what its line in the block says)
    "summary": (lambda f: [f["summary"]] if f["summary"] else [], "Summary up to #1"),
    "message_hits": (lambda f: f["message_hits"], "[main#1] user: The Kestrel turbine"),
    "entity_hits": (lambda f: f["entity_hits"], "Kestrel Turbine (Object)"),
    "neighbours": (lambda f: f["neighbours"], "Vantor -makes-> Kestrel Turbine"),
    "traces": (lambda f: f["traces"], "Earlier context call at"),
}


@pytest.mark.parametrize("section", SECTIONS)
def test_each_section_of_the_context_is_given_when_its_data_is(scope, section):
    build_world(scope)
    say(scope, "The Kestrel turbine rattles whenever the wind picks up.")
    messages_embed_pending(scope)
    services.check_summary_store(scope, user="ann", sid="main", text="Ann reported a noise.",
                                 upto=1, by="desk")  # fmt: skip
    first = context.check_context(scope, user="ann", sid="main", k=3,
                                  message="Who makes the Kestrel Turbine?")  # fmt: skip
    # k=1: the neighbours of the one entity given are not entity hits themselves.
    found = context.check_context(scope, user="ann", sid="main", k=1, token_budget=4000,
                                  message="Why does the Kestrel Turbine rattle?")  # fmt: skip
    listed, line = SECTIONS[section]
    assert listed(found), f"no {section} in the result"
    assert line in found["context"], found["context"]
    if section == "traces":
        assert first["trace"] in [t["uid"] for t in found["traces"]]
