"""Passages: the tenant's chunks that answer a question, by words (the chunk_text full-text
index, which keeps to the tenant inside Lucene) and by meaning (the chunk_embedding vector index,
filtered by tenant inside the index), fused by reciprocal rank, each cited (document title and
uid, chunk uid, section path, character offsets). Below the relevance floor nothing is given:
a question that matches no document gets no passage, however large the budget."""

from __future__ import annotations

import re

from apps.graph.cypher import ScopedTx
from apps.graph.fulltext import STOP_WORDS, fulltext_terms, scoped_query
from apps.graph.rank_fusion import rrf_fuse

DEPTH = 40  # places read from each index before the fusion

# The relevance floor, on Neo4j's cosine similarity ((1 + cos) / 2, as the vector index scores):
# a passage is given when it is MEANING_FLOOR near in meaning, or when it shares a rare word
# with the question (a name, a number: one that at most RARE_WORD_HITS of the word hits hold,
# so "project" or "founded" shared with many chunks counts for nothing) and is at least
# WORDS_FLOOR near. Chosen on the dev part of bench/context_passages.py (--tune) and checked on
# its held-out part (docs/benchmarks/passages.md): there, every answer passage shares a rare
# word with its question and no question that matches nothing does, while by meaning alone the
# answers (0.63 to 0.85) and the best chunk for a question about nothing stored (up to 0.81)
# overlap: this model's similarity does not tell an answer from a look-alike on its own.
MEANING_FLOOR = 0.84
# A question that names nothing (no capitalised word past its first) is about a topic, not a
# thing: a passage near enough in meaning is given from this lower floor. One that names a thing
# no candidate holds (a name stored nowhere) keeps MEANING_FLOOR: its look-alikes are about
# other things of the same kind. Set on hand-checked pairs (paraphrases with no word in common
# at 0.82-0.84, unrelated text at 0.61-0.72), not on the benchmark, whose questions all name.
MEANING_FLOOR_UNNAMED = 0.80
WORDS_FLOOR = 0.60
RARE_WORD_HITS = 3
_WORD = re.compile(r"\w+")

# A SEARCH binds a name used nowhere else in the query (Neo4j 2026.01 fails otherwise).
PASSAGES = """
CYPHER 25
CALL () {
  WITH $lucene AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('chunk_text', lucene, {limit: $depth}) YIELD node
  WITH collect(node) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  WITH nodes[i] AS c, i + 1 AS place WHERE c.tenant = $tenant
  RETURN c, place AS word_place, null AS meaning_place
  UNION ALL
  MATCH (hit:Chunk)
    SEARCH hit IN (VECTOR INDEX chunk_embedding FOR $vector WHERE hit.tenant = $tenant
                   LIMIT $depth)
    SCORE AS score
  WITH hit ORDER BY score DESC
  WITH collect(hit) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  RETURN nodes[i] AS c, null AS word_place, i + 1 AS meaning_place
}
WITH c, min(word_place) AS word_place, min(meaning_place) AS meaning_place
OPTIONAL MATCH (c)-[:PART_OF]->(d:Document {tenant: $tenant})
RETURN c.uid AS uid, c.text AS text, c.start AS start, c.end AS end,
       coalesce(c.section_path, []) AS section_path, c.position AS position,
       d.uid AS document_uid, coalesce(d.title, d.source, '') AS document_title,
       d.source AS document_source, word_place, meaning_place,
       vector.similarity.cosine(c.embedding, $vector) AS similarity
"""


def passages_words_query(tenant: str, text: str) -> str:
    """The chunk_text query for the tenant's chunks holding a content word of `text`."""
    return scoped_query(fulltext_terms(text, content_only=True), ("text",), tenant=tenant)


def do_passages_find(stx: ScopedTx, *, text: str, vector, limit: int) -> dict:
    """{"passages": the best `limit` passages above the floor, best first; "below_floor": how
    many candidates the floor left out}. Runs in the caller's read transaction."""
    if vector is None:
        return {"passages": [], "below_floor": 0}
    rows = stx.run(PASSAGES, lucene=passages_words_query(stx.scope.tenant, text),
                   vector=list(vector), depth=DEPTH)  # fmt: skip
    return passages_ranked(rows, limit=limit, question=text)


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}


def names_unknown(rows: list[dict], question: str) -> bool:
    """Whether the question names a thing (a capitalised word past its first) none of the
    candidates holds, or names nothing at all (then None)."""
    words = re.findall(r"\w+", question)
    names = {w.lower() for w in words[1:] if w[0].isupper() and w.lower() not in STOP_WORDS}
    if not names:
        return None
    held = set().union(*(content_words(r["text"]) for r in rows)) if rows else set()
    return bool(names - held)


def rare_shared(rows: list[dict], question: str) -> set[str]:
    """The uids of word hits that share a rare word with the question (see RARE_WORD_HITS)."""
    asked = content_words(question)
    shared = {r["uid"]: asked & content_words(r["text"]) for r in rows if r["word_place"]}
    held: dict[str, int] = {}
    for words in shared.values():
        for word in words:
            held[word] = held.get(word, 0) + 1
    return {uid for uid, words in shared.items()
            if any(held[w] <= RARE_WORD_HITS for w in words)}  # fmt: skip


def passages_ranked(rows: list[dict], *, limit: int, question: str) -> dict:
    """Candidates fused by reciprocal rank over their places by meaning and by words, then cut
    by the floor (see MEANING_FLOOR) and to `limit`."""
    by_uid = {row["uid"]: row for row in rows}
    rare = rare_shared(rows, question)
    unknown = names_unknown(rows, question)
    floor = MEANING_FLOOR_UNNAMED if unknown is None else MEANING_FLOOR
    rankings = {
        "meaning": [r["uid"] for r in sorted(rows, key=lambda r: -r["similarity"])
                    if r["meaning_place"] is not None],
        "words": [r["uid"] for r in sorted(rows, key=lambda r: r["word_place"] or 0)
                  if r["word_place"] is not None],
    }  # fmt: skip
    kept, below = [], 0
    for fused in rrf_fuse(rankings):
        row = by_uid[fused["uid"]]
        if not passage_above_floor(row, rare_word=row["uid"] in rare, floor=floor):
            below += 1
            continue
        if len(kept) < limit:
            kept.append(passage_cited(row, score=fused["score"], ranks=fused["ranks"]))
    return {"passages": kept, "below_floor": below}


def passage_above_floor(row: dict, *, rare_word: bool, floor: float) -> bool:
    similarity = row["similarity"]
    return similarity >= floor or (rare_word and similarity >= WORDS_FLOOR)


def passage_cited(row: dict, *, score: float, ranks: dict) -> dict:
    return {
        "uid": row["uid"],
        "text": row["text"],
        "document": {"uid": row["document_uid"], "title": row["document_title"],
                     "source": row["document_source"]},
        "section_path": list(row["section_path"]),
        "start": row["start"],
        "end": row["end"],
        "similarity": round(row["similarity"], 5),
        "score": round(score, 5),
        "ranks": ranks,
    }  # fmt: skip
