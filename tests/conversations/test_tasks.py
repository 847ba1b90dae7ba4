"""The conversation tasks run in-process here (the real worker is in test_worker.py)."""

import pytest

from apps.conversations import services, tasks
from apps.conversations.embedding import messages_waiting
from tests.conversations.test_messages import say


@pytest.mark.django_db
def test_tasks_queued_for_a_tenant_deleted_since_do_nothing(tenant):
    uid = tenant.uid
    tenant.delete()
    assert tasks.messages_embed(uid) == tasks.GONE
    assert tasks.session_summarize(uid, "ann", "main") == tasks.GONE


def broker_down(*args, **kwargs):
    # The broker is outside the project, so its outage is simulated: the publish raises.
    from kombu.exceptions import OperationalError

    raise OperationalError("Error 111 connecting to the broker. Connection refused.")


@pytest.mark.django_db(transaction=True)
def test_a_follow_up_the_broker_refuses_fails_no_task_and_the_sweep_queues_it(
    scope, tenant, monkeypatch
):
    monkeypatch.setattr(services, "_last_embed_queued", {})
    monkeypatch.setattr(tasks.messages_embed, "apply_async", lambda *a, **kw: None)
    say(scope, "The boiler in hall 3 is leaking again.")
    say(scope, "The pump in hall 4 is fine.")
    say(scope, "The fan in hall 5 is noisy.")
    # One message a task, so a second task is due for the others.
    monkeypatch.setattr(tasks, "EMBED_BATCH", 1)
    monkeypatch.setattr(tasks, "EMBED_BATCHES", 1)
    monkeypatch.setattr(tasks.messages_embed, "delay", broker_down)

    result = tasks.messages_embed(tenant.uid)
    assert (result["embedded"], result["more"], result["next_queued"]) == (1, True, False)
    assert messages_waiting(scope)  # the other messages still wait, for the sweep
    swept = tasks.messages_embed_sweep()
    assert swept["queued"] == 0 and swept["not_queued"] >= 1

    queued = []
    monkeypatch.setattr(tasks.messages_embed, "delay", queued.append)
    assert tasks.messages_embed(tenant.uid)["next_queued"] is True
    assert queued == [tenant.uid]
    queued.clear()
    assert "next_queued" not in tasks.messages_embed(tenant.uid)  # the last one: none left
    tasks.messages_embed_sweep()
    assert tenant.uid not in queued  # every message is embedded: nothing waits


@pytest.mark.django_db(transaction=True)
def test_a_batch_task_embeds_its_messages_then_the_tenants_other_waiting_ones(
    scope, tenant, monkeypatch
):
    monkeypatch.setattr(services, "_last_embed_queued", {})
    monkeypatch.setattr(tasks.messages_embed, "apply_async", lambda *a, **kw: None)
    listed = [say(scope, f"Crate {i} left dock one.")["uid"] for i in range(2)]
    for i in range(3):  # another batch's messages, committed while the first was encoded
        say(scope, f"Crate {i} reached dock five.")
    monkeypatch.setattr(tasks, "EMBED_BATCH", 2)
    monkeypatch.setattr(tasks, "EMBED_BATCHES", 1)
    queued = []
    monkeypatch.setattr(tasks.messages_embed, "delay", queued.append)

    result = tasks.messages_embed_batch(tenant.uid, listed)
    # Its own two, then one part (of 2) of the rest; the one left gets a task of its own.
    assert (result["listed"], result["embedded"], result["next_queued"]) == (2, 4, True)
    assert result["encode_s"] >= 0 and queued == [tenant.uid]
    assert messages_waiting(scope)
    again = tasks.messages_embed_batch(tenant.uid, listed)  # its own are done: only the rest
    # Its part was full, but nothing is left: no task is queued for nothing.
    assert (again["listed"], again["embedded"]) == (0, 1) and "next_queued" not in again
    assert not messages_waiting(scope)
