"""One search over the tenant's memory: passages of documents, entities, messages, episode
entries, promoted facts and the argument components documents state, as one ranked list. Each kind is searched its own way (by words and
by meaning where it has both indexes), keeps to its own relevance floor, and is placed in the one
list by reciprocal rank over every kind's rankings: each result says how each of its kind's
rankings placed it ("words #2, meaning #5"). Read only; one round trip per kind asked."""

from __future__ import annotations

import re

from apps.conversations.context_floors import MESSAGE_FLOOR
from apps.conversations.input_limits import user_words_query
from apps.graph import cypher
from apps.graph.embeddings import embed_one
from apps.graph.fulltext import fulltext_terms
from apps.graph.rank_fusion import rrf_fuse
from apps.graph.scope import Scope
from apps.ingestion.argument_selectors import arguments_find
from apps.ingestion.passage_selectors import do_passages_find
from apps.knowledge.selectors import knowledge_search
from apps.lessons.entry_selectors import do_entries_find
from apps.resolution.selectors import entities_search

KINDS = ("passages", "entities", "messages", "entries", "facts", "arguments")
DEPTH = 40  # places read from each index of a kind
SNIPPET_CHARS = 240

# Messages of one user (words: owner_key inside Lucene; meaning: the vector index filtered by
# tenant and user) or of the whole tenant (by meaning only: the word index keeps to one user).
MESSAGES = """
CYPHER 25
CALL () {
  WITH $lucene AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('message_text', lucene, {limit: $depth}) YIELD node
  WITH collect(node) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  WITH nodes[i] AS m, i + 1 AS place WHERE m.tenant = $tenant
  RETURN m, place AS word_place, null AS meaning_place
  UNION ALL
  MATCH (hit:Message)
    SEARCH hit IN (VECTOR INDEX message_embedding FOR $vector
                   WHERE hit.tenant = $tenant AND hit.user = $user LIMIT $depth)
    SCORE AS score
  WITH hit ORDER BY score DESC
  WITH collect(hit) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  RETURN nodes[i] AS m, null AS word_place, i + 1 AS meaning_place
}
WITH m, min(word_place) AS word_place, min(meaning_place) AS meaning_place
RETURN m.uid AS uid, m.text AS text, m.user AS user, m.sid AS sid, m.no AS no,
       word_place, meaning_place,
       CASE WHEN m.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(m.embedding, $vector) END AS similarity
"""
MESSAGES_OF_TENANT = MESSAGES.replace(" AND hit.user = $user LIMIT", " LIMIT")


@cypher.bounded_read("search")
def search_everything(scope: Scope, *, q: str, kinds: tuple[str, ...], limit: int,
                      user: str | None = None) -> dict:  # fmt: skip
    """{"results": one ranked list of at most `limit`, "omitted": kinds not searched and why}.
    The caller has validated q, kinds and limit (services.check_search)."""
    vector = embed_one(q)
    found: dict[str, list[dict]] = {}
    omitted: list[dict] = []
    if "passages" in kinds:
        found["passages"] = _passages(scope, q, vector, limit)
    if "entities" in kinds:
        found["entities"] = _entities(scope, q, limit)
    if "messages" in kinds:
        found["messages"] = _messages(scope, q, vector, user)
    if "entries" in kinds:
        found["entries"] = _entries(scope, q, vector, limit)
    if "facts" in kinds:
        if user:
            found["facts"] = _facts(scope, q, user, limit)
        else:
            omitted.append({"part": "facts", "count": 0,
                            "reason": "facts are a user's: pass user"})  # fmt: skip
    if "arguments" in kinds:
        found["arguments"] = _arguments(scope, q, limit)
    rankings: dict[str, list[str]] = {}
    items: dict[str, dict] = {}
    for kind, results in found.items():
        for item in results:
            key = f"{kind}:{item['uid']}"
            items[key] = item
            for ranking, place in item["ranks"].items():
                rankings.setdefault(f"{kind} {ranking}", []).append((place, key))
    ordered = {name: [key for _, key in sorted(places)] for name, places in rankings.items()}
    results = []
    for fused in rrf_fuse(ordered)[:limit]:
        item = items[fused["uid"]]
        item["score"] = round(fused["score"], 5)
        item["placed"] = ", ".join(f"{name} #{place}" for name, place in item["ranks"].items())
        results.append(item)
    return {"results": results, "omitted": omitted}


def snippet(text: str, q: str) -> str:
    """At most SNIPPET_CHARS of `text`, around the first of the query's words it holds."""
    text = " ".join((text or "").split())
    if len(text) <= SNIPPET_CHARS:
        return text
    words = [w for w in re.findall(r"\w+", q.lower()) if len(w) > 2]
    at = min((i for i in (text.lower().find(w) for w in words) if i >= 0), default=0)
    start = max(0, at - SNIPPET_CHARS // 3)
    cut = text[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + cut + ("…" if start + SNIPPET_CHARS < len(text) else "")


def _passages(scope, q, vector, limit) -> list[dict]:
    found = cypher.read_unit(scope, lambda stx: do_passages_find(stx, text=q, vector=vector,
                                                                 limit=limit))  # fmt: skip
    return [
        {"kind": "passage", "uid": p["uid"], "snippet": snippet(p["text"], q),
         "source": {"uid": p["document"]["uid"], "title": p["document"]["title"],
                    "kind": "document", "section_path": p["section_path"],
                    "start": p["start"], "end": p["end"]},
         "ranks": p["ranks"]}
        for p in found["passages"]
    ]  # fmt: skip


def _entities(scope, q, limit) -> list[dict]:
    return [
        {"kind": "entity", "uid": e["uid"], "snippet": snippet(
            f"{e['name']} ({e['type']})" + (f": {e['description']}" if e["description"] else "")
            + "".join(f"; possibly the same as {t['name']} (P={t['p']:.2f}, pending review)"
                      for t in e.get("twins", ())),
            q), "source": {"uid": e["uid"], "title": e["name"], "kind": "entity"},
         "ranks": e["ranks"], "twins": e.get("twins", [])}
        for e in entities_search(scope, q=q, limit=limit)
    ]  # fmt: skip


def _messages(scope, q, vector, user) -> list[dict]:
    terms = fulltext_terms(q, content_only=True)
    lucene = user_words_query(scope.tenant, user, terms) or None if user else None
    query = MESSAGES if user else MESSAGES_OF_TENANT
    rows = cypher.read(scope, query, lucene=lucene, vector=vector, user=user, depth=DEPTH)
    kept = [r for r in rows if r["word_place"] is not None
            or (r["similarity"] or 0) >= MESSAGE_FLOOR]  # fmt: skip
    by_meaning = sorted((r for r in kept if r["similarity"] is not None),
                        key=lambda r: -r["similarity"])  # fmt: skip
    words = sorted((r for r in kept if r["word_place"] is not None), key=lambda r: r["word_place"])
    places: dict[str, dict] = {}
    for name, ranking in (("words", words), ("meaning", by_meaning)):
        for place, r in enumerate(ranking, start=1):
            places.setdefault(r["uid"], {})[name] = place
    return [
        {"kind": "message", "uid": r["uid"], "snippet": snippet(r["text"], q),
         "source": {"uid": r["uid"], "title": f"{r['user']} · {r['sid']} #{r['no']}",
                    "kind": "session", "user": r["user"], "sid": r["sid"], "no": r["no"]},
         "ranks": places[r["uid"]]}
        for r in kept
    ]  # fmt: skip


def _entries(scope, q, vector, limit) -> list[dict]:
    found = cypher.read_unit(scope, lambda stx: do_entries_find(stx, text=q, vector=vector,
                                                                limit=limit))  # fmt: skip
    return [
        {"kind": "entry", "uid": e["uid"], "snippet": snippet(e["text"], q),
         "source": {"uid": e["episode"]["uid"], "title": e["episode"]["title"],
                    "kind": "episode", "type": e["type"], "seq": e["seq"]},
         "ranks": e["ranks"]}
        for e in found["entries"]
    ]  # fmt: skip


def _facts(scope, q, user, limit) -> list[dict]:
    rows = knowledge_search(scope, user=user, query=q, limit=limit)
    return [
        {"kind": "fact", "uid": f"{r['from']}-{r['relation']}-{r['to']}",
         "snippet": f"{r['from']} -{r['relation']}-> {r['to']} (weight {r['weight']}, "
                    f"confidence {r['confidence']})",
         "source": {"uid": user, "title": f"knowledge of {user}", "kind": "knowledge",
                    "user": user},
         "ranks": {"weight then heat": place}}
        for place, r in enumerate(rows, start=1)
    ]  # fmt: skip


def _arguments(scope, q, limit) -> list[dict]:
    return [
        {"kind": "argument", "uid": a["uid"], "snippet": snippet(f"{a['kind']}: {a['text']}", q),
         "source": {"uid": a["document_uid"], "title": a["document_title"], "kind": "document",
                    "chunk_uid": a["chunk_uid"], "about": a["about"]},
         "ranks": {"words": place}}
        for place, a in enumerate(arguments_find(scope, q=q, limit=limit), start=1)
    ]  # fmt: skip
