"""The worker's embedding: a message is claimed by one task at a time, so two tasks on the
same tenant embed each waiting message once, and a claim whose worker died lapses."""

import threading

from apps.conversations import embedding
from apps.graph import cypher
from apps.graph.connection import graph_driver
from apps.graph.cypher import ScopedTx
from apps.graph.embeddings import get_embedder
from tests.conftest import wait_for_a_blocked_transaction
from tests.conversations.test_messages import say

STATE = """
MATCH (m:Message {tenant: $tenant})
RETURN count(m.embedding) AS embedded, COUNT { MATCH (p:MessageToEmbed {tenant: $tenant}) } AS
       waiting, COUNT { MATCH (c:Message {tenant: $tenant}) WHERE c._embed_lock IS NOT NULL
       OR c.embed_claim IS NOT NULL } AS marked
"""


def embedded_texts(monkeypatch) -> list[str]:
    """Every text the model is asked for (the real model still answers)."""
    model, seen = get_embedder(), []
    real = type(model).embed

    def counting(self, texts):
        seen.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(type(model), "embed", counting)
    return seen


def test_two_concurrent_tasks_embed_each_message_once(scope, monkeypatch):
    for i in range(40):
        say(scope, f"Shipment {i} left the north depot.")
    seen = embedded_texts(monkeypatch)
    barrier, results, errors = threading.Barrier(2), [], []

    def task():
        barrier.wait()
        try:
            results.append(embedding.messages_embed_pending(scope, batch=8))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=task) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == []
    assert sum(r["embedded"] for r in results) == 40
    assert sorted(seen) == sorted(f"Shipment {i} left the north depot." for i in range(40))
    assert cypher.read(scope, STATE)[0] == {"embedded": 40, "waiting": 0, "marked": 0}


def test_a_claim_taken_while_another_holds_it_gets_nothing(scope):
    """The race itself: a second claim waits on the first one's locks, then sees its marker."""
    for i in range(5):
        say(scope, f"Valve {i} was replaced.")
    params = {"batch": 10, "uids": None, "lease": embedding.CLAIM_LEASE_S}
    second: list = []
    with graph_driver().session() as session, session.begin_transaction() as tx:
        first = ScopedTx(scope, tx).run(embedding.CLAIM, claim="first", **params)
        waiting = threading.Thread(
            target=lambda: second.extend(
                cypher.write(scope, embedding.CLAIM, claim="second", **params)
            )  # fmt: skip
        )
        waiting.start()
        wait_for_a_blocked_transaction(scope.tenant, timeout=300)  # the second claim waits
        tx.commit()
    waiting.join(timeout=300)
    assert len(first) == 5 and second == []


def test_a_lapsed_claim_is_taken_again(scope, monkeypatch):
    say(scope, "The forklift battery is flat.")
    assert len(cypher.write(scope, embedding.CLAIM, claim="dead-worker", batch=10, uids=None,
                            lease=embedding.CLAIM_LEASE_S)) == 1  # fmt: skip
    assert embedding.messages_embed_pending(scope) == {"embedded": 0, "more": False}
    monkeypatch.setattr(embedding, "CLAIM_LEASE_S", 0)
    done = embedding.messages_embed_pending(scope)
    assert (done["embedded"], done["more"]) == (1, False) and done["encode_s"] >= 0
    assert cypher.read(scope, STATE)[0] == {"embedded": 1, "waiting": 0, "marked": 0}


def test_a_listed_batch_embeds_only_its_waiting_messages(scope):
    listed = [say(scope, f"Pallet {i} is on dock two.")["uid"] for i in range(3)]
    say(scope, "Not in the batch.")
    done = embedding.messages_embed_listed(scope, uids=listed)
    # The task's result also says where its time went (the model, the write with its index).
    assert done["embedded"] == 3 and done["encode_s"] >= 0 and done["write_s"] >= 0
    assert embedding.messages_embed_listed(scope, uids=listed) == {"embedded": 0}
    assert cypher.read(scope, STATE)[0] == {"embedded": 3, "waiting": 1, "marked": 0}
