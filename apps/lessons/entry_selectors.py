"""Episode entries that answer a question, by words (the entry_text full-text index, which keeps
to the tenant inside Lucene) and by meaning (the entry_embedding vector index, filtered by tenant
inside the index), fused by reciprocal rank, each cited (episode, type, seq). Below the relevance
floor nothing is given: a question that matches no entry gets none, however large the budget.

Read your writes: an entry the worker has not embedded yet is still found by its words, and its
vector is made here (at most UNEMBEDDED_MAX of them, in one call of the model)."""

from __future__ import annotations

import re

import numpy as np

from apps.graph.cypher import ScopedTx
from apps.graph.fulltext import STOP_WORDS, fulltext_terms, scoped_query
from apps.graph.rank_fusion import rrf_fuse

DEPTH = 40  # places read from each index before the fusion
# The floor, on Neo4j's cosine similarity ((1 + cos) / 2): an entry is given when it is
# MEANING_FLOOR near in meaning, or when it shares a rare word with the question (one at most
# RARE_WORD_HITS of the word hits hold) and is at least WORDS_FLOOR near. Entries are short
# notes: on hand-checked pairs (1 December), questions that paraphrase one with no word in
# common reached 0.75-0.79, questions on a neighbouring topic 0.64-0.65, unrelated ones
# 0.46-0.57 (the passages' floors, apps/ingestion/passage_selectors.py, are for longer text).
MEANING_FLOOR = 0.75
WORDS_FLOOR = 0.60
RARE_WORD_HITS = 3
UNEMBEDDED_MAX = 8
_WORD = re.compile(r"\w+")

# A SEARCH binds a name used nowhere else in the query (Neo4j 2026.01 fails otherwise).
ENTRIES = """
CYPHER 25
CALL () {
  WITH $lucene AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('entry_text', lucene, {limit: $depth}) YIELD node
  WITH collect(node) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  WITH nodes[i] AS en, i + 1 AS place WHERE en.tenant = $tenant
  RETURN en, place AS word_place, null AS meaning_place
  UNION ALL
  MATCH (hit:Entry)
    SEARCH hit IN (VECTOR INDEX entry_embedding FOR $vector WHERE hit.tenant = $tenant
                   LIMIT $depth)
    SCORE AS score
  WITH hit ORDER BY score DESC
  WITH collect(hit) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  RETURN nodes[i] AS en, null AS word_place, i + 1 AS meaning_place
}
WITH en, min(word_place) AS word_place, min(meaning_place) AS meaning_place
OPTIONAL MATCH (ep:Episode {tenant: $tenant, uid: en.episode}) USING INDEX SEEK ep:Episode(uid)
RETURN en.uid AS uid, en.text AS text, en.type AS type, en.seq AS seq, en.by AS by,
       toString(en.created_at) AS at, ep.uid AS episode, coalesce(ep.title, ep.key, '') AS title,
       word_place, meaning_place,
       CASE WHEN en.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(en.embedding, $vector) END AS similarity
"""


def do_entries_find(stx: ScopedTx, *, text: str, vector, limit: int, embed=None) -> dict:
    """{"entries": the best `limit` entries above the floor, best first; "below_floor": how many
    candidates the floor left out}. Runs in the caller's read transaction; `embed` (texts ->
    vectors) makes the vectors of word hits the worker has not embedded yet."""
    if vector is None:
        return {"entries": [], "below_floor": 0}
    lucene = scoped_query(fulltext_terms(text, content_only=True), ("text",),
                          tenant=stx.scope.tenant)  # fmt: skip
    rows = stx.run(ENTRIES, lucene=lucene, vector=list(vector), depth=DEPTH)
    rows = _unembedded_placed(rows, vector=vector, embed=embed)
    return entries_ranked(rows, limit=limit, question=text)


def _unembedded_placed(rows: list[dict], *, vector, embed) -> list[dict]:
    waiting = [r for r in rows if r["similarity"] is None and r["text"]][:UNEMBEDDED_MAX]
    rows = [r for r in rows if r["similarity"] is not None or r in waiting]
    if not waiting:
        return rows
    if embed is None:
        from apps.graph.embeddings import get_embedder

        embed = get_embedder().embed
    asked = np.asarray(vector, dtype=np.float32)
    for row, own in zip(waiting, embed([r["text"] for r in waiting]), strict=True):
        own = np.asarray(own, dtype=np.float32)
        cos = float(asked @ own) / max(float(np.linalg.norm(asked) * np.linalg.norm(own)), 1e-12)
        row["similarity"] = (1.0 + cos) / 2.0
    return rows


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall((text or "").lower()) if w not in STOP_WORDS}


def entries_ranked(rows: list[dict], *, limit: int, question: str) -> dict:
    """Candidates fused by reciprocal rank over their places by meaning and by words, then cut
    by the floor (see MEANING_FLOOR) and to `limit`."""
    asked = _content_words(question)
    shared = {r["uid"]: asked & _content_words(r["text"]) for r in rows if r["word_place"]}
    held: dict[str, int] = {}
    for words in shared.values():
        for word in words:
            held[word] = held.get(word, 0) + 1
    rare = {uid for uid, words in shared.items() if any(held[w] <= RARE_WORD_HITS for w in words)}
    by_uid = {r["uid"]: r for r in rows}
    rankings = {
        "words": [r["uid"] for r in sorted(rows, key=lambda r: r["word_place"] or 0)
                  if r["word_place"] is not None],
        "meaning": [r["uid"] for r in sorted(rows, key=lambda r: -r["similarity"])],
    }  # fmt: skip
    kept, below = [], 0
    for fused in rrf_fuse(rankings):
        row = by_uid[fused["uid"]]
        similarity = row["similarity"]
        if not (similarity >= MEANING_FLOOR or (row["uid"] in rare and similarity >= WORDS_FLOOR)):
            below += 1
            continue
        if len(kept) < limit:
            kept.append({
                "uid": row["uid"], "text": row["text"], "type": row["type"], "seq": row["seq"],
                "by": row["by"], "at": row["at"],
                "episode": {"uid": row["episode"], "title": row["title"]},
                "similarity": round(similarity, 5), "score": round(fused["score"], 5),
                "ranks": fused["ranks"],
            })  # fmt: skip
    return {"entries": kept, "below_floor": below}
