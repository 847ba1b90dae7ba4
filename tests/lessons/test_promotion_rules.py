"""Promotion rules a tenant declares in data: checked on save, tried without writing, versioned,
and run by POST /api/v1/promotions like a rule in code (seed 001's example, as data)."""

from __future__ import annotations

import copy

import pytest

from apps.graph.write_failures import write_failures_list
from apps.lessons.selectors import lesson_get, playbook_get, playbooks_for
from apps.lessons.services.episodes import (
    check_entry_record,
    check_episode_close,
    check_episode_open,
)
from tests.conftest import scope_for
from tests.lessons.conftest import entity_make

FAN = {
    "name": "cool-by-cause",
    "episodes": {"where": {"observation.status": "hot"}},
    "at_least": 2,
    "lessons": [
        {
            "id": "{observation.device}-fan",
            "statement": "{observation.device} gets hot because of its fan",
            "agrees": {"field": "outcome.cause", "equals": "fan"},
        }
    ],
    "playbooks": [
        {
            "id": "cool-{observation.device}",
            "trigger": {"status": "hot", "device": "{observation.device}"},
            "steps": [{"do": "{outcome.step}"}],
        }
    ],
    "runs": [{"playbook": "cool-{observation.device}", "succeeded": "outcome.fixed"}],
}


def ended(scope, *, status="hot", cause="fan", step="clean the fan", fixed=True, about=()):
    ep = check_episode_open(scope, about=list(about))["id"]
    check_entry_record(scope, episode=ep, type="observation",
                       values={"status": status, "device": "d1"})  # fmt: skip
    check_episode_close(scope, episode=ep, outcome={"cause": cause, "step": step, "fixed": fixed})
    return ep


def post(client, path, body):
    return client.post(path, body, format="json")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.pop("name"), "rule.name"),
        (lambda r: r.update(name="has space"), "name"),
        (lambda r: r.update(colour="red"), "rule.colour"),
        (lambda r: r["lessons"][0].update(id="{observation.device} fan"), "lessons[0].id"),
        (lambda r: r["lessons"][0].update(statement="{nope}"), "lessons[0].statement"),
        (lambda r: r["lessons"][0]["agrees"].pop("equals"), "lessons[0].agrees"),
        (lambda r: r["lessons"][0].pop("agrees"), "lessons[0].agrees"),
        (lambda r: r["playbooks"][0].update(steps=[]), "playbooks[0].steps"),
        (lambda r: r["runs"][0].update(succeeded="fixed"), "runs[0].succeeded"),
        (lambda r: r["episodes"]["where"].update({"Bad.field": 1}), "episodes.where.Bad.field"),
        (lambda r: r.update(at_least=0), "at_least"),
        (lambda r: r.update(lessons=[], playbooks=[], runs=[]), "lessons"),
    ],
)
def test_a_broken_rule_is_refused_on_save_naming_the_field(api_client, tenant, change, field):
    rule = copy.deepcopy(FAN)
    change(rule)
    refused = post(api_client, "/api/v1/promotion-rules", {"rule": rule})
    assert refused.status_code == 400, refused.json()
    assert refused.json()["error"]["field"] == field
    assert api_client.get("/api/v1/promotion-rules").json()["results"] == []
    assert write_failures_list(scope_for(tenant))[0]["kind"] == "promotion_rule"


def test_a_rule_in_data_promotes_through_the_api_as_seed_001s_example(api_client, tenant):
    scope = scope_for(tenant)
    d1 = entity_make(scope, "d1")
    for _ in range(2):
        ended(scope, about=[d1])
    ended(scope, cause="dust")
    ended(scope, status="cold")  # not selected: shows nothing
    saved = post(api_client, "/api/v1/promotion-rules", {"rule": FAN})
    assert saved.status_code == 201 and saved.json() == {
        "name": "cool-by-cause", "version": 1, "status": "saved",
    }  # fmt: skip
    done = post(api_client, "/api/v1/promotions", {"rule": "cool-by-cause"})
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["episodes"] == 4 and body["at_least"] == 2  # the rule's own at_least
    # learned from the first two, then weighed by the third: the strongest receipt is kept
    assert body["lessons"] == [{"id": "d1-fan", "status": "learned", "weight": 2}]
    assert body["playbooks"] == [{"id": "cool-d1#1", "version": 1, "status": "written"}]
    lesson = lesson_get(scope, key="d1-fan")
    assert (lesson["support"], lesson["against"]) == (2, 1)
    assert playbooks_for(scope, situation={"status": "hot", "device": "d1"})[0]["steps"] == [
        {"do": "clean the fan"}
    ]
    assert body["runs"][-1]["status"] == "judged"  # the third ran the playbook the second wrote
    # Each episode counts once: a second call reads nothing.
    again = post(api_client, "/api/v1/promotions", {"rule": "cool-by-cause"}).json()
    assert (again["episodes"], again["lessons"], again["runs"]) == (0, [], [])


def test_a_dry_run_shows_the_receipts_and_writes_nothing(api_client, tenant):
    scope = scope_for(tenant)
    for _ in range(2):
        ended(scope)
    tried = post(api_client, "/api/v1/promotions/dry-run", {"rule": FAN})
    assert tried.status_code == 200, tried.json()
    body = tried.json()
    assert body["dry_run"] is True and body["episodes"] == 2
    assert body["lessons"] == [{"id": "d1-fan", "status": "learned", "weight": 2}]
    assert body["playbooks"] == [{"id": "cool-d1#1", "version": 1, "status": "written"}]
    assert body["shown"][0]["claims"][0] == {
        "lesson": "d1-fan", "statement": "d1 gets hot because of its fan", "agrees": True,
        "about": [],
    }  # fmt: skip
    assert lesson_get(scope, key="d1-fan") is None and playbook_get(scope, key="cool-d1") is None
    assert api_client.get("/api/v1/promotion-rules").json()["results"] == []
    # Nothing was marked read: the saved rule then reads the same two episodes.
    post(api_client, "/api/v1/promotion-rules", {"rule": FAN})
    real = post(api_client, "/api/v1/promotions", {"rule": "cool-by-cause"}).json()
    assert real["episodes"] == 2 and real["lessons"] == body["lessons"]
    broken = post(api_client, "/api/v1/promotions/dry-run", {"rule": {**FAN, "at_least": "x"}})
    assert broken.status_code == 400 and broken.json()["error"]["field"] == "at_least"


def test_versions_are_kept_one_is_active_and_a_new_one_reads_only_new_episodes(api_client, tenant):
    scope = scope_for(tenant)
    ended(scope)
    assert post(api_client, "/api/v1/promotion-rules", {"rule": FAN}).status_code == 201
    same = post(api_client, "/api/v1/promotion-rules", {"rule": FAN})
    assert same.status_code == 200 and same.json()["status"] == "unchanged"
    assert post(api_client, "/api/v1/promotions", {"rule": "cool-by-cause"}).json()["episodes"] == 1
    second = {**FAN, "at_least": 1, "description": "one is enough"}
    assert post(api_client, "/api/v1/promotion-rules", {"rule": second}).json()["version"] == 2
    versions = api_client.get("/api/v1/promotion-rules/cool-by-cause").json()
    assert versions["active"] == 2
    assert [(v["version"], v["active"]) for v in versions["versions"]] == [(2, True), (1, False)]
    assert versions["versions"][1]["rule"] == FAN  # the old version is kept as it was
    # Version 2 does not count the episode version 1 read.
    assert post(api_client, "/api/v1/promotions", {"rule": "cool-by-cause"}).json()["episodes"] == 0
    ended(scope)
    body = post(api_client, "/api/v1/promotions", {"rule": "cool-by-cause"}).json()
    assert body["at_least"] == 1 and body["lessons"][0]["status"] == "learned"
    back = post(api_client, "/api/v1/promotion-rules/cool-by-cause/activate", {"version": 1})
    assert back.json() == {"name": "cool-by-cause", "version": 1, "status": "active"}
    listed = api_client.get("/api/v1/promotion-rules").json()["results"]
    assert [(r["name"], r["version"], r["versions"]) for r in listed] == [("cool-by-cause", 1, 2)]
    missing = post(api_client, "/api/v1/promotion-rules/cool-by-cause/activate", {"version": 9})
    assert missing.status_code == 404 and missing.json()["error"]["field"] == "version"


def test_rules_belong_to_one_tenant(api_client, make_tenant, make_api_client):
    assert post(api_client, "/api/v1/promotion-rules", {"rule": FAN}).status_code == 201
    other = make_api_client(make_tenant())
    assert other.get("/api/v1/promotion-rules/cool-by-cause").status_code == 404
    refused = post(other, "/api/v1/promotions", {"rule": "cool-by-cause"})
    assert refused.status_code == 404 and refused.json()["error"]["field"] == "rule"
    reader = make_api_client(make_tenant(), scopes=["memory:read"])
    assert post(reader, "/api/v1/promotion-rules", {"rule": FAN}).status_code == 403


pytestmark = pytest.mark.django_db
