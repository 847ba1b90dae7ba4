"""The cluster review API for agents: answers that fit their schema, one request per decision,
409 on a stale cluster, 404 for another tenant's, the review scope, and every input bounded."""

import httpx
import pytest
import schemathesis

from apps.graph.cypher import count_round_trips
from apps.tenants.models import KeyScope
from tests.conftest import scope_for
from tests.memoryproject.test_api_schema import openapi
from tests.review.cluster_fixtures import entity_states, firm_fragments
from tests.review.review_fixtures import pending_pairs

REVIEW = [KeyScope.REVIEW.value]
# Cypher round trips of an accept of six fragments: the lock and the cluster, the five merges'
# own (the pair's state, a read, a write), a read of the survivor's pairs, the count of
# decisions, the record, the graph version.
DECISION_BUDGET = 21


def fits(schema, path: str, method: str, response: httpx.Response) -> dict:
    assert response.status_code < 300, (path, response.status_code, response.text[:500])
    schema[path][method].validate_response(response)
    return response.json()


@pytest.mark.django_db(transaction=True)
def test_list_read_decide_and_undo_answers_fit_their_schema(tenant, make_api_client, live_server):
    firm_fragments(scope_for(tenant))
    key = make_api_client(tenant, REVIEW).raw_key
    schema = schemathesis.openapi.from_dict(openapi())
    with httpx.Client(base_url=live_server.url, headers={"Authorization": f"Api-Key {key}"},
                      timeout=120) as agent:  # fmt: skip
        listing = fits(schema, "/api/v1/reviews/clusters", "GET",
                       agent.get("/api/v1/reviews/clusters"))  # fmt: skip
        [row] = listing["results"]
        path = f"/api/v1/reviews/clusters/{row['id']}"
        cluster = fits(schema, "/api/v1/reviews/clusters/{cluster_id}", "GET", agent.get(path))
        assert cluster["members"][0]["survivor"] and cluster["members"][0]["evidence"]
        members = [m["uid"] for m in cluster["members"]]
        decided = fits(
            schema, "/api/v1/reviews/clusters/{cluster_id}/decision", "POST",
            agent.post(f"{path}/decision",
                       json={"decision": "accept", "expected_members": members}),
        )  # fmt: skip
        assert len(decided["merges"]) == 5
        undone = fits(schema, "/api/v1/reviews/clusters/{cluster_id}/undo", "POST",
                      agent.post(f"{path}/undo"))  # fmt: skip
        assert len(undone["merges_undone"]) == 5


def test_a_decision_is_one_request_and_a_stale_one_is_refused(tenant, make_api_client):
    scope = scope_for(tenant)
    firm_fragments(scope)
    client = make_api_client(tenant, REVIEW)
    [row] = client.get("/api/v1/reviews/clusters").json()["results"]
    path = f"/api/v1/reviews/clusters/{row['id']}"
    members = [m["uid"] for m in row["members"]]
    with count_round_trips() as trips:
        accepted = client.post(f"{path}/decision", {"decision": "accept",
                                                    "expected_members": members}, format="json")  # fmt: skip
    assert accepted.status_code == 200, accepted.json()
    assert trips[0] <= DECISION_BUDGET, trips[0]
    assert list(entity_states(scope).values()).count("active") == 1
    again = client.post(f"{path}/decision", {"decision": "reject"}, format="json")
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "conflict" and error["decision"] == "accept"
    assert error["decided_by"].startswith("key:")
    assert client.get(path).status_code == 404  # decided: no such cluster now
    assert client.post(f"{path}/undo").status_code == 200
    assert client.post(f"{path}/undo").status_code == 409
    assert client.get(path).status_code == 200


def test_another_tenants_cluster_is_not_found_and_a_read_key_cannot_decide(
    make_tenant, make_api_client
):
    mine, theirs = make_tenant(), make_tenant()
    firm_fragments(scope_for(theirs))
    [row] = make_api_client(theirs, REVIEW).get("/api/v1/reviews/clusters").json()["results"]
    path = f"/api/v1/reviews/clusters/{row['id']}"
    client = make_api_client(mine, REVIEW)
    assert client.get("/api/v1/reviews/clusters").json()["results"] == []
    assert client.get(path).status_code == 404
    refused = client.post(f"{path}/decision", {"decision": "accept"}, format="json")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert client.post(f"{path}/undo").status_code == 404
    reader = make_api_client(theirs, [KeyScope.MEMORY_READ.value, KeyScope.MEMORY_WRITE.value])
    assert reader.get("/api/v1/reviews/clusters").status_code == 403
    assert reader.post(f"{path}/decision", {"decision": "reject"}, format="json").status_code == 403
    assert len(pending_pairs(scope_for(theirs))) == row["pairs"]


@pytest.mark.parametrize(
    ("body", "field", "limit"),
    [
        ({"decision": "merge"}, "decision", None),
        ({"decision": "split"}, "groups", None),
        ({"decision": "accept", "groups": [["a"], ["b"]]}, "groups", None),
        ({"decision": "split", "groups": [["a"]] * 13}, "groups", 12),
        ({"decision": "split", "groups": [["a"], ["b"] * 13]}, "groups[1]", 12),
        ({"decision": "split", "groups": [["a"], ["b" * 65]]}, "groups[1][0]", 64),
        ({"decision": "accept", "expected_members": ["x"] * 13}, "expected_members", 12),
        ({"decision": "accept", "expected_members": ["x" * 65]}, "expected_members[0]", 64),
        ({"decision": "accept", "survivor": "x"}, "survivor", None),
    ],
)
def test_every_input_is_bounded_and_named(tenant, make_api_client, body, field, limit):
    client = make_api_client(tenant, REVIEW)
    answer = client.post("/api/v1/reviews/clusters/a.0123456789ab/decision", body, format="json")
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    assert error["field"] == field and error.get("limit") == limit, error
    listing = client.get("/api/v1/reviews/clusters", {"limit": 201})
    assert listing.status_code == 400 and listing.json()["error"]["limit"] == 200
