"""A declared promotion rule of kind `llm`: the model reads each selected ended episode through
the one chat client with a strict JSON schema, and its answer becomes claims that promotion
checks like any rule's. The endpoint is the fake of tests/fake_chat.py (outside the project)."""

from __future__ import annotations

import pytest

from apps.graph.write_failures import write_failures_list
from apps.lessons.selectors import lesson_get, playbooks_for
from memoryproject.metrics import EXTRACTOR_SCHEMA_FAILURES
from tests.conftest import scope_for
from tests.lessons.test_promotion_rules import ended, post

RULE = {"name": "model-reads", "at_least": 1,
        "episodes": {"where": {"observation.status": "hot"}},
        "llm": {"instructions": "Say what hot devices teach."}}  # fmt: skip
ANSWER = {
    "lessons": [{"id": "d1-fan", "statement": "d1 gets hot because of its fan", "agrees": True}],
    "playbooks": [{"id": "cool-d1", "trigger": [{"name": "status", "value": "hot"}],
                   "steps": ["clean the fan"]}],
    "runs": [],
}  # fmt: skip


@pytest.fixture
def endpoint(chat_server, settings):
    settings.PROMOTION_LLM_URL = chat_server.url
    return chat_server


def test_the_model_reads_each_selected_episode_and_its_claims_are_promoted(
    api_client, tenant, endpoint
):
    scope = scope_for(tenant)
    ended(scope)
    ended(scope, status="cold")  # not selected: the model is not asked
    endpoint.answers.append(ANSWER)
    assert post(api_client, "/api/v1/promotion-rules", {"rule": RULE}).status_code == 201
    done = post(api_client, "/api/v1/promotions", {"rule": "model-reads"})
    assert done.status_code == 200, done.json()
    assert done.json()["lessons"] == [{"id": "d1-fan", "status": "learned", "weight": 1}]
    assert lesson_get(scope, key="d1-fan")["statement"] == "d1 gets hot because of its fan"
    assert playbooks_for(scope, situation={"status": "hot"})[0]["steps"] == [
        {"do": "clean the fan"}
    ]
    [asked] = endpoint.requests
    body = asked["body"]
    assert body["response_format"]["json_schema"]["strict"] is True
    assert "Say what hot devices teach." in body["messages"][0]["content"]
    assert '"status": "hot"' in body["messages"][1]["content"]  # the episode's record
    assert post(api_client, "/api/v1/promotions", {"rule": "model-reads"}).json()["episodes"] == 0


def test_an_answer_outside_the_schema_stops_the_promotion_and_is_counted(
    api_client, tenant, endpoint
):
    scope = scope_for(tenant)
    ended(scope)
    counted = EXTRACTOR_SCHEMA_FAILURES.labels(extractor="promotion.llm")
    before = counted._value.get()
    post(api_client, "/api/v1/promotion-rules", {"rule": RULE})
    endpoint.answers.append({"lessons": "not a list"})
    refused = post(api_client, "/api/v1/promotions", {"rule": "model-reads"})
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "llm"
    assert counted._value.get() == before + 1
    assert any(f["kind"] == "promotion" for f in write_failures_list(scope))
    # Nothing was marked read: the next call asks again, and a good answer promotes.
    endpoint.answers.append(ANSWER)
    again = post(api_client, "/api/v1/promotions", {"rule": "model-reads"})
    assert again.status_code == 200 and again.json()["episodes"] == 1


def test_an_llm_rule_is_checked_on_save(api_client, tenant, settings):
    both = {
        **RULE,
        "lessons": [{"id": "x", "statement": "x", "agrees": {"field": "outcome.a", "equals": 1}}],
    }
    refused = post(api_client, "/api/v1/promotion-rules", {"rule": both})
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "llm"
    empty = post(api_client, "/api/v1/promotion-rules",
                 {"rule": {**RULE, "llm": {"instructions": ""}}})  # fmt: skip
    assert empty.status_code == 400 and empty.json()["error"]["field"] == "llm.instructions"
    settings.PROMOTION_LLM_URL = ""
    post(api_client, "/api/v1/promotion-rules", {"rule": RULE})
    ended(scope_for(tenant))
    unset = post(api_client, "/api/v1/promotions", {"rule": "model-reads"})
    assert unset.status_code == 503 and unset.json()["error"]["code"] == "llm_not_configured"
