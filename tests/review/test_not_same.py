"""A pair a reviewer rejected is never proposed or merged again."""

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, Provenance
from apps.resolution.services import entities_resolve
from apps.review.not_same import not_same_record

AGENT = Provenance(agent="agent:test")
DESCRIPTION = "An AI safety company that builds the Claude family of language models."


def resolve(scope, candidate):
    return entities_resolve(scope, entities=[candidate], provenance=AGENT)[0]


def same_as(scope):
    return cypher.read(
        scope,
        "MATCH (a:Entity {tenant: $tenant})-[s:SAME_AS]->(b:Entity) "
        "RETURN a.name AS a, b.name AS b, s.status AS status ORDER BY a, b",
    )


def test_a_rejected_pair_is_never_proposed_again(scope):
    first = resolve(scope, EntityCandidate("Anthropic", "Organization", description=DESCRIPTION))
    second = resolve(
        scope, EntityCandidate("Anthropic AI", "Organization", description=DESCRIPTION)
    )
    assert second.action == "pending"

    assert not_same_record(scope, left_uid=first.entity_uid, right_uid=second.entity_uid)
    assert same_as(scope) == [{"a": "Anthropic AI", "b": "Anthropic", "status": "rejected"}]
    # Recording it again (either direction) is one edge.
    assert not_same_record(scope, left_uid=second.entity_uid, right_uid=first.entity_uid)
    assert cypher.read(
        scope, "RETURN COUNT { MATCH (:Entity {tenant: $tenant})-[:NOT_SAME]-() } AS n"
    ) == [{"n": 2}]

    # The same ambiguous name again, several times: never a new proposal against the other
    # one, never merged into it. (Changed with the match model, issue 12: a name alone no
    # longer merges into the rejected entity either; each is proposed against it instead.)
    for _ in range(3):
        again = resolve(
            scope, EntityCandidate("Anthropic AI", "Organization", description=DESCRIPTION)
        )
        assert again.entity_uid != first.entity_uid
        assert first.entity_uid not in {p["uid"] for p in again.proposed}, again.reason
        assert again.action in ("pending", "created")
    against_first = cypher.read(
        scope,
        "MATCH (:Entity {tenant: $tenant, uid: $uid})-[s:SAME_AS]-() RETURN s.status AS status",
        uid=first.entity_uid,
    )
    assert against_first == [{"status": "rejected"}]


def test_not_same_needs_two_entities_of_this_tenant(scope, make_tenant):
    from tests.conftest import scope_for

    mine = resolve(scope, EntityCandidate("Anthropic", "Organization"))
    other_scope = scope_for(make_tenant())
    theirs = resolve(other_scope, EntityCandidate("Anthropic AI", "Organization"))
    assert not not_same_record(scope, left_uid=mine.entity_uid, right_uid=theirs.entity_uid)
    assert not not_same_record(scope, left_uid=mine.entity_uid, right_uid=mine.entity_uid)
