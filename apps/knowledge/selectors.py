"""Reading promoted knowledge: the neighbourhood of what a question names, and a user's graph.

Retrieval starts at the user's nodes whose names match the question (full-text index), walks one or
two facts in either direction, keeps only paths whose every fact has confidence >= 0.5 (a weak fact
is invisible, also as a step), and orders the facts by weight, then heat: 50 at most.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.fulltext import fulltext_terms, scoped_query
from apps.graph.scope import Scope

MIN_CONFIDENCE = 0.5
MAX_FACTS = 50
MAX_START_NODES = 10

NEIGHBOURHOOD = """
CALL db.index.fulltext.queryNodes('knowledge_names', $lucene) YIELD node, score
WITH node, score WHERE node.tenant = $tenant AND node.user = $user
WITH node ORDER BY score DESC LIMIT $starts
MATCH p = (node)-[:FACT*1..2]-(:Knowledge)
WHERE all(r IN relationships(p) WHERE r.confidence >= $min_confidence)
UNWIND relationships(p) AS r
WITH DISTINCT r
RETURN startNode(r).key AS from, startNode(r).label AS from_label, r.relation AS relation,
       endNode(r).key AS to, endNode(r).label AS to_label, r.weight AS weight,
       r.confidence AS confidence, r.nuance AS nuance, r.heat AS heat, r.messages AS messages
ORDER BY r.weight DESC, r.heat DESC, from, to LIMIT $limit
"""

# The same rule for a prompt's context (conversations.context), in one round trip: the start
# nodes are those named by a content word of the question (the relevance floor: a question that
# names none of the user's nodes gets no fact), and the answer also counts the facts next to
# them that the confidence rule hid.
FACTS_FOR_CONTEXT = """
CALL db.index.fulltext.queryNodes('knowledge_names', $lucene, {limit: $depth}) YIELD node, score
WITH node, score WHERE node.tenant = $tenant AND node.user = $user
WITH node ORDER BY score DESC LIMIT $starts
WITH collect(node) AS starts
CALL (starts) {
  UNWIND starts AS node
  MATCH p = (node)-[:FACT*1..2]-(:Knowledge)
  WHERE all(r IN relationships(p) WHERE r.confidence >= $min_confidence)
  UNWIND relationships(p) AS r
  WITH DISTINCT r
  ORDER BY r.weight DESC, r.heat DESC, startNode(r).key, endNode(r).key
  RETURN collect({from: startNode(r).key, from_name: startNode(r).name, relation: r.relation,
                  to: endNode(r).key, to_name: endNode(r).name, weight: r.weight,
                  confidence: r.confidence, heat: r.heat, nuance: r.nuance,
                  messages: coalesce(r.messages, [])[..5],
                  last_seen: toString(r.last_seen)}) AS facts
}
CALL (starts) {
  UNWIND starts AS node
  OPTIONAL MATCH (node)-[w:FACT]-(:Knowledge) WHERE w.confidence < $min_confidence
  RETURN count(DISTINCT w) AS weak
}
RETURN facts, weak
"""

GRAPH = """
MATCH (a:Knowledge {tenant: $tenant, user: $user})-[r:FACT]->(b:Knowledge)
RETURN a.key AS from, a.label AS from_label, r.relation AS relation, b.key AS to,
       b.label AS to_label, r.weight AS weight, r.confidence AS confidence, r.nuance AS nuance,
       r.heat AS heat, size(r.messages) AS messages, toString(r.last_seen) AS last_seen
ORDER BY r.weight DESC, r.heat DESC, from, to LIMIT $limit
"""

USERS = """
MATCH (k:Knowledge {tenant: $tenant})
RETURN k.user AS user, count(k) AS nodes ORDER BY user LIMIT $limit
"""


def knowledge_search(scope: Scope, *, user: str, query: str, limit: int = MAX_FACTS) -> list[dict]:
    """Facts within two hops of the user's nodes named in `query`, strongest first."""
    terms = fulltext_terms(query.replace("_", " "))
    if not terms:
        return []
    return cypher.read(
        scope,
        NEIGHBOURHOOD,
        lucene=scoped_query(terms, ("name",), tenant=scope.tenant, user=user),
        user=user,
        starts=MAX_START_NODES,
        min_confidence=MIN_CONFIDENCE,
        limit=max(1, min(limit, MAX_FACTS)),
    )


def do_knowledge_facts_find(stx: ScopedTx, *, user: str, text: str, limit: int) -> dict:
    """{"facts": the user's facts for `text` (the rule above, start nodes named by a content
    word of it), at most `limit`, strongest first; "below_floor": facts next to those nodes that
    confidence < 0.5 hides; "beyond_limit": facts cut by `limit`}. Runs in the caller's read
    transaction."""
    terms = fulltext_terms(text.replace("_", " "), content_only=True)
    if not terms:
        return {"facts": [], "below_floor": 0, "beyond_limit": 0}
    lucene = scoped_query(terms, ("name",), tenant=stx.scope.tenant, user=user)
    row = stx.run(FACTS_FOR_CONTEXT, lucene=lucene, user=user, depth=MAX_START_NODES * 20,
                  starts=MAX_START_NODES, min_confidence=MIN_CONFIDENCE)[0]  # fmt: skip
    facts = row["facts"]
    return {"facts": facts[:limit], "below_floor": row["weak"],
            "beyond_limit": max(0, len(facts) - limit)}  # fmt: skip


def knowledge_graph(scope: Scope, *, user: str, limit: int = 300) -> list[dict]:
    """Every promoted fact of one user (weak ones too, for the reviewer), strongest first."""
    return cypher.read(scope, GRAPH, user=user, limit=limit)


def knowledge_users(scope: Scope, *, limit: int = 200) -> list[dict]:
    return cypher.read(scope, USERS, limit=limit)
