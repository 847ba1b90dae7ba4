"""Conversations: sessions of a user, messages in order, summaries, reasoning traces.

(:Session {user, sid, last_no, last_at})            one per (tenant, user, sid)
(:Message {user, sid, no, role, text, by, at, embedding, mention_names})-[:IN_SESSION]->(:Session)
(:Message)-[:NEXT]->(:Message)                     in number order, gap-free
(:Message)-[:MENTIONS]->(:Entity)                  known entities only; other names stay on the message
(:MessageToEmbed)                                  extra label of a message still without a vector
(:Summary {user, sid, upto, text, by})-[:SUMMARIZES]->(:Session)   at most one per session
(:ReasoningTrace {user, sid, steps})-[:FOR_MESSAGE]->(:Message)     the message that asked
(:ReasoningTrace)-[:TOUCHED {kind, rank}]->(:Message|:Entity|:Summary|:ReasoningTrace|:Chunk)
(:MessageImportChunk {job, user, sid, seq, count, rows})    messages of an import still to write

A message is found by its key (tenant, user, sid, no), so reading the last N costs the same in a
session of 20 messages or of 20,000.
"""

from neomodel import (
    ArrayProperty,
    DateTimeProperty,
    FloatProperty,
    IntegerProperty,
    JSONProperty,
    StringProperty,
)

from apps.graph.nodes.tenancy import TenantNode


class Session(TenantNode):
    user = StringProperty(required=True)
    sid = StringProperty(required=True)
    last_no = IntegerProperty(default=0)
    last_at = DateTimeProperty()


class Message(TenantNode):
    user = StringProperty(required=True)
    sid = StringProperty(required=True)
    no = IntegerProperty(required=True)
    role = StringProperty(required=True)
    text = StringProperty(required=True)
    by = StringProperty()
    at = DateTimeProperty()
    embedding = ArrayProperty(FloatProperty())
    mention_names = ArrayProperty(StringProperty(), default=list)
    owner_key = StringProperty()


class Summary(TenantNode):
    user = StringProperty(required=True)
    sid = StringProperty(required=True)
    upto = IntegerProperty(required=True)
    text = StringProperty(required=True)
    by = StringProperty()


class ReasoningTrace(TenantNode):
    user = StringProperty(required=True)
    sid = StringProperty(required=True)
    steps = JSONProperty()


class MessageImportChunk(TenantNode):
    job = StringProperty(required=True)
    user = StringProperty(required=True)
    sid = StringProperty(required=True)
    seq = IntegerProperty(required=True)
    count = IntegerProperty(required=True)
    rows = StringProperty(required=True)  # JSON: the checked messages, in order


# The message index's HNSW graph: Neo4j's defaults, cheap to insert into (a denser graph, 32
# links and 200 candidates, made the worker's embedding of a batch 1.6x the model alone instead of
# 1.1x). A context call compares exactly inside the index for users up to
# settings.CONTEXT_EXACT_SCAN_MESSAGES, so the graph's walk (which misses messages whose
# neighbours are all other users' near-alike ones) serves only longer histories (see README).
MESSAGE_HNSW_M = 16
MESSAGE_HNSW_EF_CONSTRUCTION = 100
# Options an existing index must have; one made before with others is made again.
SCHEMA_OPTIONS = {
    "message_text": {"fulltext.eventually_consistent": True},
    "message_embedding": {
        "vector.quantization.enabled": False,
        "vector.hnsw.m": MESSAGE_HNSW_M,
        "vector.hnsw.ef_construction": MESSAGE_HNSW_EF_CONSTRUCTION,
    },
}
# Properties an existing index must cover; one made before with others is made again.
SCHEMA_PROPERTIES = {"message_embedding": ["embedding", "tenant", "user"]}

SCHEMA = [
    "CREATE CONSTRAINT session_key IF NOT EXISTS "
    "FOR (s:Session) REQUIRE (s.tenant, s.user, s.sid) IS UNIQUE",
    "CREATE CONSTRAINT message_key IF NOT EXISTS "
    "FOR (m:Message) REQUIRE (m.tenant, m.user, m.sid, m.no) IS UNIQUE",
    "CREATE CONSTRAINT summary_key IF NOT EXISTS "
    "FOR (s:Summary) REQUIRE (s.tenant, s.user, s.sid) IS UNIQUE",
    "CREATE INDEX message_tenant_user IF NOT EXISTS FOR (m:Message) ON (m.tenant, m.user)",
    "CREATE INDEX session_tenant_user IF NOT EXISTS FOR (s:Session) ON (s.tenant, s.user)",
    "CREATE INDEX trace_tenant_user IF NOT EXISTS FOR (t:ReasoningTrace) ON (t.tenant, t.user)",
    "CREATE INDEX message_to_embed IF NOT EXISTS FOR (m:MessageToEmbed) ON (m.tenant)",
    "CREATE INDEX message_import_job IF NOT EXISTS FOR (c:MessageImportChunk) ON (c.tenant, c.job)",
    "CREATE INDEX message_import_user IF NOT EXISTS "
    "FOR (c:MessageImportChunk) ON (c.tenant, c.user)",
    "CREATE INDEX write_failure_subject IF NOT EXISTS "
    "FOR (f:WriteFailure) ON (f.tenant, f.subject_user)",
    # owner_key (a hash of tenant and user) lets the index itself keep to one user's messages.
    # Eventually consistent: an append's commit does not wait for Lucene (about 7 ms here); a
    # search waits for the index to catch up instead (see conversations.selectors).
    "CREATE FULLTEXT INDEX message_text IF NOT EXISTS FOR (m:Message) ON EACH [m.text, m.owner_key] "
    "OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}",
    # Filtered by tenant and user inside the index (Neo4j 2026's filtered vector search).
    "CYPHER 25 CREATE VECTOR INDEX message_embedding IF NOT EXISTS FOR (m:Message) "
    "ON m.embedding WITH [m.tenant, m.user] "
    "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false, "
    f"`vector.hnsw.m`: {MESSAGE_HNSW_M}, "
    f"`vector.hnsw.ef_construction`: {MESSAGE_HNSW_EF_CONSTRUCTION}}}}}",
]
