"""Passages: the tenant's chunks that answer a question, by words (the chunk_text full-text
index, which keeps to the tenant inside Lucene) and by meaning (the chunk_embedding vector index,
filtered by tenant inside the index), fused by reciprocal rank, each cited (document title and
uid, chunk uid, section path, character offsets). Below the relevance floor nothing is given:
a question that matches no document gets no passage, however large the budget."""

from __future__ import annotations

from apps.graph.cypher import ScopedTx
from apps.graph.fulltext import fulltext_terms, scoped_query
from apps.graph.rank_fusion import rrf_fuse

DEPTH = 40  # places read from each index before the fusion

# The relevance floor, on Neo4j's cosine similarity ((1 + cos) / 2, as the vector index scores):
# a passage is given when it is this near in meaning, or when it shares a content word with the
# question (a name, a number) and is at least WORDS_FLOOR near; and never when it is more than
# RELATIVE_GAP below the best passage's similarity (a clear answer leaves out the weak ones).
# Chosen on the dev part of bench/context_passages.py and checked on its held-out part (see
# docs/benchmarks/passages.md).
MEANING_FLOOR = 0.78
WORDS_FLOOR = 0.70
RELATIVE_GAP = 0.12

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
    return passages_ranked(rows, limit=limit)


def passages_ranked(rows: list[dict], *, limit: int) -> dict:
    """Candidates fused by reciprocal rank over their places by meaning and by words, then cut
    by the floor (see MEANING_FLOOR) and to `limit`."""
    by_uid = {row["uid"]: row for row in rows}
    rankings = {
        "meaning": [r["uid"] for r in sorted(rows, key=lambda r: -r["similarity"])
                    if r["meaning_place"] is not None],
        "words": [r["uid"] for r in sorted(rows, key=lambda r: r["word_place"] or 0)
                  if r["word_place"] is not None],
    }  # fmt: skip
    best = max((r["similarity"] for r in rows), default=0.0)
    kept, below = [], 0
    for fused in rrf_fuse(rankings):
        row = by_uid[fused["uid"]]
        if not passage_above_floor(row, best=best):
            below += 1
            continue
        if len(kept) < limit:
            kept.append(passage_cited(row, score=fused["score"], ranks=fused["ranks"]))
    return {"passages": kept, "below_floor": below}


def passage_above_floor(row: dict, *, best: float) -> bool:
    similarity = row["similarity"]
    if similarity < best - RELATIVE_GAP:
        return False
    return similarity >= MEANING_FLOOR or (
        row["word_place"] is not None and similarity >= WORDS_FLOOR
    )


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
