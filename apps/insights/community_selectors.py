"""Reads of the stored communities (apps/insights/communities.py): the list, one community
with its members, passages, documents and fusion candidates, and the global answer to a broad
question. Only a complete refresh is read; all of it is the tenant's.

Fusion, as this project scopes it: a community is where entities the gate could not decide on
meet. Its fusion candidates are the pending SAME_AS pairs with both ends among its members,
read when asked (so a reviewer's decision shows at once), for the reviewer to confirm or
reject on the review pages; and the documents it draws from are the cross-document links it
makes. Nothing is merged here."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.embeddings import embed_one
from apps.graph.scope import Scope

MAX_MEMBERS = 50
MAX_DOCUMENTS = 50
MAX_FUSION = 50
MAX_ANSWER = 10
MAX_QUESTION_CHARS = 500

FIELDS = """c {.uid, .name, .size, .summary, .summary_source, .relation_types, .position,
               .run, .level, created_at: toString(c.created_at),
               documents: COUNT { (c)-[:DRAWS_FROM]->() }}"""
LIST = (
    """
MATCH (c:Community {tenant: $tenant}) WHERE c.complete
WITH c ORDER BY c.position, c.uid
WITH collect(c) AS found
UNWIND found[$offset..$offset + $limit] AS c
RETURN size(found) AS total, """
    + FIELDS
    + """ AS community
"""
)
TOTAL = "MATCH (c:Community {tenant: $tenant}) WHERE c.complete RETURN count(c) AS total"
DETAIL = (
    """
MATCH (c:Community {tenant: $tenant, uid: $uid}) WHERE c.complete
RETURN """
    + FIELDS
    + """ AS community,
  COLLECT { MATCH (e:Entity {tenant: $tenant})-[m:IN_COMMUNITY]->(c)
            RETURN e {.uid, .name, .type, rank: m.rank, score: m.score}
            ORDER BY m.rank LIMIT $members } AS members,
  COLLECT { MATCH (c)-[:SUMMARISES]->(ch:Chunk {tenant: $tenant})
            RETURN ch {.uid, .document_uid, .text} ORDER BY ch.uid } AS passages,
  COLLECT { MATCH (c)-[r:DRAWS_FROM]->(d:Document {tenant: $tenant})
            RETURN d {.uid, .title, .source, chunks: r.chunks}
            ORDER BY r.chunks DESC, d.uid LIMIT $documents } AS documents,
  COLLECT { MATCH (a:Entity {tenant: $tenant})-[:IN_COMMUNITY]->(c)
            MATCH (a)-[s:SAME_AS {tenant: $tenant, status: 'pending'}]->(b:Entity {tenant: $tenant})
            WHERE EXISTS { (b)-[:IN_COMMUNITY]->(c) }
            RETURN {uid: s.uid, score: s.score, a: a {.uid, .name}, b: b {.uid, .name}}
            ORDER BY s.score DESC, s.uid LIMIT $fusion } AS fusion
"""
)
ANSWER = (
    """
MATCH (c:Community {tenant: $tenant}) WHERE c.complete AND c.embedding IS NOT NULL
WITH c, vector.similarity.cosine(c.embedding, $vector) AS score
ORDER BY score DESC, c.uid LIMIT $limit
RETURN score, """
    + FIELDS
    + """ AS community
"""
)


def communities_list(scope: Scope, *, limit: int = 20, offset: int = 0) -> dict:
    """The tenant's communities of its last complete refresh, largest first: {total,
    communities: [{uid, name, size, summary, summary_source, relation_types, documents, ...}]}."""
    rows = cypher.read(scope, LIST, limit=limit, offset=offset)
    if rows:
        total = rows[0]["total"]
    else:
        total = cypher.read(scope, TOTAL)[0]["total"] if offset else 0
    return {"total": total, "communities": [r["community"] for r in rows]}


def community_detail(scope: Scope, *, uid: str) -> dict | None:
    """One community with its most central members, the passages its summary quotes, the
    documents it draws from (most chunks first) and its fusion candidates; None when the tenant
    has no such community."""
    rows = cypher.read(scope, DETAIL, uid=uid, members=MAX_MEMBERS, documents=MAX_DOCUMENTS,
                       fusion=MAX_FUSION)  # fmt: skip
    if not rows:
        return None
    row = rows[0]
    return {**row["community"], "members": row["members"], "passages": row["passages"],
            "document_list": row["documents"], "fusion_candidates": row["fusion"]}  # fmt: skip


def communities_answer(scope: Scope, *, q: str, limit: int = 3) -> dict:
    """The global answer to a broad question: the `limit` community summaries nearest the
    question's vector (cosine), best first, and their summaries joined as the answer's text.
    Bounded: a tenant keeps at most MAX_COMMUNITIES communities (communities.py)."""
    rows = cypher.read(scope, ANSWER, vector=embed_one(q), limit=min(limit, MAX_ANSWER))
    found = [{**r["community"], "score": round(r["score"], 6)} for r in rows]
    return {"question": q, "communities": found,
            "answer": "\n\n".join(f"{c['name']}: {c['summary']}" for c in found)}  # fmt: skip


def communities_last_job(scope: Scope):
    """The tenant's latest refresh job (a Job row), or None."""
    from apps.insights.communities import JOB_KIND
    from apps.tenants.models import Job

    return (Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND)
            .order_by("-created_at").first())  # fmt: skip
