"""One summary per session, context(last=N) and `waiting`, the summarizers."""

import pytest

from apps.conversations import selectors, services, summaries
from memoryproject.api_errors import ApplicationError
from tests.conversations.test_messages import say


def test_context_gives_summary_the_messages_after_it_and_waiting(scope):
    for i in range(1, 58):
        say(scope, f"line {i}")
    found = selectors.session_context(scope, user="ann", sid="main", last=20)
    assert found["summary"] is None and found["upto"] == 0
    assert [m["no"] for m in found["messages"]] == list(range(38, 58))
    assert found["waiting"] == 37

    services.check_summary_store(scope, user="ann", sid="main", text="All about lines.", upto=37,
                                 by="desk")  # fmt: skip
    found = selectors.session_context(scope, user="ann", sid="main", last=30)
    assert found["summary"]["text"] == "All about lines."
    assert [m["no"] for m in found["messages"]] == list(range(38, 58))
    assert found["waiting"] == 0

    services.check_summary_store(scope, user="ann", sid="main", text="Newer.", upto=50, by="desk")
    found = selectors.session_context(scope, user="ann", sid="main", last=3)
    assert found["summary"]["upto"] == 50 and found["summary"]["text"] == "Newer."
    assert [m["no"] for m in found["messages"]] == [55, 56, 57]
    assert found["waiting"] == 4


def test_upto_beyond_the_last_message_is_refused(scope):
    say(scope, "one")
    with pytest.raises(ApplicationError) as refused:
        services.check_summary_store(scope, user="ann", sid="main", text="s", upto=2, by="d")
    assert refused.value.field == "upto" and refused.value.limit == 1
    with pytest.raises(ApplicationError):
        services.check_summary_store(scope, user="ann", sid="nope", text="s", upto=1, by="d")


def test_unknown_session_context_is_empty(scope):
    found = selectors.session_context(scope, user="zed", sid="main", last=10)
    assert found["messages"] == [] and found["waiting"] == 0 and found["summary"] is None


def test_extractive_summary_keeps_recurring_sentences():
    messages = [
        {"no": 1, "role": "user", "text": "The turbine in hall 3 is overheating. Hello there."},
        {"no": 2, "role": "assistant", "text": "The turbine overheating started Monday."},
        {"no": 3, "role": "user", "text": "Thanks."},
    ]
    text = summaries.ExtractiveSummarizer(max_chars=90).summarize(previous=None, messages=messages)
    assert "turbine" in text and len(text) <= 90


def test_session_summarize_sums_up_what_waits(scope):
    scope_settings = {**scope.settings, "summary_keep_last": 5}
    from dataclasses import replace

    scope = replace(scope, settings=scope_settings)
    for i in range(1, 13):
        say(scope, f"Pump number {i} was checked by the crew.")
    result = summaries.session_summarize(scope, user="ann", sid="main")
    assert result == {"summed": 7, "upto": 7, "stored": True}
    found = selectors.session_context(scope, user="ann", sid="main", last=5)
    assert found["summary"]["by"] == "summarizer:extractive"
    assert found["waiting"] == 0
    assert summaries.session_summarize(scope, user="ann", sid="main") == {"summed": 0}
