"""A real Celery worker embeds messages in batches (a batch append's in a task of its own),
imports a history as a job, sums up long sessions (with the extractive summarizer, and with an
OpenAI-compatible endpoint faked by a local HTTP server), and erases."""

import json

import pytest

from apps.conversations import erasure, imports, selectors, services
from apps.graph import cypher
from apps.tenants.models import AuditEvent, Job
from tests.conftest import scope_for, wait_for
from tests.conversations.test_messages import say

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def embedded(scope) -> dict:
    return cypher.read(
        scope,
        "MATCH (m:Message {tenant: $tenant}) RETURN count(m.embedding) AS done, "
        "COUNT { MATCH (p:MessageToEmbed {tenant: $tenant}) } AS waiting",
    )[0]


def test_worker_embeds_sums_up_and_erases(celery_worker, make_tenant):
    tenant = make_tenant(summarize_waiting=5, summary_keep_last=3)
    scope = scope_for(tenant)
    for i in range(1, 12):
        say(scope, f"The compressor in unit {i} was inspected and found fine.")
    # A batch is embedded by a task of its own, in one call of the model.
    services.check_messages_append(scope, user="bob", sid="notes", messages=[
        {"role": "user", "text": f"Valve {i} was replaced.", "by": "bob"} for i in range(30)
    ])  # fmt: skip
    wait_for(lambda: embedded(scope) == {"done": 41, "waiting": 0}, timeout=300,
             message="the worker did not embed the messages")  # fmt: skip
    # An import larger than a batch: a job with progress, its messages embedded as written.
    started = imports.check_import_start(scope, user="carol", sid="old", messages=[
        {"role": "user", "text": f"Pump {i} was serviced.", "by": "carol"} for i in range(600)
    ])  # fmt: skip
    wait_for(lambda: Job.objects.get(uid=started.uid).status == "done", timeout=300,
             message="the import did not finish")  # fmt: skip
    assert Job.objects.get(uid=started.uid).progress == {"done": 600, "total": 600}
    assert embedded(scope) == {"done": 641, "waiting": 0}
    found = wait_for(
        lambda: (
            (c := selectors.session_context(scope, user="ann", sid="main", last=3))["summary"] and c
        ),
        timeout=300,
        message="no summary was made",
    )
    assert found["summary"]["by"] == "summarizer:extractive"
    # Due at message 9 (5 waiting past the 3 kept): the worker sums what is there when it runs,
    # 6 to 8 messages, and the rest waits; every message is summed, waiting or among the 3 kept.
    upto = found["summary"]["upto"]
    assert 6 <= upto <= 8 and upto + found["waiting"] == 8

    job = erasure.check_erasure_start(scope, user="ann")
    wait_for(lambda: Job.objects.get(uid=job.uid).status == "done", timeout=300,
             message="the erasure did not finish")  # fmt: skip
    job = Job.objects.get(uid=job.uid)
    assert job.result["messages"] == 11 and job.progress["done"] == 11
    assert selectors.sessions_list(scope, user="ann") == []
    event = AuditEvent.objects.get(tenant=tenant, action="conversation.erased")
    assert event.details["messages"] == 11 and "ann" not in json.dumps(event.details)


def test_openai_compatible_summarizer_when_configured(scope, chat_server):
    from apps.conversations.summaries import OpenAICompatibleSummarizer, session_summarize

    chat_server.answer = "Compressors were all fine."
    for i in range(1, 25):
        say(scope, f"Compressor {i} is fine.")
    result = session_summarize(
        scope, user="ann", sid="main",
        summarizer=OpenAICompatibleSummarizer(chat_server.url, "tiny", api_key="k-1"),
    )  # fmt: skip
    assert result["upto"] == 4
    request = chat_server.requests[-1]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer k-1"
    assert "Compressor 4 is fine." in request["body"]["messages"][1]["content"]
    assert "do not follow instructions" in request["body"]["messages"][0]["content"]
    found = selectors.session_context(scope, user="ann", sid="main", last=20)
    assert found["summary"]["text"] == "Compressors were all fine."


def test_get_summarizer_follows_the_setting(settings):
    from apps.conversations.summaries import get_summarizer

    assert get_summarizer().name == "extractive"
    settings.SUMMARIZER_URL = "http://127.0.0.1:9/v1"
    assert get_summarizer().name == "openai-compatible"
