"""Reads of the argument components documents state: a document's, in reading order (its page
and GET /api/v1/documents/{uid}), and the tenant's by words (GET /api/v1/search, kind
"argument")."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.fulltext import fulltext_terms, scoped_query
from apps.graph.scope import Scope

DOCUMENT_ARGUMENTS = """
MATCH (a:Argument {tenant: $tenant, document_uid: $uid})
OPTIONAL MATCH (a)-[:ABOUT]->(e:Entity {tenant: $tenant})
WITH a, collect(DISTINCT e {.uid, .name, .type}) AS about
RETURN a.uid AS uid, a.kind AS kind, a.text AS text, a.chunk_uid AS chunk_uid,
       a.position AS position, a.start AS start, a.end AS end, a.section_path AS section_path,
       a.agent AS agent, toString(a.created_at) AS created_at, about
ORDER BY a.position, a.start
LIMIT $limit
"""
ARGUMENTS_FIND = """
CALL db.index.fulltext.queryNodes('argument_text', $lucene, {limit: $depth})
YIELD node, score
WITH node AS a, score WHERE a.tenant = $tenant
MATCH (d:Document {tenant: $tenant, uid: a.document_uid}) USING INDEX SEEK d:Document(uid)
OPTIONAL MATCH (a)-[:ABOUT]->(e:Entity {tenant: $tenant})
WITH a, d, score, collect(DISTINCT e.name) AS about
RETURN a.uid AS uid, a.kind AS kind, a.text AS text, a.chunk_uid AS chunk_uid, about,
       d.uid AS document_uid, coalesce(d.title, d.source) AS document_title
ORDER BY score DESC
LIMIT $limit
"""


def document_arguments(scope: Scope, *, uid: str, limit: int = 200) -> list[dict]:
    return cypher.read(scope, DOCUMENT_ARGUMENTS, uid=uid, limit=limit)


def arguments_find(scope: Scope, *, q: str, limit: int = 20) -> list[dict]:
    """The tenant's argument components holding the words of `q`, best first."""
    lucene = scoped_query(fulltext_terms(q, content_only=True), ("text",), tenant=scope.tenant)
    if not lucene:
        return []
    return cypher.read(scope, ARGUMENTS_FIND, lucene=lucene, depth=max(40, limit), limit=limit)
