"""Extractors of rows from entries: the rules read `name: value` blocks of a kind, the LLM one
asks the one chat client with a strict schema of the kind; a bad answer is an ExtractorError."""

from __future__ import annotations

import pytest

from apps.timeline.entry_extractors import (
    MAX_ROWS_PER_ENTRY,
    ExtractorError,
    LLMExtractor,
    RuleExtractor,
    extractor_named,
    rows_checked,
    rows_schema,
)
from apps.timeline.kinds import kind_from_dict
from tests.timeline.conftest import DEVICE

KIND = kind_from_dict(DEVICE)


def entry(text: str) -> dict:
    return {"uid": "e1", "serial": 1, "type": "observation", "text": text, "values": {},
            "by": "agent:a", "at": "2026-01-01T00:00:00Z"}  # fmt: skip


def test_the_rules_read_one_row_per_block_that_names_the_key():
    text = ("serial: d1\nstatus = hot\ntemp: 71.5\ncount: 3\nok: TRUE\nUSED_BY: red, blue\n"
            "colour: green\n\nnothing here\n\nserial: d2\nt: 2026-01-02T00:00:00Z\ncount: many")  # fmt: skip
    assert RuleExtractor().extract(KIND, entry(text)) == [
        {"key": "d1", "values": {"status": "hot", "temp": 71.5, "count": 3, "ok": True},
         "relations": {"USED_BY": ["red", "blue"]}},
        # Unreadable as its type, a value stays text: the row's check refuses it.
        {"key": "d2", "t": "2026-01-02T00:00:00Z", "values": {"count": "many"}, "relations": {}},
    ]  # fmt: skip
    assert RuleExtractor().extract(KIND, entry("the pump is quiet")) == []


def test_an_answer_is_a_bounded_list_of_objects():
    assert rows_checked([{"key": "d1"}]) == [{"key": "d1"}]
    for bad in ({"key": "d1"}, [1], [{}] * (MAX_ROWS_PER_ENTRY + 1), None):
        with pytest.raises(ExtractorError):
            rows_checked(bad)
    with pytest.raises(ExtractorError):
        extractor_named("magic")
    assert extractor_named("rules").name == "rules"


def test_the_llm_extractor_asks_with_the_kinds_strict_schema(chat_server):
    schema = rows_schema(KIND)
    row = schema["properties"]["rows"]["items"]
    assert row["properties"]["values"]["required"] == sorted(DEVICE["values"])
    assert row["properties"]["values"]["additionalProperties"] is False
    chat_server.answer = {"rows": [{"key": "d1", "t": None, "values": {"status": "ok", "temp": None},
                                    "relations": {"LOCATED_IN": ["r1"], "USED_BY": []}}]}  # fmt: skip
    got = LLMExtractor(url=chat_server.url, model="m").extract(KIND, entry("d1 is ok in r1"))
    assert got == [{"key": "d1", "values": {"status": "ok"},
                    "relations": {"LOCATED_IN": ["r1"], "USED_BY": []}}]  # fmt: skip
    body = chat_server.requests[0]["body"]
    assert body["response_format"]["json_schema"]["schema"] == schema
    chat_server.answer = {"rows": "not a list"}
    with pytest.raises(ExtractorError):
        LLMExtractor(url=chat_server.url, model="m").extract(KIND, entry("x"))
    chat_server.status = 400
    with pytest.raises(ExtractorError):
        LLMExtractor(url=chat_server.url, model="m").extract(KIND, entry("x"))
    with pytest.raises(ExtractorError):
        LLMExtractor(url="", model="m").extract(KIND, entry("x"))
