"""The context call's cuts (issue 36): the question embedded once while the searches that need
no vector run, the message and its trace committed before the answer, so the next call reads
them, and nothing of another user or tenant on the way."""

from concurrent.futures import ThreadPoolExecutor

import torch

from apps.conversations import context
from apps.graph import cypher
from apps.graph import embeddings as embeddings_module
from tests.conftest import scope_for
from tests.conversations.test_messages import say

TRACE_OF = """
MATCH (t:ReasoningTrace {tenant: $tenant, uid: $uid})-[:FOR_MESSAGE]->(q:Message)
RETURN q.uid AS message, q.text AS text, size([(t)-[:TOUCHED]->(n) | n]) AS touched
"""


class CountingEmbedder:
    """The real model, counting the texts it is given."""

    def __init__(self, real):
        self.real, self.texts = real, []
        self.name, self.dimensions = real.name, real.dimensions

    def embed(self, texts):
        self.texts.extend(texts)
        return self.real.embed(texts)

    def embed_single(self, text):
        self.texts.append(text)
        return self.real.embed_single(text)


def test_the_question_is_embedded_once(scope, monkeypatch):
    say(scope, "The boiler in the north depot was serviced on Monday.")
    context.check_context(scope, user="ann", sid="warm", message="warm the model up")
    counting = CountingEmbedder(embeddings_module.get_embedder())
    monkeypatch.setattr(embeddings_module, "_embedder", counting)
    found = context.check_context(
        scope, user="ann", sid="other", message="When was the boiler serviced?", k=3
    )
    assert counting.texts == ["When was the boiler serviced?"]
    assert found["timings"]["embed_ms"] >= 0 and found["timings"]["server_ms"] > 0


def test_a_question_alone_gets_the_batch_vector_on_one_torch_thread_of_its_own():
    embedder = embeddings_module.get_embedder()
    question = "What did the inspector say about the north depot's boiler?"
    default = ThreadPoolExecutor(1).submit(torch.get_num_threads).result()
    alone = ThreadPoolExecutor(1)
    single = alone.submit(embedder.embed_single, question).result()
    assert (
        max(abs(a - b) for a, b in zip(single, embedder.embed([question])[0], strict=True)) < 1e-6
    )
    assert alone.submit(torch.get_num_threads).result() == 1
    # The other threads keep torch's default (the batches of the workers use it).
    assert ThreadPoolExecutor(1).submit(torch.get_num_threads).result() == default


def test_the_next_call_reads_the_question_and_its_trace_is_committed(scope):
    first = context.check_context(
        scope, user="ann", sid="main", message="My gate code is Velorkan 4417, remember it."
    )
    # No worker has embedded the question yet: the next call still finds it.
    second = context.check_context(scope, user="ann", sid="main", message="What is my gate code?")
    assert second["message"]["no"] == first["message"]["no"] + 1
    assert first["message"]["uid"] in [m["uid"] for m in second["message_hits"]]
    assert second["message"]["uid"] not in [m["uid"] for m in second["message_hits"]]
    for call in (first, second):
        trace = cypher.read(scope, TRACE_OF, uid=call["trace"])
        assert [t["message"] for t in trace] == [call["message"]["uid"]]
    assert cypher.read(scope, TRACE_OF, uid=second["trace"])[0]["touched"] >= 1


def test_no_other_users_or_tenants_question_is_read(scope, make_tenant):
    theirs = scope_for(make_tenant())
    context.check_context(theirs, user="ann", sid="main", message="My gate code is Quorix 99.")
    context.check_context(scope, user="bob", sid="main", message="My gate code is Belmin 12.")
    found = context.check_context(scope, user="ann", sid="main", message="What is my gate code?")
    assert all("gate code is" not in m["text"] for m in found["message_hits"])
    assert "Quorix" not in found["context"] and "Belmin" not in found["context"]
