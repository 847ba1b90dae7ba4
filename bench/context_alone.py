"""The floors under a context call, for bench/context_latency.py --alone: each part measured
alone, one after another in-process, on the bench's tenant (nothing beside it): the model's
encode of one question (as a context call does it, on one torch thread of its own, and as a
batch of one on torch's default threads), each search in its read transaction of its own, an
empty read transaction (the driver's round trips), and a write transaction that appends a
message (what the call's commit costs without the trace). Prints figures, asserts nothing."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from apps.conversations import context
from apps.conversations.context_memory import entries_read, knowledge_read, passages_read
from apps.conversations.services import do_message_append_in
from apps.graph import cypher
from apps.graph.embeddings import get_embedder


def _timed(label: str, calls, row) -> None:
    ms = []
    for call in calls:
        started = time.perf_counter()
        call()
        ms.append((time.perf_counter() - started) * 1000)
    print(row(label, ms), flush=True)


def alone(scope, asked: list[tuple[str, str, str | None]], row) -> None:
    """`asked`: (user, question, needle) as the runs ask them; `row(label, ms)` prints a line."""
    embedder = get_embedder()
    single = ThreadPoolExecutor(1, thread_name_prefix="alone")  # as the call's embedding thread
    vectors = {q: single.submit(embedder.embed_single, q).result() for _, q, _ in asked}
    print(f"each part alone ({len(asked)} questions, one after another):")
    _timed("encode, one torch thread", [lambda q=q: single.submit(embedder.embed_single, q)
                                       .result() for _, q, _ in asked], row)  # fmt: skip
    _timed("encode, batch of one", [lambda q=q: embedder.embed([q]) for _, q, _ in asked], row)

    def read(fn, **params):
        return lambda: cypher.read_unit(scope, lambda unit: fn(unit, **params))

    parts = {
        "words (+ unembedded, summary)": lambda u, q: read(context._words, user=u, sid="s0",
                                                           message=q, k=5),
        "knowledge": lambda u, q: read(knowledge_read, user=u, message=q, k=5),
        "message_rows": lambda u, q: read(context._message_rows, user=u, message=q,
                                          vector=vectors[q], k=5),
        "entities_by_meaning": lambda u, q: read(context._entities_by_meaning,
                                                 vector=vectors[q], want=10),
        "passages": lambda u, q: read(passages_read, message=q, vector=vectors[q], k=5),
        "entries": lambda u, q: read(entries_read, message=q, vector=vectors[q], k=5),
        "empty read transaction": lambda u, q: lambda: cypher.read(scope, "RETURN $tenant AS t"),
    }  # fmt: skip
    for label, make in parts.items():
        _timed(label, [make(u, q) for u, q, _ in asked], row)

    def append(i: int):
        return lambda: cypher.write_unit(scope, lambda unit: do_message_append_in(
            unit, user="alone-writer", sid="alone", role="user", text=f"An append alone, {i}.",
            by="alone-writer", mentions=[], at=None))  # fmt: skip

    _timed("append a message, committed", [append(i) for i in range(len(asked))], row)
