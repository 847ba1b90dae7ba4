"""The graph pictures' data: the bounded neighbourhood of an entity (relations labelled, pending
twins as their own kind, relations that ended marked), the JSON a click expands a node with
(bounds refused with 400 naming the field), the entity page's fragment with its table, and no
other tenant's entity in any of them."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.insights.selectors import graph_communities
from apps.insights.view_selectors import MAX_PER_NODE, MAX_SEEDS, graph_neighbourhood
from apps.tenants.models import Role
from tests.conftest import scope_for
from tests.insights.known_graph import known_graph_write
from tests.review.review_fixtures import anthropic_pair

pytestmark = pytest.mark.django_db


def client_for(person) -> Client:
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def test_a_neighbourhood_has_labelled_edges_ended_ones_marked_and_communities_when_kept(tenant):
    scope = scope_for(tenant)
    prefix = known_graph_write(scope)
    before = graph_neighbourhood(scope, uids=[prefix + "A4"])
    assert before["communities"] is False and {n["community"] for n in before["nodes"]} == {None}
    ids = {n["id"] for n in before["nodes"]}
    assert ids == {prefix + n for n in ("A4", "A1", "A2", "A3", "B1")}
    edges = {(e["source"][-2:], e["label"], e["target"][-2:]): e for e in before["edges"]}
    assert set(edges) == {("A2", "near", "A4"), ("A3", "near", "A4"), ("A4", "works_for", "A1"),
                          ("A4", "works_for", "B1")}  # fmt: skip
    assert edges[("A4", "works_for", "B1")]["holds"] is False  # closed in 2025-08
    assert edges[("A4", "works_for", "A1")]["holds"] is True
    assert edges[("A4", "works_for", "A1")]["source_name"] == "A4"
    [seed] = [n for n in before["nodes"] if n["seed"]]
    assert seed["id"] == prefix + "A4" and seed["degree"] == 4 and before["truncated"] is False

    graph_communities(scope)  # computed (and kept) by the page "Graph"
    after = graph_neighbourhood(scope, uids=[prefix + "A4"])
    assert after["communities"] is True
    community = {n["id"][-2:]: n["community"] for n in after["nodes"]}
    assert community["A1"] == community["A2"] == community["A4"] is not None

    bounded = graph_neighbourhood(scope, uids=[prefix + "A4"], per_node=2)
    assert len(bounded["edges"]) == 2 and bounded["truncated"] is True
    small = graph_neighbourhood(scope, uids=[prefix + "A4", prefix + "B2"], max_nodes=3)
    assert len(small["nodes"]) == 3 and small["truncated"] is True


def test_pending_twins_are_dashed_edges_of_their_own_kind(tenant):
    scope = scope_for(tenant)
    first, second = anthropic_pair(scope)
    picture = graph_neighbourhood(scope, uids=[second[0].entity_uid])
    [twin] = [e for e in picture["edges"] if e["kind"] == "twin"]
    assert twin["label"] == "possible twin" and 0 < twin["score"] < 1
    assert first[0].entity_uid in (twin["source"], twin["target"])
    related = {e["label"] for e in picture["edges"] if e["kind"] == "related"}
    assert related == {"BUILDS", "INVESTED_IN"}


def test_expanding_json_is_bounded_session_only_and_tenant_scoped(tenant, make_tenant,
                                                                  make_person):  # fmt: skip
    prefix = known_graph_write(scope_for(tenant))
    other = make_tenant()
    other_prefix = known_graph_write(scope_for(other))
    anonymous = Client().get("/graph/neighbourhood/", {"uid": prefix + "A1"})
    assert anonymous.status_code == 302
    client = client_for(make_person(tenant, Role.VIEWER))

    answer = client.get("/graph/neighbourhood/", {"uid": [prefix + "B1", other_prefix + "B1"]})
    assert answer.status_code == 200
    ids = {n["id"] for n in answer.json()["nodes"]}
    assert prefix + "B1" in ids and not any(i.startswith(other_prefix) for i in ids)

    for params, field in [({}, "uid"), ({"uid": ["x"] * (MAX_SEEDS + 1)}, "uid"),
                          ({"uid": "x" * 500}, "uid"),
                          ({"uid": prefix + "B1", "per_node": MAX_PER_NODE + 1}, "per_node"),
                          ({"uid": prefix + "B1", "per_node": "many"}, "per_node")]:  # fmt: skip
        refused = client.get("/graph/neighbourhood/", params)
        assert refused.status_code == 400, params
        assert refused.json()["error"]["field"] == field

    page = client.get(f"/graph/entities/{prefix}B1/neighbourhood/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="entity-graph-data"' in html and "works_for" in html
    assert 'class="graph-edges"' in html and other_prefix not in html
    assert client.get(f"/graph/entities/{other_prefix}B1/neighbourhood/").status_code == 404
    graph = client.get("/graph/").content.decode()
    assert 'id="graph-picture-data"' in graph and other_prefix not in graph
