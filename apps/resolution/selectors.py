"""Reads about entities: search by words and meaning, and one entity with what the graph knows.

Each is one Cypher round trip (plus the query's embedding for search), whatever the entity's size.
"""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.fulltext import entity_words_query, fulltext_terms
from apps.graph.rank_fusion import rrf_fuse
from apps.graph.scope import Scope
from apps.resolution.entity_values import values_load, values_rows
from apps.resolution.twin_reads import twins_from_pending, with_twins

ENTITY_FIELDS = ("uid", "name", "type", "aliases", "description")
SEARCH_HITS = 100  # how deep each index is read (inside the tenant and type) before fusion
# An entity found by meaning alone is given from this similarity (Neo4j's cosine, (1 + cos) / 2)
# up; below it the meaning search only pads. On hand-picked names (all-MiniLM-L6-v2): "okaf" is
# 0.75-0.76 from each Okafor and at most 0.60 from the tenant's other entities; "When is my
# meeting with Maria?" 0.60 from Ada Lovelace; "Where can I see stars with a big lens?" 0.70
# from an observatory described by its telescopes. Found by words, an entity needs no floor.
ENTITY_MEANING_FLOOR = 0.66
DETAIL_RELATIONS = 100
DETAIL_MENTIONS = 50
DETAIL_PENDING = 50

# Each index's places, fused in Python by the one rank fusion (apps.graph.rank_fusion).
_RANKED_FIELDS = """
RETURN node.uid AS uid, node.name AS name, node.type AS type, coalesce(node.aliases, []) AS aliases,
       coalesce(node.description, '') AS description, rank, via, score
ORDER BY via, rank
"""

# Tenant, type and status are filters inside both indexes (see graph.nodes.entities).
# A SEARCH binds a name used nowhere else in the query (Neo4j 2026.01 fails otherwise). A filtered
# vector search states each of its filters, so the search with a type is a text of its own.
_RANKED_VECTOR = """
  MATCH (hit:Entity)
    SEARCH hit IN (VECTOR INDEX entity_embedding FOR $embedding
                   WHERE hit.tenant = $tenant AND hit.status = 'active' LIMIT $hits)
    SCORE AS score
  WITH hit, score ORDER BY score DESC
  WITH collect({n: hit, s: score}) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  RETURN nodes[i].n AS node, i + 1 AS rank, 'meaning' AS via, nodes[i].s AS score
"""
_RANKED_VECTOR_TYPED = _RANKED_VECTOR.replace(
    "hit.status = 'active' LIMIT", "hit.status = 'active' AND hit.type = $type LIMIT"
)

_RANKED_WORDS = """
  CALL db.index.fulltext.queryNodes('entity_names', $words, {limit: $hits}) YIELD node, score
  WITH node, score WHERE node.tenant = $tenant
  WITH collect({n: node, s: score}) AS nodes
  UNWIND range(0, size(nodes) - 1) AS i
  RETURN nodes[i].n AS node, i + 1 AS rank, 'words' AS via, nodes[i].s AS score
  UNION ALL"""

# (by words too, with a type) -> the query
SEARCHES = {
    (words, typed): "CYPHER 25\nCALL () {"
    + (_RANKED_WORDS if words else "")
    + (_RANKED_VECTOR_TYPED if typed else _RANKED_VECTOR)
    + "}"
    + _RANKED_FIELDS
    for words in (True, False)
    for typed in (True, False)
}

BROWSE = """
MATCH (e:Entity {tenant: $tenant})
WHERE e.status = 'active' AND ($type IS NULL OR e.type = $type)
RETURN e.uid AS uid, e.name AS name, e.type AS type, coalesce(e.aliases, []) AS aliases,
       coalesce(e.description, '') AS description, null AS score, [] AS via
ORDER BY e.updated_at DESC, e.name LIMIT $limit
"""

DETAIL = """
MATCH (e:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK e:Entity(uid)
RETURN e.uid AS uid, e.name AS name, e.type AS type, coalesce(e.aliases, []) AS aliases,
       coalesce(e.description, '') AS description, e.status AS status,
       coalesce(e.absorbed_descriptions, []) AS absorbed_descriptions,
       e.values_json AS values_json, e.value_conflicts_json AS value_conflicts_json,
       toString(e.created_at) AS created_at, toString(e.recorded_at) AS recorded_at,
       toString(e.updated_at) AS updated_at,
  COLLECT {
    MATCH (e)-[r:RELATED_TO]-(o:Entity {tenant: $tenant})
    RETURN {uid: r.uid, predicate: r.predicate,
            direction: CASE WHEN startNode(r) = e THEN 'out' ELSE 'in' END,
            weight: r.weight, confidence: r.confidence, nuance: coalesce(r.nuance, ''),
            first_seen: toString(r.first_seen), last_seen: toString(r.last_seen),
            other: {uid: o.uid, name: o.name, type: o.type}}
    ORDER BY r.weight DESC, r.confidence DESC, o.name LIMIT $relations
  } AS relations,
  COLLECT {
    MATCH (c:Chunk {tenant: $tenant})-[m:MENTIONS]->(e)
    OPTIONAL MATCH (c)-[:PART_OF]->(d:Document {tenant: $tenant})
    RETURN {surface: m.surface, start: m.start, end: m.end, chunk_uid: c.uid, text: c.text,
            document_uid: d.uid, document_title: coalesce(d.title, d.source, '')}
    ORDER BY c.created_at DESC, c.uid, m.start LIMIT $mentions
  } AS mentions,
  COLLECT {
    MATCH (e)-[s:SAME_AS {status: 'pending'}]-(o:Entity {tenant: $tenant})
    RETURN {uid: s.uid, score: s.score, signals: s.signals, reason: s.reason,
            evidence: s.evidence, created_at: toString(s.created_at),
            other: {uid: o.uid, name: o.name, type: o.type}}
    ORDER BY s.score DESC LIMIT $pending
  } AS pending
"""


@cypher.bounded_read("entity search")
def entities_search(scope: Scope, *, q: str = "", type: str | None = None, limit: int = 20):
    """Active entities whose names match `q`'s words or whose embedding is near its meaning
    (from ENTITY_MEANING_FLOOR up), fused by reciprocal rank; without `q`, the most recently
    updated. Each result says how each ranking placed it (`ranks`: {"words": 2, ...}).
    Possible twins are shown once, the other side under the item (`twins`, twin_reads)."""
    q = q.strip()
    if not q:
        return with_twins(scope, cypher.read(scope, BROWSE, type=type, limit=limit))
    words = entity_words_query(scope.tenant, fulltext_terms(q, fuzzy=True), type=type)
    embedding = get_embedder().embed([q])[0]
    rows = cypher.read(
        scope,
        SEARCHES[(bool(words), type is not None)],
        words=words,
        embedding=embedding,
        type=type,
        hits=SEARCH_HITS,
    )
    rankings: dict[str, list[str]] = {}
    for row in rows:  # ordered by index, then place
        if row["via"] == "meaning" and row["score"] < ENTITY_MEANING_FLOOR:
            continue
        rankings.setdefault(row["via"], []).append(row["uid"])
    fields = {row["uid"]: row for row in rows}
    return with_twins(scope, [
        {
            **{key: fields[item["uid"]][key] for key in ENTITY_FIELDS},
            "score": item["score"],
            "via": sorted(item["ranks"]),
            "ranks": item["ranks"],
        }
        for item in rrf_fuse(rankings)[:limit]
    ])  # fmt: skip


def entity_detail(scope: Scope, *, uid: str) -> dict | None:
    """One entity of the caller's tenant with its values (and values kept in conflict), relations
    (heaviest first), mentions (the chunk text and the document they came from) and pending
    SAME_AS pairs; None if not in this tenant."""
    rows = cypher.read(
        scope,
        DETAIL,
        uid=uid,
        relations=DETAIL_RELATIONS,
        mentions=DETAIL_MENTIONS,
        pending=DETAIL_PENDING,
    )
    if not rows:
        return None
    entity = rows[0]
    entity["values"] = values_load(entity.pop("values_json"))
    entity["value_conflicts"] = values_load(entity.pop("value_conflicts_json"))
    entity["value_rows"] = values_rows(entity["values"], entity["value_conflicts"])
    for pair in entity["pending"]:
        pair["signals"] = json.loads(pair["signals"]) if pair["signals"] else {}
    entity["twins"] = twins_from_pending(entity["pending"])
    for pair in entity["pending"]:
        pair.pop("evidence")
    return entity
