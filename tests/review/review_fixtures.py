"""Graph data for the review tests, built through the resolution services: each text unit writes
its Document and Chunk and resolves its candidates in one transaction, as ingestion does."""

from __future__ import annotations

import uuid

from apps.graph import cypher
from apps.resolution.candidates import (
    EntityCandidate,
    MentionSpan,
    Provenance,
    RelationCandidate,
)
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.gate import candidates_embed

ANTHROPIC = "An AI safety company that builds the Claude family of language models."

CHUNK_WRITE = """
MERGE (d:Document {tenant: $tenant, uid: $doc})
ON CREATE SET d.source = 'test', d.title = $title, d.created_at = datetime()
CREATE (c:Chunk {tenant: $tenant, uid: $chunk, text: $text, created_at: datetime()})
CREATE (c)-[:PART_OF]->(d)
"""


def ingest(scope, text: str, entities, relations=(), *, title: str = "a document"):
    """Write one chunk of `text` with its candidates; mention spans are found in the text."""
    spans = []
    for c in entities:
        start = text.find(c.name)
        spans.append(
            EntityCandidate(
                c.name, c.type, aliases=c.aliases, description=c.description, values=c.values,
                mentions=() if start < 0 else (MentionSpan(c.name, start, start + len(c.name)),),
            )
        )  # fmt: skip
    embedded = candidates_embed(spans)
    doc, chunk = uuid.uuid4().hex, uuid.uuid4().hex

    def unit(stx):
        stx.run(CHUNK_WRITE, doc=doc, chunk=chunk, text=text, title=title)
        return do_resolve_and_write(
            stx,
            entities=embedded,
            relations=list(relations),
            provenance=Provenance(agent="agent:test", document_uid=doc, chunk_uid=chunk),
        )

    return cypher.write_unit(scope, unit)


def pending_pairs(scope):
    return cypher.read(
        scope,
        "MATCH (a:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]->(b:Entity) "
        "RETURN s.uid AS uid, a.name AS a, b.name AS b ORDER BY a, b",
    )


CLAUDE = {"url": "https://claude.ai"}  # the evidence beyond its name that merges Claude


def anthropic_pair(scope):
    """Anthropic (with Claude, Dario) and a later 'Anthropic AI' proposed against it; Claude is
    named in both with its web address, so it is one entity."""
    first = ingest(
        scope,
        "Anthropic builds Claude. Dario Amodei leads Anthropic.",
        [EntityCandidate("Anthropic", "Organization", description=ANTHROPIC),
         EntityCandidate("Claude", "Object", description="A family of language models.",
                         values=CLAUDE),
         EntityCandidate("Dario Amodei", "Person", description="Chief executive of Anthropic.")],
        [RelationCandidate(0, "BUILDS", 1, confidence=0.8),
         RelationCandidate(2, "LEADS", 0, confidence=0.9)],
        title="about Anthropic",
    )  # fmt: skip
    second = ingest(
        scope,
        "Anthropic AI builds Claude. Google invested in Anthropic AI.",
        [EntityCandidate("Anthropic AI", "Organization", description=ANTHROPIC),
         EntityCandidate("Claude", "Object", values=CLAUDE),
         EntityCandidate("Google", "Organization", description="A search and ads company.")],
        [RelationCandidate(0, "BUILDS", 1, confidence=0.4),
         RelationCandidate(2, "INVESTED_IN", 0, confidence=0.7)],
        title="about Anthropic AI",
    )  # fmt: skip
    assert second[0].action == "pending", second[0].reason
    return first, second
