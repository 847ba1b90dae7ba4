"""Conversations over entities built by the resolution service: mentions, said_about, entity
hits fused from vector and full-text, neighbours, prior traces; erasure keeps the entities."""

from apps.conversations import context, erasure, selectors
from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, Provenance, RelationCandidate
from apps.resolution.entity_resolve import entities_resolve
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
    erasure.do_erase(scope, user="ann", sid=None)
    left = cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant}) RETURN count(e) AS n, "
        "COUNT { MATCH (:Message)-[:MENTIONS]->(:Entity {tenant: $tenant}) } AS mentions",
    )[0]
    assert left == {"n": len(uids), "mentions": 0}
