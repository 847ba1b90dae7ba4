"""Documents agents send and the chunks they are split into."""

from neomodel import ArrayProperty, FloatProperty, IntegerProperty, JSONProperty, StringProperty

from apps.graph.nodes.tenancy import TenantNode


class Document(TenantNode):
    source = StringProperty(required=True)
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
    position = IntegerProperty()
    section_path = ArrayProperty(StringProperty())
    embedding = ArrayProperty(FloatProperty())


SCHEMA = [
    "CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.text]",
    "CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON c.embedding "
    "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine'}}",
]
