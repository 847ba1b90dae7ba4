"""Cluster review pages without a browser: roles, CSRF, the htmx answers of a decision and its
undo, a split from the group selectors, and the pages' round trips."""

from django.test import Client

from apps.graph.cypher import count_round_trips
from apps.tenants.models import Role
from tests.conftest import scope_for
from tests.review.cluster_fixtures import entity_states, firm_fragments
from tests.review.review_fixtures import pending_pairs
from tests.review.test_pages import client_for

# The list page: the pairs read once, and the cluster in view (its component, its members).
PAGE_BUDGET = 3


def test_a_viewer_sees_the_cluster_but_cannot_decide(tenant, make_person):
    firm_fragments(scope_for(tenant))
    client = client_for(make_person(tenant, Role.VIEWER))
    with count_round_trips() as trips:
        page = client.get("/review/clusters/")
    assert page.status_code == 200 and trips[0] <= PAGE_BUDGET, trips[0]
    assert b'id="cluster-count">1<' in page.content and page.content.count(b"data-member=") == 6
    assert b'data-decide="confirm"' not in page.content and b'id="viewer-note"' in page.content
    cluster_id = page.content.split(b'data-pair="')[1].split(b'"')[0].decode()
    answer = client.post(f"/review/clusters/{cluster_id}/decide", {"decision": "accept"})
    assert answer.status_code == 403
    assert set(entity_states(scope_for(tenant)).values()) == {"active"}


def test_accept_then_undo_answer_with_the_list_the_count_and_the_undo(tenant, make_person):
    scope = scope_for(tenant)
    uids = firm_fragments(scope)
    reviewer = make_person(tenant, Role.REVIEWER)
    strict = Client(enforce_csrf_checks=True)
    strict.login(username=reviewer.username, password=reviewer.raw_password)
    page = strict.get("/review/clusters/")
    cluster_id = page.content.split(b'data-pair="')[1].split(b'"')[0].decode()
    assert b'data-decide="split"' in page.content and b'name="group-' in page.content
    no_token = strict.post(f"/review/clusters/{cluster_id}/decide", {"decision": "accept"})
    assert no_token.status_code == 403

    client = client_for(reviewer)
    fragment = client.get(f"/review/clusters/{cluster_id}/", HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and b"<html" not in fragment.content
    body = {"decision": "accept", "members": list(uids.values())}
    answer = client.post(f"/review/clusters/{cluster_id}/decide", body, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "Merged 6 members into “Anthropic”".encode() in answer.content
    assert b'id="cluster-count" hx-swap-oob="true">0<' in answer.content
    assert b'id="undo-last"' in answer.content
    late = client.post(f"/review/clusters/{cluster_id}/decide", body, HTTP_HX_REQUEST="true")
    assert b"Already decided (accept) by user:" in late.content
    undone = client.post(f"/review/clusters/{cluster_id}/undo", HTTP_HX_REQUEST="true")
    assert b'id="cluster-count" hx-swap-oob="true">1<' in undone.content
    assert f'data-pair="{cluster_id}"'.encode() in undone.content
    assert set(entity_states(scope).values()) == {"active"}
    audit = client.get("/review/audit/", {"action": "review.cluster_undo"})
    assert audit.status_code == 200 and cluster_id.encode() in audit.content


def test_a_split_takes_its_groups_from_the_selectors(tenant, make_person):
    scope = scope_for(tenant)
    uids = firm_fragments(scope)
    client = client_for(make_person(tenant, Role.REVIEWER))
    page = client.get("/review/clusters/")
    cluster_id = page.content.split(b'data-pair="')[1].split(b'"')[0].decode()
    second = ("Anthropic Labs", "Anthropic Safety", "Anthropic Studio")
    body = {"decision": "split", "members": list(uids.values()),
            **{f"group-{uids[name]}": "2" for name in second}}  # fmt: skip
    answer = client.post(f"/review/clusters/{cluster_id}/decide", body, HTTP_HX_REQUEST="true")
    assert b"Split into 2 groups" in answer.content, answer.content[-600:]
    active = {n for n, s in entity_states(scope).items() if s == "active"}
    assert active == {"Anthropic", "Anthropic Labs"} and pending_pairs(scope) == []
    one_group = client.post(f"/review/clusters/{cluster_id}/undo", HTTP_HX_REQUEST="true")
    assert one_group.status_code == 200
    refused = client.post(f"/review/clusters/{cluster_id}/decide",
                          {"decision": "split", "members": list(uids.values())},
                          HTTP_HX_REQUEST="true")  # fmt: skip
    assert b"A split needs at least two groups." in refused.content
