"""Graph data for the review tests, built through the ingestion and resolution services: each
text is a document whose chunk and resolved candidates are written in one transaction."""

from __future__ import annotations

from apps.graph import cypher
from apps.resolution.candidates import (
    EntityCandidate,
    MentionSpan,
    RelationCandidate,
)
from tests.chunks import chunk_ingest

ANTHROPIC = "An AI safety company that builds the Claude family of language models."


def ingest(scope, text: str, entities, relations=(), *, title: str = "a document"):
    """One chunk of `text` with its candidates, written as the pipeline writes a chunk (see
    tests/chunks.py); each mention span is the first place its name stands in the text."""
    spans = []
    for c in entities:
        start = text.find(c.name)
        spans.append(
            EntityCandidate(
                c.name, c.type, aliases=c.aliases, description=c.description, values=c.values,
                mentions=() if start < 0 else (MentionSpan(c.name, start, start + len(c.name)),),
            )
        )  # fmt: skip
    return chunk_ingest(scope, text, spans, relations, title=title)[1]


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
