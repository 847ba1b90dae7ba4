"""What every tool shares: the schema's bounds come from the REST serializer, and answers are
compact JSON that fits the bound, saying what it left out."""

from __future__ import annotations

import json

from apps.conversations.api import ContextIn
from apps.ingestion.api import EntityFactIn
from apps.mcp_server.tool_calls import answer_text, limits_of


def test_limits_come_from_the_rest_serializer():
    assert limits_of(EntityFactIn, "name") == {"maxLength": 200}
    assert limits_of(EntityFactIn, "aliases") == {"maxItems": 20, "items": {"maxLength": 200}}
    field = ContextIn().fields["token_budget"]
    assert limits_of(ContextIn, "token_budget") == {
        "maximum": field.max_value, "minimum": field.min_value
    }  # fmt: skip


def test_a_small_answer_is_compact_json():
    assert answer_text({"a": [1, 2], "b": "é"}) == '{"a":[1,2],"b":"é"}'


def test_a_long_answer_is_cut_to_the_bound_and_says_what_it_left_out():
    answer = {"uid": "e1", "relations": [{"n": i, "text": "x" * 100} for i in range(500)],
              "mentions": [{"text": "y" * 50}] * 10}  # fmt: skip
    text = answer_text(answer, limit=5_000)
    assert len(text) <= 5_000
    data = json.loads(text)
    assert data["uid"] == "e1" and data["relations"][0]["n"] == 0
    kept = len(data["relations"])
    assert 0 < kept < 500 and data["truncated"]["relations"] == 500 - kept


def test_one_huge_string_is_cut_too():
    data = json.loads(answer_text({"text": "z" * 50_000}, limit=1_000))
    assert len(data["text"]) < 1_000 and data["text"].endswith("…")
    assert data["truncated"] == {"text": 50_000 - (len(data["text"]) - 1)}
