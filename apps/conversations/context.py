"""Context for a prompt (seed 003's chat retrieval): store the message, then find the user's
related messages, the entities it is about (vector and full-text fused by reciprocal rank),
their neighbours, and the earlier traces that touched them; give it all as one text block within
a token budget, and record a ReasoningTrace of the call."""

from __future__ import annotations

import time
from concurrent.futures import Future
from contextvars import copy_context

from django.conf import settings

from apps.conversations import context_floors as floors
from apps.conversations import input_limits as limits
from apps.conversations.context_entities import entities_around
from apps.conversations.context_memory import entries_read, knowledge_read, passages_read
from apps.conversations.message_fusion import messages_fused, word_places
from apps.conversations.prompt_block import prompt_block
from apps.conversations.services import after_append, do_message_append_in, validate_message_input
from apps.conversations.traces import do_trace_record_in
from apps.graph import cypher
from apps.graph.embeddings import embed_one, get_embedder
from apps.graph.fulltext import entity_words_query, fulltext_terms
from apps.graph.rank_fusion import rrf_fuse
from apps.graph.scope import Scope
from apps.resolution.twin_reads import twins_fold
from memoryproject.thread_pools import thread_pool

RECENT_SESSIONS = 20  # exact similarity over the user's latest messages in this many sessions,
EXACT_BUDGET = 200  # at most this many (about 8 ms here); older ones are found as below
DEPTH = 60  # places read from the full-text index, and kept of each ranking for the fusion
INDEX_DEPTH = 200  # places read from the vector index (see below)

# Message candidates, in three parts whose cost is bounded (by the setting below for the third):
# - the user's latest messages (up to EXACT_BUDGET, newest sessions first), unless the third
#   part compares the question with all of the user's messages;
# - their messages that share content words with the question (no stop words: those match
#   nearly every message), through the full-text index, which keeps to one user's messages
#   through owner_key, DEPTH deep in Lucene's order: a rare word (a name, a number) finds its
#   message even where the model's vector does not;
# - older messages by meaning, from the vector index filtered to the user inside the index: for
#   a user with at most settings.CONTEXT_EXACT_SCAN_MESSAGES messages, the DEPTH nearest by an
#   exact comparison with each of them (done by Lucene, see the query); above that, the
#   INDEX_DEPTH first of an approximate search. That one walks the HNSW graph only through the
#   user's own messages (ACORN-1, for a filter passing under 60% of the index) and their
#   neighbours' neighbours, so a message whose graph neighbours are other users' near-alike
#   messages is reached late or never; reading deeper than DEPTH walks further (see the README).
# Every candidate is then compared exactly with the question's vector; the answer gives the
# first DEPTH places by that similarity ("meaning") and the first $word_places word hits
# ("words"), which the caller fuses by reciprocal rank (message_fusion.messages_fused). The
# vectors go back as one packed VECTOR value each: 50 lists of floats cost this read about 50 ms
# (issue 36's profile). A user whose messages all fit the budget needs no vector index.
MESSAGE_HITS = """
CYPHER 25
CALL () {
  OPTIONAL MATCH (s:Session {tenant: $tenant, user: $user})
  WITH count(s) AS sessions, coalesce(sum(s.last_no), 0) AS total
  RETURN sessions <= $recent_sessions AND total <= $budget AS complete, total <= $scan_max AS scan
}
CALL (complete, scan) {
  // The latest messages, unless the exact read below covers all of the user's messages (those
  // without a vector yet count for neither).
  WITH complete, scan WHERE complete OR NOT scan
  MATCH (s:Session {tenant: $tenant, user: $user})
  WITH s ORDER BY s.last_at DESC LIMIT $recent_sessions
  WITH collect(s) AS sessions
  UNWIND range(0, size(sessions) - 1) AS i
  WITH sessions[i] AS s, $budget - reduce(n = 0, x IN sessions[..i] | n + x.last_no) AS left
  WITH s, CASE WHEN left < s.last_no THEN left ELSE s.last_no END AS take
  WHERE take > 0
  CALL (s, take) {
    // A session taken whole is read along its edges, the newest part of one by number.
    WITH s WHERE take = s.last_no
    MATCH (m:Message)-[:IN_SESSION]->(s)
    RETURN m
    UNION
    WITH s, take WHERE take < s.last_no
    UNWIND range(s.last_no, s.last_no - take + 1, -1) AS n
    MATCH (m:Message {tenant: $tenant, user: $user, sid: s.sid, no: n})
    RETURN m
  }
  RETURN m, null AS word_place
  UNION
  WITH complete WHERE $lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('message_text', $lucene, {limit: $depth})
  YIELD node
  WITH collect(node) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  WITH nodes[i] AS m, i + 1 AS word_place WHERE m.tenant = $tenant AND m.user = $user
  RETURN m, word_place
  UNION
  WITH complete, scan WHERE NOT complete AND scan
  // Asked for at least as many places as the user has messages, Lucene compares the question
  // with each of them in every segment instead of walking the graph (it does so whenever the
  // filter passes no more documents than are asked for): exact, and vectorised in the index.
  MATCH (near:Message)
    SEARCH near IN (VECTOR INDEX message_embedding FOR $vector
                    WHERE near.tenant = $tenant AND near.user = $user LIMIT $scan_places)
    SCORE AS near_score
  WITH near ORDER BY near_score DESC LIMIT $depth
  RETURN near AS m, null AS word_place
  UNION
  WITH complete, scan WHERE NOT complete AND NOT scan
  // A SEARCH binds a name used nowhere else in the query (Neo4j 2026.01 fails otherwise).
  MATCH (hit:Message)
    SEARCH hit IN (VECTOR INDEX message_embedding FOR $vector
                   WHERE hit.tenant = $tenant AND hit.user = $user LIMIT $index_depth)
  RETURN hit AS m, null AS word_place
}
WITH m, min(word_place) AS word_place WHERE m.embedding IS NOT NULL
WITH m, word_place, vector.similarity.cosine(m.embedding, $vector) AS similarity
ORDER BY similarity DESC
WITH collect({m: m, word_place: word_place, similarity: similarity}) AS found
UNWIND range(0, size(found) - 1) AS i
WITH found[i] AS c, found[i].m AS m, i + 1 AS meaning_place
WHERE meaning_place <= $depth OR c.word_place <= $word_places
RETURN m {.uid, .sid, .no, .role, .text, at: toString(m.at)} AS message,
       c.similarity AS similarity, meaning_place, c.word_place AS word_place,
       vector(m.embedding, size($vector), FLOAT32) AS vector
"""
# Both entity indexes keep to the tenant's active entities inside the index (see nodes.entities).
ENTITIES_BY_MEANING = """
CYPHER 25
MATCH (e:Entity)
  SEARCH e IN (VECTOR INDEX entity_embedding FOR $vector
               WHERE e.tenant = $tenant AND e.status = 'active' LIMIT $n)
  SCORE AS score
RETURN e.uid AS uid, score ORDER BY score DESC
"""
ENTITIES_BY_WORDS = """
CALL () {
  WITH $lucene AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('entity_names', lucene, {limit: $n}) YIELD node, score
  WITH node, score WHERE node.tenant = $tenant
  ORDER BY score DESC
  RETURN collect(node.uid) AS by_words
}
CALL () {
  // The session's latest messages still without a vector (read your writes: see
  // context_floors.unembedded_rows), by number through the message key.
  MATCH (s:Session {tenant: $tenant, user: $user, sid: $sid})
  UNWIND range(s.last_no, CASE WHEN s.last_no > $unembedded THEN s.last_no - $unembedded + 1
                               ELSE 1 END, -1) AS n
  MATCH (m:Message {tenant: $tenant, user: $user, sid: $sid, no: n}) WHERE m.embedding IS NULL
  RETURN collect(m {.uid, .sid, .no, .role, .text, at: toString(m.at)}) AS unembedded
}
OPTIONAL MATCH (sum:Summary {tenant: $tenant, user: $user, sid: $sid})
RETURN by_words, unembedded, sum {.uid, .upto, .text} AS summary
"""


def check_context(
    scope: Scope,
    *,
    user: str,
    sid: str,
    message: str,
    k: int = 5,
    token_budget: int = 1000,
    role: str = "user",
    by: str | None = None,
) -> dict:
    """Store the message in the user's session, then gather its context and record the trace.
    Each part keeps to its relevance floor (context_floors): the block can be far below the
    budget, and `omitted` says what was left out and why."""
    limits.validate_count(k, field="k", limit=limits.MAX_K)
    limits.validate_count(token_budget, field="token_budget", limit=limits.MAX_TOKEN_BUDGET,
                       minimum=50)  # fmt: skip
    mentions, _at = validate_message_input(
        scope, user=user, sid=sid, role=role, text=message, by=by or user, mentions=[], at=None
    )
    # The question is embedded once, on a thread of its own, while the searches that need no
    # vector (words, knowledge) and the message's store go on; the others start once it is done.
    asked = isinstance(message, str) and message.strip()
    embedding = thread_pool("context-embed", 2).submit(
        copy_context().run, lambda: embed_one(message) if asked else None
    )
    steps: list[dict] = []
    # Searches in read transactions of their own, before the message commits (never finding it).
    reads = _reads_start(scope, user=user, sid=sid, message=message, k=k)
    server_started = time.perf_counter()
    waited: dict = {}  # the vector, and how long the call waited for it (embed_ms)

    def work(unit):
        began = time.perf_counter()
        stored = do_message_append_in(unit, user=user, sid=sid, role=role, text=message,
                                      by=by or user, mentions=mentions, at=None)  # fmt: skip
        del steps[:]
        _step(steps, "store_message", began, 1)
        if "vector" not in waited:  # a retried unit reuses the vector and the searches
            mark = time.perf_counter()
            waited["vector"] = embedding.result()
            waited["embed_ms"] = (time.perf_counter() - mark) * 1000
            reads.update(_vector_reads_start(scope, user=user, message=message,
                                             vector=waited["vector"], k=k))  # fmt: skip
        found = _gathered(unit, reads, user=user, message=message, vector=waited["vector"], k=k,
                          steps=steps)  # fmt: skip
        mark = time.perf_counter()
        block = prompt_block(found, token_budget=token_budget)
        _step(steps, "prompt_block", mark, block["tokens"])
        trace_uid = do_trace_record_in(unit, user=user, sid=sid, message_uid=stored["uid"],
                                       found=found, steps=steps)  # fmt: skip
        return stored, found, block, trace_uid

    stored, found, block, trace_uid = cypher.write_unit(scope, work)
    # Embedded by the worker with the other messages: inserting into the vector index at commit
    # would cost this call about 8 ms, and its next context call is the first that can use it.
    after_append(scope, stored=stored)
    embed_ms = waited["embed_ms"]
    server_ms = (time.perf_counter() - server_started) * 1000 - embed_ms
    return {
        "message": stored,
        "summary": found["summary"],
        "message_hits": found["messages"],
        "passages": found["passages"],
        "knowledge": found["knowledge"],
        "entry_hits": found["entries"],
        "entity_hits": found["entities"],
        "neighbours": found["neighbours"],
        "traces": found["traces"],
        "omitted": [*found["omitted"], *block["omitted"]],
        "context": block["text"],
        "tokens": block["tokens"],
        "cited": block["cited"],
        "trace": trace_uid,
        "timings": {
            "embed_ms": round(embed_ms, 2),
            "server_ms": round(server_ms, 2),
            "steps": steps,
        },
    }


def _submit(scope: Scope, read, **params) -> Future:
    """A search in a read transaction of its own on a thread of the pool. A copy of the context
    goes with it, so round trips are counted where the call started."""
    return thread_pool("context", 10).submit(
        copy_context().run, cypher.read_unit, scope, lambda unit: read(unit, **params)
    )


def _reads_start(scope: Scope, *, user, sid, message, k) -> dict[str, Future]:
    """The searches that need no vector: the entities by words (with the session's messages
    not embedded yet and its summary), and the user's knowledge."""
    return {
        "words": _submit(scope, _words, user=user, sid=sid, message=message, k=k),
        "knowledge": _submit(scope, knowledge_read, user=user, message=message, k=k),
    }


def _vector_reads_start(scope: Scope, *, user, message, vector, k) -> dict[str, Future]:
    """The searches by the question's vector: the user's messages, the entities by meaning,
    the passages and the episode entries."""
    return {
        "messages": _submit(scope, _message_rows, user=user, message=message, vector=vector, k=k),
        "meaning": _submit(scope, _entities_by_meaning, vector=vector, want=k * 2),
        "passages": _submit(scope, passages_read, message=message, vector=vector, k=k),
        "entries": _submit(scope, entries_read, message=message, vector=vector, k=k),
    }


def _words(unit, *, user, sid, message, k) -> tuple[dict, list[dict]]:
    steps: list[dict] = []
    mark = time.perf_counter()
    lucene = entity_words_query(unit.scope.tenant, fulltext_terms(message))
    words = unit.run(ENTITIES_BY_WORDS, lucene=lucene, n=k * 2, user=user, sid=sid,
                     unembedded=floors.UNEMBEDDED_READ)[0]  # fmt: skip
    _step(steps, "entities_by_words", mark, len(words["by_words"]))
    return words, steps


def _message_rows(unit, *, user, message, vector, k) -> tuple[dict, list[dict]]:
    steps: list[dict] = []
    mark = time.perf_counter()
    content = fulltext_terms(message, content_only=True)
    rows = unit.run(MESSAGE_HITS, user=user, vector=vector, recent_sessions=RECENT_SESSIONS,
                    budget=EXACT_BUDGET, depth=DEPTH, index_depth=INDEX_DEPTH,
                    word_places=word_places(k),
                    scan_max=settings.CONTEXT_EXACT_SCAN_MESSAGES,
                    scan_places=max(settings.CONTEXT_EXACT_SCAN_MESSAGES, 1),
                    lucene=limits.user_words_query(unit.scope.tenant, user, content) or None
                    ) if vector is not None else []  # fmt: skip
    rows = [{**r, "vector": r["vector"].to_numpy()} for r in rows]
    _step(steps, "message_rows", mark, len(rows))
    return {"message_rows": rows}, steps


def _entities_by_meaning(unit, *, vector, want) -> tuple[dict, list[dict]]:
    steps: list[dict] = []
    mark = time.perf_counter()
    rows = unit.run(ENTITIES_BY_MEANING, vector=vector, n=want) if vector is not None else []
    kept, below = floors.entities_by_meaning_above_floor(rows)
    _step(steps, "entities_by_meaning", mark, len(kept))
    return {"by_meaning": kept, "entities_below_floor": below}, steps


def _gathered(unit, reads: dict[str, Future], *, user, message, vector, k, steps) -> dict:
    """The searches' results fused, with the neighbourhood of the entities found, less what a
    passage says already. The neighbourhood is read (in the caller's transaction, open already)
    as soon as both entity rankings are in, while the slower searches (the user's messages, the
    passages) still run: it waited for them before (issue 36's profile)."""
    found: dict = {}

    def take(*names):
        for name in names:
            part, read_steps = reads[name].result()
            found.update(part)
            steps.extend(read_steps)

    take("words", "meaning")
    fused = rrf_fuse({"vector": found.pop("by_meaning"), "words": found.pop("by_words")})[:k]
    mark = time.perf_counter()
    near = entities_around(unit, fused, user=user, k=k)
    _step(steps, "neighbours_and_traces", mark, len(near["neighbours"]) + len(near["traces"]))
    take(*(name for name in reads if name not in ("words", "meaning")))
    mark = time.perf_counter()
    rows = floors.unembedded_rows(found.pop("unembedded"), rows=found.pop("message_rows"),
                                  question=message, vector=vector,
                                  embed=get_embedder().embed)  # fmt: skip
    found["messages"], found["messages_below_floor"] = messages_fused(rows, k=k, vector=vector,
                                                                      depth=DEPTH)  # fmt: skip
    _step(steps, "message_hits", mark, len(found["messages"]))
    omitted: list[dict] = []
    for part in ("messages", "passages", "entities", "knowledge", "entries"):
        floors.omitted_add(omitted, part, found.pop(f"{part}_below_floor"), floors.BELOW_FLOOR)
    floors.omitted_add(omitted, "knowledge", found.pop("knowledge_beyond_k"), floors.BEYOND_K)
    neighbours, said = floors.neighbours_not_in_passages(near["neighbours"], found["passages"])
    floors.omitted_add(omitted, "neighbours", said, floors.IN_PASSAGE)
    entities, said = floors.entities_not_in_passages(near["entities"], found["passages"])
    floors.omitted_add(omitted, "entities", said, floors.IN_PASSAGE)
    return {
        **found,
        # A twin pair shown once, another pending pair named between its two (concepts/twins.md).
        "entities": twins_fold(entities, near["twins"], among=True),
        "neighbours": [{key: v for key, v in n.items() if key != "chunks"} for n in neighbours],
        "traces": near["traces"][:k],
        "omitted": omitted,
    }


def _step(steps: list, name: str, since: float, count: int) -> float:
    now = time.perf_counter()
    steps.append({"step": name, "ms": round((now - since) * 1000, 2), "count": count})
    return now
