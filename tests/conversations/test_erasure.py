"""Erasure without residue: in steps, newest first, the session reading right after each step;
nothing of the user is left in any property of any node or relationship of the tenant."""

import pytest

from apps.conversations import context, erasure, selectors, services
from apps.conversations.embedding import messages_embed_pending
from apps.graph import cypher
from apps.tenants.models import AuditEvent, Job
from memoryproject.api_errors import ApplicationError
from tests.conftest import wait_for_a_blocked_transaction
from tests.conversations.test_messages import say

USER = "annika-x7q"
TEXTS = [f"Annika secret number {i} is zebra{i}quartz" for i in range(1, 26)]


def every_property_value(scope) -> list[str]:
    rows = cypher.read(
        scope,
        "MATCH (n) WHERE n.tenant = $tenant "
        "OPTIONAL MATCH (n)-[r]-() "
        "RETURN collect(DISTINCT properties(n)) AS nodes, collect(DISTINCT properties(r)) AS rels",
    )[0]
    values = []
    for props in rows["nodes"] + rows["rels"]:
        for value in props.values():
            values.extend(str(v) for v in value) if isinstance(value, list) else values.append(
                str(value)
            )
    return values


def populate(scope):
    for text in TEXTS[:20]:
        say(scope, text, user=USER)
    for text in TEXTS[20:]:
        say(scope, text, user=USER, sid="second")
    say(scope, "Bob keeps his own notes about zebras", user="bob")
    with pytest.raises(ApplicationError):
        say(scope, "refused zebra99quartz " + "y" * 30_000, user=USER)
    services.check_summary_store(scope, user=USER, sid="main", text=TEXTS[0] + " summed", upto=5,
                                 by=USER)  # fmt: skip
    messages_embed_pending(scope)
    context.check_context(scope, user=USER, sid="main", message="What about zebra7quartz?", k=3)
    context.check_context(scope, user="bob", sid="main", message="zebras?", k=3)


def test_user_erasure_leaves_no_residue_and_keeps_the_audit_of_how_much(scope, settings):
    settings.ERASURE_STEP_MESSAGES = 7
    populate(scope)
    assert any(USER in v for v in every_property_value(scope))

    seen_steps = []

    def check_reads(counts):
        for sid in ("main", "second"):
            rest = selectors.session_context(scope, user=USER, sid=sid, last=200)
            numbers = [m["no"] for m in rest["messages"]]
            assert numbers == list(range(1, rest["last_no"] + 1)), (sid, numbers)
        seen_steps.append(counts["messages"])

    counts = erasure.messages_erase(scope, user=USER, sid=None, on_step=check_reads)
    assert counts == {"sessions": 2, "messages": 26, "summaries": 1, "traces": 1, "failures": 1,
                      "staged": 0}  # fmt: skip
    assert seen_steps[:3] == [7, 14, 21]

    values = every_property_value(scope)
    assert not [v for v in values if USER in v]
    for text in [*TEXTS, "zebra7quartz", "zebra99quartz"]:
        assert not [v for v in values if text in v], text
    assert selectors.messages_read(scope, user="bob", sid="main")[0]["no"] == 1
    assert selectors.sessions_list(scope, user=USER) == []
    # A new message opens the session again at number 1.
    assert say(scope, "hello again", user=USER)["no"] == 1


def test_session_erasure_keeps_the_users_other_sessions(scope):
    populate(scope)
    counts = erasure.messages_erase(scope, user=USER, sid="second", on_step=None)
    assert counts["messages"] == 5 and counts["sessions"] == 1
    assert [s["sid"] for s in selectors.sessions_list(scope, user=USER)] == ["main"]
    assert len(selectors.messages_read(scope, user=USER, sid="main", last=100)) == 21
    # The refusal was in "main": it stays with that session, and goes with it.
    assert counts["failures"] == 0
    assert erasure.erasure_preview(scope, user=USER, sid="main")["failures"] == 1
    assert erasure.messages_erase(scope, user=USER, sid="main")["failures"] == 1


def test_erasure_calls_the_hooks_before_deleting(scope, settings):
    settings.ERASURE_STEP_MESSAGES = 4
    settings.MESSAGE_ERASURE_HOOKS = ["tests.conversations.test_erasure.record_hook"]
    CALLS.clear()
    for text in TEXTS[:6]:
        say(scope, text, user=USER)
    erasure.messages_erase(scope, user=USER, sid="main")
    assert [len(c) for c in CALLS] == [4, 2]
    assert all(c["still_there"] for c in HOOK_SEEN)


CALLS: list = []
HOOK_SEEN: list = []


def record_hook(scope, *, message_uids):
    CALLS.append(message_uids)
    there = cypher.read(
        scope,
        "MATCH (m:Message {tenant: $tenant}) WHERE m.uid IN $uids RETURN count(m) AS n",
        uids=message_uids,
    )[0]["n"]
    HOOK_SEEN.append({"still_there": there == len(message_uids)})


def test_preview_names_what_will_go(scope):
    populate(scope)
    preview = erasure.erasure_preview(scope, user=USER)
    assert sorted(preview["sids"]) == ["main", "second"]
    assert (preview["messages"], preview["summaries"], preview["traces"], preview["failures"]) == (
        26,
        1,
        1,
        1,
    )


def test_start_needs_admin_and_audits_without_the_user(scope, tenant):
    from dataclasses import replace

    viewer = replace(scope, permissions=frozenset({"memory:read"}))
    with pytest.raises(ApplicationError) as refused:
        erasure.check_erasure_start(viewer, user=USER)
    assert refused.value.status == 403
    say(scope, "one", user=USER)
    job = erasure.check_erasure_start(scope, user=USER)
    job = Job.objects.get(uid=job.uid)
    assert job.kind == erasure.JOB_KIND and USER not in str(job.__dict__)
    event = AuditEvent.objects.get(tenant=tenant, action="conversation.erasure_requested")
    assert USER not in str(event.__dict__)


@pytest.mark.django_db(transaction=True)
def test_an_append_waiting_on_the_last_erasure_step_opens_the_session_again(scope):
    """The last step deletes the session while an append waits on its lock: the append is not
    lost and does not fail; it starts the session again at number 1."""
    import threading

    from apps.graph.connection import graph_driver
    from apps.graph.cypher import ScopedTx

    for text in TEXTS[:3]:
        say(scope, text, user=USER)
    uids = [r["uid"] for r in cypher.read(scope, erasure.NEWEST, user=USER, sid="main", step=10)]
    outcome = {}

    def append():
        try:
            outcome["stored"] = say(scope, "said while erasing", user=USER)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            outcome["error"] = (getattr(exc, "code", ""), str(exc))

    with graph_driver().session() as session:
        tx = session.begin_transaction()
        row = ScopedTx(scope, tx).run(erasure.STEP, user=USER, sid="main", uids=uids)
        assert row[0]["gone"] == 1
        thread = threading.Thread(target=append)
        thread.start()
        wait_for_a_blocked_transaction(scope.tenant)  # the append waits on the session's lock
        assert not outcome
        tx.commit()
    thread.join(timeout=300)
    assert "error" not in outcome, outcome
    assert outcome["stored"]["no"] == 1
    [only] = selectors.messages_read(scope, user=USER, sid="main", last=10)
    assert (only["no"], only["text"]) == (1, "said while erasing")
