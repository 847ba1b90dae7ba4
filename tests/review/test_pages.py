"""Reviewer pages without a browser: roles, htmx answers, the audit, query budgets."""

from django.test import Client

from apps.graph.cypher import count_round_trips
from apps.tenants.models import Role
from tests.conftest import scope_for
from tests.review.review_fixtures import anthropic_pair, pending_pairs

BUDGET = 10


def client_for(person):
    client = Client()
    client.login(username=person.username, password=person.raw_password)
    return client


def test_queue_and_pair_view_stay_within_the_round_trip_budget(tenant, make_person):
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    client = client_for(make_person(tenant, Role.REVIEWER))
    with count_round_trips() as trips:
        page = client.get("/review/")
    assert page.status_code == 200 and trips[0] <= BUDGET, trips[0]
    assert b'id="pending-count">1<' in page.content and b"Anthropic AI" in page.content
    with count_round_trips() as trips:
        view = client.get(f"/review/pairs/{pair['uid']}/", HTTP_HX_REQUEST="true")
    assert view.status_code == 200 and trips[0] <= BUDGET, trips[0]
    assert b"<html" not in view.content and b"What a merge changes" in view.content


def test_a_viewer_sees_but_cannot_decide(tenant, make_person):
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    client = client_for(make_person(tenant, Role.VIEWER))
    page = client.get("/review/")
    assert page.status_code == 200 and b'data-decide="confirm"' not in page.content
    assert client.post(f"/review/pairs/{pair['uid']}/confirm").status_code == 403
    assert pending_pairs(scope_for(tenant)) == [pair]


def test_a_decision_answers_the_next_pair_and_the_count(tenant, make_person):
    anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    client = client_for(make_person(tenant, Role.REVIEWER))
    answer = client.post(f"/review/pairs/{pair['uid']}/confirm", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert b'id="pending-count" hx-swap-oob="true">0<' in answer.content
    assert b"Merged" in answer.content and b'id="undo-last"' in answer.content
    late = client.post(f"/review/pairs/{pair['uid']}/reject", HTTP_HX_REQUEST="true")
    assert b"Already confirmed by user:" in late.content
    undo = client.post("/review/undo-last", HTTP_HX_REQUEST="true")
    assert b'id="pending-count" hx-swap-oob="true">1<' in undo.content
    audit = client.get("/review/audit/", {"action": "review.confirm"})
    assert audit.status_code == 200 and b"review.confirm" in audit.content
    assert b"merge.undo</td>" not in audit.content


def test_entity_extras_show_the_merge_history(tenant, make_person):
    first, _ = anthropic_pair(scope_for(tenant))
    [pair] = pending_pairs(scope_for(tenant))
    client = client_for(make_person(tenant, Role.REVIEWER))
    client.post(f"/review/pairs/{pair['uid']}/confirm", HTTP_HX_REQUEST="true")
    extras = client.get(f"/entities/{first[0].entity_uid}/review-extras/")
    assert extras.status_code == 200
    assert b'data-merge="' in extras.content and b"Unmerge" in extras.content
