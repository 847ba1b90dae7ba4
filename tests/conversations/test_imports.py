"""Imports of a conversation history: checked whole before anything is staged, appended by
the job in batches with their vectors, once however often the job runs, with progress."""

import pytest

from apps.conversations import erasure, imports, selectors
from apps.graph import cypher
from apps.tenants.models import Job
from memoryproject.api_errors import ApplicationError

BASE = "/api/v1/users/{user}/sessions/{sid}"


def history(n, user="ann"):
    return [{"role": "user" if i % 2 else "assistant", "text": f"history line {i}", "by": user}
            for i in range(n)]  # fmt: skip


def graph_counts(scope) -> dict:
    return cypher.read(
        scope,
        "RETURN COUNT { MATCH (m:Message {tenant: $tenant}) } AS messages, "
        "COUNT { MATCH (m:Message {tenant: $tenant}) WHERE m.embedding IS NOT NULL } AS embedded, "
        "COUNT { MATCH (c:MessageImportChunk {tenant: $tenant}) } AS staged, "
        "COUNT { MATCH (:Message {tenant: $tenant})-[:NEXT]->() } AS links",
    )[0]


def test_an_import_is_appended_in_order_with_vectors_once(scope):
    from tests.conversations.test_messages import say

    say(scope, "said before the import")
    job = imports.check_import_start(scope, user="ann", sid="main", messages=history(1203))
    assert job.progress == {"done": 0, "total": 1203} and job.status == "queued"
    assert graph_counts(scope)["staged"] == 3  # batches of 500, 500 and 203

    assert imports.import_run(job_uid=job.uid) == {"messages": 1203}
    job.refresh_from_db()
    assert job.status == "done" and job.progress["done"] == 1203
    assert graph_counts(scope) == {"messages": 1204, "embedded": 1203, "staged": 0,
                                   "links": 1203}  # fmt: skip
    read = selectors.messages_read(scope, user="ann", sid="main", last=3)
    assert [(m["no"], m["text"]) for m in read] == [
        (1202, "history line 1200"), (1203, "history line 1201"), (1204, "history line 1202")
    ]  # fmt: skip
    waiting = cypher.read(scope, "MATCH (m:MessageToEmbed {tenant: $tenant}) RETURN m.no AS no")
    assert waiting == [{"no": 1}]  # the single append's; the imported came with vectors

    # A redelivered task finds nothing left to write.
    imports.import_run(job_uid=job.uid)
    assert graph_counts(scope)["messages"] == 1204


def test_a_refused_message_refuses_the_import_with_its_index(scope):
    messages = history(800)
    messages[700] = {**messages[700], "text": "x" * 20_001}
    with pytest.raises(ApplicationError) as refused:
        imports.check_import_start(scope, user="ann", sid="main", messages=messages)
    assert (refused.value.field, refused.value.extra["index"]) == ("messages[700].text", 700)
    assert not Job.objects.filter(tenant__uid=scope.tenant, kind=imports.JOB_KIND).exists()
    assert graph_counts(scope) == {"messages": 0, "embedded": 0, "staged": 0, "links": 0}
    with pytest.raises(ApplicationError) as refused:
        imports.check_import_start(scope, user="ann", sid="main", messages=history(20_001))
    assert (refused.value.field, refused.value.limit) == ("messages", 20_000)


def test_erasing_the_user_drops_what_an_import_has_not_written(scope):
    job = imports.check_import_start(scope, user="ann", sid="main", messages=history(600))
    other = imports.check_import_start(scope, user="bob", sid="main", messages=history(10, "bob"))
    assert erasure.messages_erase(scope, user="ann", sid=None)["staged"] == 2
    assert imports.import_run(job_uid=job.uid) == {"messages": 0}
    imports.import_run(job_uid=other.uid)
    assert selectors.sessions_list(scope, user="ann") == []
    assert [s["messages"] for s in selectors.sessions_list(scope, user="bob")] == [10]


def test_an_import_through_the_api_is_a_job_with_progress(api_client):
    url = BASE.format(user="ann", sid="main") + "/messages:import"
    response = api_client.post(url, {"messages": history(3)}, format="json")
    assert response.status_code == 202, response.json()
    started = response.json()
    assert started["progress"] == {"done": 0, "total": 3}
    imports.import_run(job_uid=started["job"])
    job = api_client.get(started["url"]).json()
    assert job["status"] == "done" and job["progress"] == {"done": 3, "total": 3}
    messages = api_client.get(BASE.format(user="ann", sid="main") + "/messages").json()
    assert [m["text"] for m in messages["messages"]] == [f"history line {i}" for i in range(3)]

    bad = history(3)
    bad[2] = {**bad[2], "role": "R O L E"}
    refused = api_client.post(url, {"messages": bad}, format="json")
    assert refused.status_code == 400
    assert (refused.json()["error"]["field"], refused.json()["error"]["index"]) == (
        "messages[2].role", 2
    )  # fmt: skip


def test_a_broker_that_is_down_refuses_the_import_cleanly(api_client, scope, monkeypatch):
    """The broker is outside the project, so its outage is simulated: the publish raises.
    Nothing stays staged, the job is recorded failed with the reason, the answer is a 503."""
    from kombu.exceptions import OperationalError

    from apps.conversations import tasks

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.conversation_import, "delay", broker_down)
    url = BASE.format(user="ann", sid="main") + "/messages:import"
    refused = api_client.post(url, {"messages": history(700)}, format="json")
    assert refused.status_code == 503
    error = refused.json()["error"]
    assert error["code"] == "queue_unavailable" and "nothing was done" in error["message"]
    job = Job.objects.get(uid=error["job"])
    assert job.status == "failed" and "work queue could not be reached" in job.error
    assert graph_counts(scope) == {"messages": 0, "embedded": 0, "staged": 0, "links": 0}

    monkeypatch.undo()  # the broker is back: the same import goes through
    started = api_client.post(url, {"messages": history(700)}, format="json")
    assert started.status_code == 202
    assert graph_counts(scope)["staged"] == 2
