"""Documents agents send and the chunks they are split into."""

from neomodel import ArrayProperty, FloatProperty, IntegerProperty, JSONProperty, StringProperty

from apps.graph.nodes.tenancy import TenantNode


class Document(TenantNode):
    """An agent's document, kept whole with its source; unique per tenant by URL and by hash."""

    source = StringProperty(required=True)
    content = StringProperty()
    title = StringProperty()
    url = StringProperty(index=True)
    content_hash = StringProperty(index=True)
    metadata = JSONProperty()
    agent = StringProperty()


class Chunk(TenantNode):
    """(:Chunk)-[:PART_OF]->(:Document), (:Chunk)-[:NEXT]->(:Chunk),
    (:Chunk)-[:MENTIONS {surface, start, end}]->(:Entity)."""

    text = StringProperty(required=True)
    content_hash = StringProperty(index=True)
    document_uid = StringProperty(index=True)
    position = IntegerProperty()
    start = IntegerProperty()  # offsets into the document's content
    end = IntegerProperty()
    agent = StringProperty()
    section_path = ArrayProperty(StringProperty())
    embedding = ArrayProperty(FloatProperty())


SCHEMA_OPTIONS = {"chunk_embedding": {"vector.quantization.enabled": False}}
SCHEMA_PROPERTIES = {"chunk_embedding": ["embedding", "tenant"], "chunk_text": ["text", "tenant"],
                     "argument_text": ["text", "tenant"]}  # fmt: skip

SCHEMA = [
    "CREATE CONSTRAINT document_content_key IF NOT EXISTS "
    "FOR (d:Document) REQUIRE (d.tenant, d.content_hash) IS UNIQUE",
    "CREATE CONSTRAINT document_url_key IF NOT EXISTS "
    "FOR (d:Document) REQUIRE (d.tenant, d.url) IS UNIQUE",
    # The tenant is a required clause of every query (fulltext.scoped_query), so Lucene keeps to
    # one tenant's chunks before it ranks and cuts.
    "CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.text, c.tenant]",
    # Argument components a document states (apps.ingestion.argument_writes).
    "CREATE CONSTRAINT argument_key IF NOT EXISTS FOR (a:Argument) REQUIRE (a.tenant, a.uid) IS UNIQUE",
    "CREATE INDEX argument_document IF NOT EXISTS FOR (a:Argument) ON (a.tenant, a.document_uid)",
    "CREATE FULLTEXT INDEX argument_text IF NOT EXISTS FOR (a:Argument) ON EACH [a.text, a.tenant]",
    # Filtered by tenant inside the index (Neo4j 2026's filtered vector search).
    "CYPHER 25 CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON c.embedding "
    "WITH [c.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
]
