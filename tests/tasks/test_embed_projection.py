"""A task without embed_text is embedded by the projection of its description: one sentence,
at most 12 words, never the description itself."""

from __future__ import annotations

import numpy as np

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.tasks.embed_projection import EMBED_WORDS, embed_text_projection
from apps.tasks.selectors import task_detail
from apps.tasks.services.task_writes import TaskPatch, check_task_create, check_tasks_apply

LONG = (
    "# Duplicate invoices in Germany\n\n"
    "Customers in Germany reported duplicate invoices last week, and we think the Kafka "
    "consumer group of the payments service rebalances while a batch is half done. Find out "
    "whether that is so, and if it is, make the consumer commit its offsets per invoice."
)
EMBEDDING = "MATCH (t:Task {tenant: $tenant, uid: $uid}) RETURN t.embedding AS v"


def test_the_projection_is_one_bounded_sentence_keeping_the_terms():
    got = embed_text_projection(LONG)
    assert len(got.split()) <= EMBED_WORDS
    assert got.startswith("Duplicate invoices in Germany")  # the title first
    assert "Customers Germany reported" in got  # filled from the next sentence's content words
    assert embed_text_projection(LONG) == got  # deterministic
    long_sentence = " ".join(f"word{i} of the" for i in range(30)) + "."
    assert embed_text_projection(long_sentence).split() == [f"word{i}" for i in range(12)]
    assert embed_text_projection("Check the coolant") == "Check the coolant"


def _vector(scope, uid):
    return np.array(cypher.read(scope, EMBEDDING, uid=uid)[0]["v"])


def test_the_projection_is_what_gets_embedded_not_the_description(scope):
    made = check_task_create(scope, description=LONG)
    detail = task_detail(scope, task=made["id"])
    assert detail["embed_text"] is None
    assert detail["embedded_text"] == embed_text_projection(LONG)
    stored = _vector(scope, made["uid"])
    projected, raw = (np.array(v) for v in get_embedder().embed([embed_text_projection(LONG),
                                                                  LONG]))  # fmt: skip
    assert float(stored @ projected) > 0.999 and float(stored @ raw) < 0.99
    # Re-described: the new description's projection; the caller's embed_text wins over both.
    check_tasks_apply(scope, ops=[TaskPatch(task=made["id"], description="Check the coolant")])
    assert task_detail(scope, task=made["id"])["embedded_text"] == "Check the coolant"
    given = check_task_create(scope, description=LONG, embed_text="Kafka rebalance duplicates")
    assert task_detail(scope, task=given["id"])["embedded_text"] == "Kafka rebalance duplicates"
