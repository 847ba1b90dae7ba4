"""The block re-resolved when new evidence arrives (resolution.block_pairs): a pair the gate
scored under the review threshold when it first met it is scored again, from both sides as they
are now, once one side has learned more; at or above the review threshold it becomes a pending
pair, once, and a pair a reviewer ruled apart is never proposed again. On the real gate and
Neo4j."""

import json

from apps.graph import cypher
from apps.review.collective_merges import collective_merges
from tests.conftest import scope_for

PAIRS = """
MATCH (a:Entity {tenant: $tenant})-[s:SAME_AS]-(b:Entity {tenant: $tenant})
WHERE a.uid < b.uid
RETURN a.name AS a, b.name AS b, s.status AS status, s.reason AS reason, s.score AS score
"""


def facts(api_client, entity):
    response = api_client.post("/api/v1/facts", {"entities": [entity]}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["receipts"][0]


def learn(scope, uid, values):
    """What a later note would have taught the entity (the gate's absorb writes values_json)."""
    cypher.write(scope, "MATCH (e:Entity {tenant: $tenant, uid: $uid}) SET e.values_json = $v",
                 uid=uid, v=json.dumps(values))  # fmt: skip


def test_a_pair_first_scored_under_review_is_proposed_once_evidence_arrives(tenant, api_client):
    scope = scope_for(tenant)
    full = facts(api_client, {"name": "Wiktor Szymanek", "type": "Person",
                              "values": {"born": "1971"}})  # fmt: skip
    lone = facts(api_client, {"name": "Szymanek", "type": "Person"})
    assert lone["action"] == "created" and lone["score"] < 0.5, lone["reason"]
    assert cypher.read(scope, PAIRS) == []  # the surname alone: never proposed

    collective_merges(scope, entity_uids=[lone["entity_uid"]])
    assert cypher.read(scope, PAIRS) == []  # nothing new: still under the threshold

    learn(scope, lone["entity_uid"], {"born": "1971"})
    collective_merges(scope, entity_uids=[lone["entity_uid"]])
    [pair] = cypher.read(scope, PAIRS)
    assert pair["status"] == "pending" and pair["score"] >= 0.5
    assert pair["reason"].startswith("scored again when new evidence arrived")
    assert "born year" in pair["reason"] and "surname" in pair["reason"]

    collective_merges(scope, entity_uids=[lone["entity_uid"], full["entity_uid"]])
    assert len(cypher.read(scope, PAIRS)) == 1  # proposed once, whoever is named again


def test_a_pair_ruled_apart_is_not_proposed_again(tenant, api_client):
    scope = scope_for(tenant)
    full = facts(api_client, {"name": "Wiktor Szymanek", "type": "Person",
                              "values": {"born": "1971"}})  # fmt: skip
    lone = facts(api_client, {"name": "Szymanek", "type": "Person"})
    cypher.write(scope, "MATCH (a:Entity {tenant: $tenant, uid: $a}), "
                        "(b:Entity {tenant: $tenant, uid: $b}) CREATE (a)-[:NOT_SAME]->(b)",
                 a=full["entity_uid"], b=lone["entity_uid"])  # fmt: skip
    learn(scope, lone["entity_uid"], {"born": "1971"})
    collective_merges(scope, entity_uids=[lone["entity_uid"]])
    assert cypher.read(scope, PAIRS) == []


def test_the_block_stays_in_its_tenant(make_tenant, make_api_client):
    mine, theirs = make_tenant(), make_tenant()
    facts(make_api_client(theirs), {"name": "Wiktor Szymanek", "type": "Person",
                                    "values": {"born": "1971"}})  # fmt: skip
    client = make_api_client(mine)
    lone = facts(client, {"name": "Szymanek", "type": "Person"})
    learn(scope_for(mine), lone["entity_uid"], {"born": "1971"})
    collective_merges(scope_for(mine), entity_uids=[lone["entity_uid"]])
    assert cypher.read(scope_for(mine), PAIRS) == []
    assert cypher.read(scope_for(theirs), PAIRS) == []
