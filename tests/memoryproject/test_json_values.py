"""The one checker of JSON from callers: each limit refused with its field and limit."""

from __future__ import annotations

import pytest

from memoryproject.api_errors import ApplicationError
from memoryproject.json_values import (
    BODY,
    FREE_FORM,
    INT64_MAX,
    INT64_MIN,
    json_loads,
    validate_json,
    validate_json_object,
)


def refusal(call) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    return caught.value


def test_plain_json_within_the_limits_passes_unchanged():
    value = {
        "a": [1, 2.5, True, None, "x"],
        "b": {"c": INT64_MAX, "d": INT64_MIN},
        "e": "\U0001f600",
    }
    assert validate_json(value, field="values") is value
    assert json_loads('{"a": "\\ud83d\\ude00"}', field="body") == {"a": "\U0001f600"}


@pytest.mark.parametrize(
    ("value", "code", "limit"),
    [
        ({"a": "\ud800"}, "invalid_unicode", None),
        ({"\udfff": 1}, "invalid_unicode", None),
        ({"a": [{"b": "ok \udc00"}]}, "invalid_unicode", None),
        ({"a": INT64_MAX + 1}, "out_of_range", INT64_MAX),
        ({"a": INT64_MIN - 1}, "out_of_range", INT64_MAX),
        ({"a": float("inf")}, "out_of_range", None),
        ({"a": float("nan")}, "out_of_range", None),
        ({"a": "x" * 2001}, "too_long", 2000),
        ({"k" * 101: 1}, "too_long", 100),
        ({str(i): i for i in range(101)}, "too_many_keys", 100),
        ({"a": [[[[[[[[1]]]]]]]]}, "too_deep", 8),
        ({"a": ["x" * 1000] * 21}, "too_large", 20_000),
        ({"a": {1, 2}}, "invalid", None),
    ],
)
def test_each_limit_is_refused_with_the_field_and_the_limit(value, code, limit):
    error = refusal(lambda: validate_json(value, field="values", limits=FREE_FORM))
    assert (error.code, error.field, error.limit) == (code, "values", limit)
    assert error.status == 400


def test_a_deep_value_costs_no_stack():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert refusal(lambda: validate_json(deep, field="x", limits=BODY)).code == "too_deep"


def test_the_parser_refuses_what_python_json_accepts():
    assert refusal(lambda: json_loads("[" * 5000 + "]" * 5000, field="body")).code == "too_deep"
    for text in ("NaN", '{"a": Infinity}', "-Infinity", "1e400", "[1" + "0" * 5000 + "]"):
        error = refusal(lambda text=text: json_loads(text, field="situation"))
        assert error.field == "situation" and error.code in {"invalid_json", "out_of_range"}
    assert refusal(lambda: json_loads("{", field="body")).code == "invalid_json"


def test_a_body_names_the_top_level_key_as_the_field():
    error = refusal(
        lambda: json_loads('{"ok": 1, "upto": 9223372036854775808}', field="body",
                           top_keys_are_fields=True)
    )  # fmt: skip
    assert (error.field, error.limit) == ("upto", INT64_MAX)
    assert "body.upto" in error.message


def test_an_object_is_required_where_one_is_expected():
    assert refusal(lambda: validate_json_object([1], field="outcome")).field == "outcome"
