"""Extractors: the ontology is enforced; the rule extractor; the OpenAI-compatible one against a
local fake endpoint (the only thing outside the project)."""

from __future__ import annotations

import json

import pytest

from apps.knowledge.extractors import (
    ExtractorError,
    OpenAICompatibleExtractor,
    RuleExtractor,
    snake_id,
    validate_triples,
)
from apps.knowledge.selectors import knowledge_graph
from apps.knowledge.services import knowledge_promote_chains
from tests.lessons.conftest import say


def test_the_ontology_is_enforced():
    uids = {"m1"}
    base = {
        "from": "Ann Smith",
        "from_label": "Identities",
        "relation": "likes",
        "to": "Spaced Repetition",
        "to_label": "Concepts",
        "nuance": "a lot",
        "confidence": 1.4,
        "messages": ["m1"],
    }
    [t] = validate_triples([base], message_uids=uids)
    assert (t["from"], t["to"], t["relation"]) == ("ann_smith", "spaced_repetition", "RELATES_TO")
    assert t["nuance"] == "likes: a lot" and t["confidence"] == 1.0
    for broken in [
        {**base, "to_label": "People"},
        {**base, "messages": []},
        {**base, "messages": ["other"]},
        {**base, "confidence": "high"},
        {**base, "relation": "RELATES_TO", "nuance": ""},  # the fallback must say what it means
        {**base, "relation": "relates_to", "nuance": "  "},
        "x",
    ]:
        with pytest.raises(ExtractorError):
            validate_triples([broken], message_uids=uids)
    assert snake_id("Node.js 20!") == "node_js_20"


def test_rule_extractor_reads_first_person_statements_of_the_user():
    messages = [
        {"uid": "m1", "no": 1, "role": "user", "text": "I use go, docker and neo4j."},
        {"uid": "m2", "no": 2, "role": "assistant", "text": "I use nothing."},
        {
            "uid": "m3",
            "no": 3,
            "role": "user",
            "text": "I'm building Atlas for the client Prescott Data. I'm curious about graphs.",
        },
    ]
    got = validate_triples(
        RuleExtractor().extract({"user": "Ann"}, messages), message_uids={"m1", "m2", "m3"}
    )
    assert {(t["from"], t["relation"], t["to"], t["to_label"]) for t in got} == {
        ("ann", "USES", "go", "Tools"),
        ("ann", "USES", "docker", "Tools"),
        ("ann", "USES", "neo4j", "Tools"),
        ("ann", "WORKS_ON", "atlas", "Projects"),
        ("ann", "BUILT_FOR_CLIENT", "prescott_data", "Identities"),
        ("ann", "EXPRESSED_INTEREST", "graphs", "Concepts"),
    }


def test_the_model_extractor_asks_with_a_strict_schema_and_maps_message_numbers(
    scope, chat_server, settings
):
    for text in ["We ship nexus for Prescott.", "It is written in Go.", "ok"]:
        say(scope, "ann", text)
    chat_server.answers.append(
        json.dumps(
            {
                "triples": [
                    {
                        "from": "ann",
                        "from_label": "Identities",
                        "relation": "WORKS_ON",
                        "to": "nexus",
                        "to_label": "Projects",
                        "nuance": "ships it",
                        "confidence": 0.9,
                        "messages": [1],
                    },
                    {
                        "from": "nexus",
                        "from_label": "Projects",
                        "relation": "USES",
                        "to": "go",
                        "to_label": "Tools",
                        "nuance": "",
                        "confidence": 0.7,
                        "messages": [1, 2],
                    },
                ]
            }
        )
    )
    settings.KNOWLEDGE_LLM_URL = chat_server.url
    settings.KNOWLEDGE_LLM_MODEL = "test-model"
    result = knowledge_promote_chains(scope, extractor=OpenAICompatibleExtractor())
    assert result["promoted"] == 1
    path, body = chat_server.requests[0]["path"], chat_server.requests[0]["body"]
    assert path == "/v1/chat/completions" and body["model"] == "test-model"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert "[2] user: It is written in Go." in body["messages"][1]["content"]
    got = {(f["from"], f["relation"], f["to"]): f for f in knowledge_graph(scope, user="ann")}
    assert set(got) == {("ann", "WORKS_ON", "nexus"), ("nexus", "USES", "go")}
    assert got[("nexus", "USES", "go")]["messages"] == 2


def test_an_answer_outside_the_schema_aborts_that_chain_only(scope, chat_server, settings):
    for text in ["a", "b", "c"]:
        say(scope, "ann", text)
    chat_server.answers.append(json.dumps({"triples": [{"from": "ann", "from_label": "People"}]}))
    settings.KNOWLEDGE_LLM_URL = chat_server.url
    result = knowledge_promote_chains(scope, extractor=OpenAICompatibleExtractor())
    assert result["failed"] == 1 and knowledge_graph(scope, user="ann") == []
    # The chain was not marked: the next run tries it again.
    chat_server.answers.append(json.dumps({"triples": []}))
    assert knowledge_promote_chains(scope, extractor=OpenAICompatibleExtractor())["promoted"] == 1


class EmptyNuance:
    """An extractor whose answer is a RELATES_TO that says nothing of what it means."""

    name = "empty-nuance"

    def extract(self, chain, messages):
        return [{"from": chain["user"], "from_label": "Identities", "relation": "RELATES_TO",
                 "to": "go", "to_label": "Tools", "nuance": "", "confidence": 0.9,
                 "messages": [messages[0]["uid"]]}]  # fmt: skip


def test_a_relates_to_without_nuance_is_a_counted_schema_failure(scope):
    from apps.graph.write_failures import write_failures_list
    from memoryproject.metrics import EXTRACTOR_SCHEMA_FAILURES

    counted = EXTRACTOR_SCHEMA_FAILURES.labels(extractor="empty-nuance")
    before = counted._value.get()
    for text in ["a", "b", "c"]:
        say(scope, "ann", text)
    result = knowledge_promote_chains(scope, extractor=EmptyNuance())
    assert result["failed"] == 1 and "nuance" in result["receipts"][0]["reason"]
    assert knowledge_graph(scope, user="ann") == []
    assert counted._value.get() == before + 1
    assert any("nuance" in f["reason"] for f in write_failures_list(scope))
