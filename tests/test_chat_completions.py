"""The one chat-completions client: what it sends, bounded retries, timeouts, and answers that
are no answer, against the fake endpoint (`chat_server`)."""

from __future__ import annotations

import time

import pytest

from memoryproject import chat_completions
from memoryproject.chat_completions import (
    ChatAnswerInvalid,
    ChatEndpoint,
    ChatFailed,
    chat_complete,
    chat_complete_json,
)


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch):
    monkeypatch.setattr(chat_completions, "BACKOFF_SECONDS", 0.01)


def test_one_request_with_the_model_the_key_and_a_strict_schema(chat_server):
    chat_server.answer = {"ok": True}
    endpoint = ChatEndpoint(chat_server.url + "/", "m1", api_key="k-1")
    assert chat_complete_json(endpoint, system="s", user="u", schema={"type": "object"}) == {
        "ok": True
    }
    (request,) = chat_server.requests
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer k-1"
    body = request["body"]
    assert body["model"] == "m1" and body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["response_format"]["json_schema"]["strict"] is True


def test_failures_are_tried_again_a_bounded_number_of_times(chat_server):
    chat_server.answer = "fine"
    endpoint = ChatEndpoint(chat_server.url, "m", retries=2)
    chat_server.failures = 2  # two 503s, then the answer
    assert chat_complete(endpoint, system="s", user="u") == "fine"
    assert len(chat_server.requests) == 3
    chat_server.failures = 3  # one more than the retries allow
    with pytest.raises(ChatFailed, match="503"):
        chat_complete(endpoint, system="s", user="u")
    assert len(chat_server.requests) == 6


def test_a_client_error_is_not_tried_again(chat_server):
    chat_server.status = 400
    with pytest.raises(ChatFailed, match="400"):
        chat_complete(ChatEndpoint(chat_server.url, "m"), system="s", user="u")
    assert len(chat_server.requests) == 1


def test_an_endpoint_that_does_not_answer_fails_within_its_timeouts():
    started = time.monotonic()
    with pytest.raises(ChatFailed):  # nothing listens on port 9
        chat_complete(ChatEndpoint("http://127.0.0.1:9/v1", "m", timeout=2, retries=1),
                      system="s", user="u")  # fmt: skip
    assert time.monotonic() - started < 10


def test_an_answer_that_is_no_answer(chat_server):
    endpoint = ChatEndpoint(chat_server.url, "m")
    chat_server.answer = "not json"
    with pytest.raises(ChatAnswerInvalid):
        chat_complete_json(endpoint, system="s", user="u", schema={})
    with pytest.raises(ChatFailed, match="no endpoint"):
        chat_complete(ChatEndpoint("", "m"), system="s", user="u")
