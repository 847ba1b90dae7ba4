"""Appending and reading messages: numbers, order, limits, users kept apart."""

import threading

import pytest

from apps.conversations import selectors, services
from apps.graph import cypher
from apps.graph.cypher import count_round_trips
from memoryproject.api_errors import ApplicationError
from memoryproject.thread_pools import thread_pool


def say(scope, text, user="ann", sid="main", role="user", **kw):
    return services.check_message_append(
        scope, user=user, sid=sid, role=role, text=text, by=kw.pop("by", user), **kw
    )


def test_messages_get_numbers_in_order_and_are_linked(scope):
    numbers = [say(scope, f"message {i}")["no"] for i in range(1, 6)]
    assert numbers == [1, 2, 3, 4, 5]
    chain = cypher.read(
        scope,
        "MATCH (a:Message {tenant: $tenant, user: 'ann', sid: 'main'})-[:NEXT]->(b:Message) "
        "RETURN a.no AS a, b.no AS b ORDER BY a",
    )
    assert [(r["a"], r["b"]) for r in chain] == [(1, 2), (2, 3), (3, 4), (4, 5)]
    in_session = cypher.read(
        scope,
        "MATCH (:Message {tenant: $tenant})-[:IN_SESSION]->(s:Session {tenant: $tenant}) "
        "RETURN s.last_no AS last, count(*) AS n",
    )
    assert in_session == [{"last": 5, "n": 5}]


def test_concurrent_appends_get_distinct_gap_free_numbers(scope):
    results, errors = [], []

    def worker(i):
        try:
            for j in range(5):
                results.append(say(scope, f"thread {i} line {j}")["no"])
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(results) == list(range(1, 41))
    links = cypher.read(
        scope,
        "MATCH (a:Message {tenant: $tenant})-[:NEXT]->(b:Message) RETURN a.no AS a, b.no AS b",
    )
    assert sorted((r["a"], r["b"]) for r in links) == [(n, n + 1) for n in range(1, 40)]


def test_a_refused_message_uses_no_number_and_is_recorded_under_its_user(scope, tenant):
    say(scope, "first")
    with pytest.raises(ApplicationError) as refused:
        say(scope, "x" * (tenant.setting("max_message_chars") + 1))
    assert refused.value.field == "text"
    with pytest.raises(ApplicationError):
        say(scope, "fine text", role="Not A Role")
    assert say(scope, "second")["no"] == 2
    failures = cypher.read(
        scope,
        "MATCH (f:WriteFailure {tenant: $tenant}) RETURN f.subject_user AS user, f.kind AS kind",
    )
    assert failures == [{"user": "ann", "kind": "message"}] * 2


@pytest.mark.parametrize(
    "field,kwargs",
    [
        ("user", {"user": "has space"}),
        ("user", {"user": "a" * 129}),
        ("sid", {"sid": "../etc"}),
        ("role", {"role": "x" * 33}),
        ("text", {"text": "   "}),
        ("by", {"by": "b" * 201}),
        ("mentions", {"mentions": ["m"] * 51}),
        ("at", {"at": "yesterday"}),
        ("at", {"at": "2026-01-01T10:00:00"}),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(scope, field, kwargs):
    base = {"user": "ann", "sid": "main", "role": "user", "text": "hello", "by": "ann"}
    with pytest.raises(ApplicationError) as refused:
        services.check_message_append(scope, **{**base, **kwargs})
    assert refused.value.field == field
    assert (
        cypher.read(scope, "MATCH (n:Message {tenant: $tenant}) RETURN count(n) AS n")[0]["n"] == 0
    )


def test_two_users_each_have_their_own_main_session(scope):
    say(scope, "ann says hi", user="ann")
    say(scope, "bob says hi", user="bob")
    say(scope, "bob again", user="bob")
    assert [m["text"] for m in selectors.messages_read(scope, user="ann", sid="main")] == [
        "ann says hi"
    ]
    assert [m["no"] for m in selectors.messages_read(scope, user="bob", sid="main")] == [1, 2]
    assert selectors.messages_read(scope, user="carol", sid="main") == []


def test_last_n_and_before_a_number(scope):
    for i in range(1, 31):
        say(scope, f"m{i}", role="user" if i % 2 else "assistant")
    last = selectors.messages_read(scope, user="ann", sid="main", last=5)
    assert [m["no"] for m in last] == [26, 27, 28, 29, 30]
    before = selectors.messages_read(scope, user="ann", sid="main", last=3, before=10)
    assert [m["text"] for m in before] == ["m7", "m8", "m9"]
    assert [m["no"] for m in selectors.messages_read(scope, user="ann", sid="main", before=3)] == [
        1,
        2,
    ]
    with count_round_trips() as trips:
        selectors.messages_read(scope, user="ann", sid="main", last=20)
    assert trips[0] == 1


def test_mentions_link_known_entities_and_keep_unknown_names(scope):
    say(scope, "we talked about Zeta", mentions=["Zeta Corp", "Zeta Corp"])
    message = selectors.messages_read(scope, user="ann", sid="main")[0]
    assert message["mentions"] == []
    assert message["unknown_mentions"] == ["Zeta Corp"]


def test_sessions_are_listed_by_last_activity(scope):
    say(scope, "a", sid="first")
    say(scope, "b", sid="second")
    say(scope, "c", sid="first")
    sessions = selectors.sessions_list(scope, user="ann")
    assert [s["sid"] for s in sessions] == ["first", "second"]
    assert sessions[0]["messages"] == 2


def test_search_finds_only_that_users_words(scope):
    say(scope, "The invoice for the turbine is late", user="ann")
    say(scope, "Turbine blades were replaced", user="bob")
    say(scope, "Lunch was nice", user="ann")
    hits = selectors.messages_search(scope, user="ann", words="turbine invoice")
    assert [h["text"] for h in hits] == ["The invoice for the turbine is late"]
    assert selectors.messages_search(scope, user="carol", words="turbine") == []
    assert selectors.messages_search(scope, user="ann", words="+-&&") == []


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_is_down_fails_no_append_and_the_sweep_queues_it_later(
    scope, tenant, monkeypatch
):
    """The broker is outside the project, so its outage is simulated: the publish raises."""
    from kombu.exceptions import OperationalError

    from apps.conversations import tasks

    attempts = []

    def broker_down(*args, **kwargs):
        attempts.append(args)
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.messages_embed, "apply_async", broker_down)
    monkeypatch.setattr(services, "_last_embed_queued", {})
    stored = say(scope, "The boiler in hall 3 is leaking again.")
    assert stored["no"] == 1
    thread_pool("publish", 1).submit(lambda: None).result(timeout=300)  # the publish has run
    assert attempts == [((tenant.uid,),)]
    [message] = selectors.messages_read(scope, user="ann", sid="main")
    assert message["text"] == "The boiler in hall 3 is leaking again."

    queued = []
    monkeypatch.setattr(tasks.messages_embed, "delay", lambda uid: queued.append(uid))
    assert tasks.messages_embed_sweep()["queued"] >= 1
    assert tenant.uid in queued


# --- batches ---------------------------------------------------------------------------------


def lines(n, start=0, **extra):
    return [{"role": "user", "text": f"batch line {start + i}", "by": "ann", **extra}
            for i in range(n)]  # fmt: skip


def test_a_batch_is_numbered_in_order_after_the_last_in_one_query(scope):
    say(scope, "before the batch")
    with count_round_trips() as trips:
        stored = services.check_messages_append(scope, user="ann", sid="main",
                                                messages=lines(4))  # fmt: skip
    assert trips[0] == 1  # one query, so one transaction
    assert [m["no"] for m in stored["messages"]] == [2, 3, 4, 5]
    read = selectors.messages_read(scope, user="ann", sid="main")
    assert [m["text"] for m in read] == ["before the batch"] + [f"batch line {i}" for i in range(4)]
    chain = cypher.read(
        scope,
        "MATCH (a:Message {tenant: $tenant})-[:NEXT]->(b:Message) RETURN a.no AS a, b.no AS b",
    )
    assert sorted((r["a"], r["b"]) for r in chain) == [(1, 2), (2, 3), (3, 4), (4, 5)]
    assert say(scope, "after the batch")["no"] == 6
    waiting = cypher.read(scope, "MATCH (m:MessageToEmbed {tenant: $tenant}) RETURN count(m) AS n")
    assert waiting[0]["n"] == 6


def test_a_batch_links_mentions_and_keeps_its_times(scope):
    first = {"role": "user", "text": "Zeta again", "by": "ann", "mentions": ["Zeta Corp"],
             "at": "2025-03-01T10:00:00Z"}  # fmt: skip
    stored = services.check_messages_append(scope, user="ann", sid="main",
                                            messages=[first, *lines(1)])  # fmt: skip
    assert stored["messages"][0]["mentions"] == {"linked": [], "unknown": ["Zeta Corp"]}
    assert stored["messages"][0]["at"].startswith("2025-03-01T10:00")
    assert stored["messages"][1]["mentions"] == {"linked": [], "unknown": []}


@pytest.mark.parametrize(
    "bad,field",
    [({"text": "  "}, "messages[2].text"), ({"role": "Not A Role"}, "messages[2].role"),
     ({"at": "yesterday"}, "messages[2].at")],
)  # fmt: skip
def test_a_refused_message_refuses_the_whole_batch_with_its_index(scope, bad, field):
    say(scope, "already here")
    batch = lines(5)
    batch[2] = {**batch[2], **bad}
    with pytest.raises(ApplicationError) as refused:
        services.check_messages_append(scope, user="ann", sid="main", messages=batch)
    assert refused.value.field == field and refused.value.extra["index"] == 2
    assert [m["no"] for m in selectors.messages_read(scope, user="ann", sid="main")] == [1]
    failures = cypher.read(
        scope, "MATCH (f:WriteFailure {tenant: $tenant}) RETURN f.subject_user AS user, "
        "f.subject_sid AS sid, f.reason AS reason",
    )  # fmt: skip
    assert len(failures) == 1 and failures[0]["user"] == "ann" and failures[0]["sid"] == "main"
    assert "Message 2" in failures[0]["reason"]
    assert say(scope, "next")["no"] == 2


def test_a_batch_is_1_to_500_messages(scope):
    for messages in ([], lines(501), "not a list"):
        with pytest.raises(ApplicationError) as refused:
            services.check_messages_append(scope, user="ann", sid="main", messages=messages)
        assert (refused.value.field, refused.value.limit) == ("messages", 500)
    assert selectors.sessions_list(scope, user="ann") == []


def test_a_batch_beside_concurrent_single_appends_keeps_numbers_unique_and_gap_free(scope):
    barrier = threading.Barrier(5)
    singles, batches, errors = [], [], []

    def single(i):
        barrier.wait()
        try:
            for j in range(5):
                singles.append(say(scope, f"single {i}.{j}")["no"])
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            errors.append(exc)

    def batch():
        barrier.wait()
        try:
            for k in range(3):
                stored = services.check_messages_append(scope, user="ann", sid="main",
                                                        messages=lines(40, start=k * 40))  # fmt: skip
                batches.append([m["no"] for m in stored["messages"]])
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=single, args=(i,)) for i in range(4)]
    threads.append(threading.Thread(target=batch))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == []
    numbers = singles + [n for b in batches for n in b]
    assert sorted(numbers) == list(range(1, 20 + 120 + 1))
    for b in batches:  # each batch contiguous, in its order
        assert b == list(range(b[0], b[0] + 40))
    read = selectors.messages_read(scope, user="ann", sid="main", last=200)
    texts = {m["no"]: m["text"] for m in read}
    for k, b in enumerate(batches):
        assert [texts[n] for n in b] == [f"batch line {k * 40 + i}" for i in range(40)]
    links = cypher.read(
        scope,
        "MATCH (a:Message {tenant: $tenant})-[:NEXT]->(b:Message) RETURN a.no AS a, b.no AS b",
    )
    assert sorted((r["a"], r["b"]) for r in links) == [(n, n + 1) for n in range(1, 140)]


def test_a_batch_is_embedded_in_parts_each_in_one_call_of_the_model(scope, monkeypatch):
    """A part is written while the model encodes the next; every message of the batch gets its
    vector, and nothing outside the batch does."""
    from apps.conversations import embedding
    from apps.conversations.embedding import messages_embed_listed
    from apps.graph.embeddings import get_embedder

    model = get_embedder()
    embed, calls = model.embed, []

    def counted(texts):
        calls.append(len(texts))
        return embed(texts)

    stored = services.check_messages_append(scope, user="ann", sid="main", messages=lines(30))
    say(scope, "a single one, not in the batch")
    monkeypatch.setattr(model, "embed", counted)
    monkeypatch.setattr(embedding, "LISTED_PART", 12)
    done = messages_embed_listed(scope, uids=[m["uid"] for m in stored["messages"]])
    assert done["embedded"] == 30 and calls == [12, 12, 6]
    left = cypher.read(scope, "MATCH (m:MessageToEmbed {tenant: $tenant}) RETURN m.no AS no")
    assert left == [{"no": 31}]
    vectors = cypher.read(scope, "MATCH (m:Message {tenant: $tenant}) WHERE m.embedding IS NOT "
                                 "NULL RETURN count(m) AS n, min(size(m.embedding)) AS dims")  # fmt: skip
    assert vectors == [{"n": 30, "dims": model.dimensions}]
