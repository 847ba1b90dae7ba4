"""POST-context retrieval as a service: stores the message, finds the user's related messages,
fits one block in the budget, records a trace with what it touched."""

import json

import pytest

from apps.conversations import context, message_fusion, prompt_block
from apps.conversations.embedding import messages_embed_pending
from apps.graph import cypher
from memoryproject.api_errors import ApplicationError
from tests.conversations.test_messages import say


def test_context_stores_the_message_and_finds_that_users_related_messages(scope):
    say(scope, "My turbine in hall three keeps overheating every afternoon.")
    say(scope, "I like pancakes with maple syrup.")
    say(scope, "The turbine overheating ruined the afternoon run.", user="bob")
    messages_embed_pending(scope)

    found = context.check_context(
        scope, user="ann", sid="main", message="Why is the turbine overheating?", k=1
    )
    assert found["message"]["no"] == 3
    assert [m["text"] for m in found["message_hits"]] == [
        "My turbine in hall three keeps overheating every afternoon."
    ]
    assert "turbine in hall three" in found["context"]
    assert found["cited"][0] == f"message:{found['message_hits'][0]['uid']}"
    assert found["timings"]["server_ms"] > 0

    trace = cypher.read(
        scope,
        "MATCH (t:ReasoningTrace {tenant: $tenant, uid: $uid})-[:FOR_MESSAGE]->(q:Message) "
        "RETURN t.steps AS steps, q.no AS no, "
        "[(t)-[r:TOUCHED]->(n) | [r.kind, n.uid]] AS touched",
        uid=found["trace"],
    )[0]
    assert trace["no"] == 3
    assert trace["touched"] == [["message_hit", found["message_hits"][0]["uid"]]]
    names = [s["step"] for s in json.loads(trace["steps"])]
    assert names[0] == "store_message"
    assert {"message_hits", "entities_by_meaning", "entities_by_words"} <= set(names)


def test_the_block_fits_the_budget():
    found = {
        "summary": {"uid": "s1", "upto": 3, "text": "word " * 400},
        "messages": [
            {"uid": f"m{i}", "sid": "main", "no": i, "role": "user", "text": "long " * 100}
            for i in range(10)
        ],
        "entities": [],
        "neighbours": [],
        "traces": [],
    }
    for budget in (50, 120, 500, 2000):
        block = prompt_block.prompt_block(found, token_budget=budget)
        assert block["tokens"] <= budget
        assert block["cited"] and block["cited"][0] == "summary:s1"


@pytest.mark.parametrize(
    "kwargs,field", [({"k": 0}, "k"), ({"k": 51}, "k"), ({"token_budget": 10}, "token_budget")]
)
def test_context_limits(scope, kwargs, field):
    with pytest.raises(ApplicationError) as refused:
        context.check_context(scope, user="ann", sid="main", message="hi", **kwargs)
    assert refused.value.field == field
    assert (
        cypher.read(scope, "MATCH (m:Message {tenant: $tenant}) RETURN count(m) AS n")[0]["n"] == 0
    )


@pytest.mark.parametrize("scan_max", [1000, 0], ids=["exact scan", "vector index"])
def test_older_messages_beyond_the_exact_budget_are_found_by_words_and_by_meaning(
    scope, monkeypatch, settings, scan_max
):
    """Beyond the newest messages, older ones come from the user's own full-text matches and by
    meaning from an exact comparison with all of the user's messages (a user with at most
    CONTEXT_EXACT_SCAN_MESSAGES) or from the shared vector index (above), never from another
    user."""
    monkeypatch.setattr(context, "EXACT_BUDGET", 3)
    settings.CONTEXT_EXACT_SCAN_MESSAGES = scan_max
    say(scope, "The kiln in the north depot cracked its lining in March.", sid="old")
    say(scope, "Our ferry timetable changed for the winter.", sid="old")
    say(scope, "The kiln in the north depot cracked again.", user="bob", sid="old")
    for i in range(4):
        say(scope, f"Lunch order number {i}: soup and bread.", sid="recent")
    messages_embed_pending(scope)
    cypher.read(scope, "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh() "
                       "RETURN $tenant AS t")  # fmt: skip

    by_words = context.check_context(scope, user="ann", sid="recent", k=1,
                                     message="What happened to the kiln lining?")  # fmt: skip
    assert [m["text"] for m in by_words["message_hits"]] == [
        "The kiln in the north depot cracked its lining in March."
    ]
    by_meaning = context.check_context(scope, user="ann", sid="recent", k=1,
                                       message="When do boats sail during cold months?")  # fmt: skip
    assert [m["text"] for m in by_meaning["message_hits"]] == [
        "Our ferry timetable changed for the winter."
    ]


def test_older_messages_by_meaning_are_the_exact_nearest_of_that_user(scope):
    """For a user within CONTEXT_EXACT_SCAN_MESSAGES the candidates by meaning are the user's
    DEPTH nearest messages by an exact comparison (done inside the vector index), and another
    user's messages, however near, are never among them."""
    texts = ["The boiler pressure dropped overnight.", "Our boiler needs a new valve.",
             "I booked the dentist for Tuesday.", "The heating was cold in the office.",
             "We painted the fence green.", "The radiator in the hall is leaking.",
             "My cousin visits in June.", "The plumber fixed the hot water tank.",
             "I renewed the gym membership.", "The thermostat shows the wrong temperature."]  # fmt: skip
    for text in texts:
        say(scope, text, sid="old")
        say(scope, text + " Again!", user="bob", sid="old")
    messages_embed_pending(scope)
    vector = context.embed_one("Why is the house heating not working?")
    exact = cypher.read(scope, "MATCH (m:Message {tenant: $tenant, user: 'ann'}) "
                        "RETURN m.uid AS uid "
                        "ORDER BY vector.similarity.cosine(m.embedding, $vector) DESC LIMIT 4",
                        vector=vector)  # fmt: skip
    rows = cypher.read(scope, context.MESSAGE_HITS, user="ann", vector=vector, depth=4,
                       recent_sessions=context.RECENT_SESSIONS, budget=1, index_depth=4,
                       word_places=0, scan_max=1000, scan_places=1000, lucene=None)  # fmt: skip
    assert [r["message"]["uid"] for r in rows] == [r["uid"] for r in exact]


def test_message_hits_fuse_the_ranking_by_meaning_with_the_one_by_words():
    """A message found by a rare word it shares with the question (a name) comes in although
    many are closer in meaning; the closest by meaning keep their places, whatever the number of
    word hits; beyond DEPTH by meaning and without words, a message is not given."""

    def row(uid, meaning, words=None):
        message = {"uid": uid, "sid": "main", "no": 1, "role": "user", "text": uid, "at": ""}
        return {"message": message, "similarity": 1 - meaning / 100, "meaning_place": meaning,
                "word_place": words}  # fmt: skip

    rows = [row(f"close-{i}", i) for i in range(1, 40)] + [row("named", 40, words=1)]
    rows += [row(f"common-{i}", 40 + i, words=1 + i) for i in range(1, 10)]
    rows.append(row("far", context.DEPTH + 1))
    hits, _ = message_fusion.messages_fused(rows, k=6, depth=context.DEPTH)
    assert [h["uid"] for h in hits] == ["named", "common-1", "close-1", "close-2", "close-3",
                                        "close-4"]  # fmt: skip
    assert hits[0]["ranks"] == {"meaning": 40, "words": 1}
    assert "far" not in {
        h["uid"] for h in message_fusion.messages_fused(rows, k=50, depth=context.DEPTH)[0]
    }


@pytest.mark.django_db(transaction=True)
def test_concurrent_context_calls_on_the_same_entities_all_record_their_trace(scope):
    import threading

    from tests.review.review_fixtures import anthropic_pair

    anthropic_pair(scope)
    barrier = threading.Barrier(4)
    results, errors = [], []

    def call(n):
        barrier.wait()
        try:
            results.append(context.check_context(
                scope, user=f"user-{n}", sid="main", k=3,
                message="Who builds Claude at Anthropic, and who invested in it?",
            ))  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == [] and len(results) == 4
    assert all(r["entity_hits"] for r in results)
    traces = {r["trace"] for r in results}
    kept = cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant, name: 'Anthropic'}) RETURN e.recent_traces AS kept",
    )[0]["kept"]
    # Fewer than the five kept: each call's uid is there, none lost to a concurrent update.
    assert sorted(kept) == sorted(traces)


def test_stats_count_the_traces_of_retrievals(scope):
    from apps.tenants.selectors import tenant_stats

    say(scope, "My turbine in hall three keeps overheating every afternoon.")
    assert tenant_stats(scope)["traces"] == 0
    context.check_context(scope, user="ann", sid="main", message="Why is it hot?", k=1)
    context.check_context(scope, user="ann", sid="main", message="And the turbine?", k=1)
    assert tenant_stats(scope)["traces"] == 2
