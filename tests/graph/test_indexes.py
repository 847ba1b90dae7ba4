"""Vector and full-text indexes work on the real Neo4j: create, populate, query."""

import uuid
from array import array

import pytest

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.fulltext import entity_words_query, fulltext_terms
from apps.graph.schema import schema_install


@pytest.mark.serial  # installs the schema every tenant's queries use
def test_schema_install_is_idempotent():
    first = schema_install()
    second = schema_install()
    assert second["created"] == 0
    assert (second["constraints"], second["indexes"]) == (first["constraints"], first["indexes"])
    names = {r["name"] for r in cypher.system_query("SHOW INDEXES YIELD name RETURN name")}
    assert {"entity_names", "entity_embedding", "chunk_text", "chunk_embedding"} <= names
    vector_indexes = cypher.system_query(
        "SHOW VECTOR INDEXES YIELD name, properties, options "
        "RETURN name, properties, options.indexConfig AS config"
    )
    for index in vector_indexes:
        # Every vector index filters by tenant inside the index, with full-precision vectors.
        assert index["properties"][1] == "tenant", index["name"]
        assert index["config"]["vector.quantization.enabled"] is False, index["name"]


def test_vector_index_round_trip_with_the_real_model(scope):
    texts = {
        "cat": "A cat sleeps on the warm windowsill.",
        "bank": "The central bank raised interest rates again.",
        "code": "The compiler rejected the program with a type error.",
    }
    vectors = get_embedder().embed(list(texts.values()))
    assert all(len(v) == 384 for v in vectors)
    for (key, text), vector in zip(texts.items(), vectors, strict=True):
        cypher.write(
            scope,
            "CREATE (c:Chunk {uid: $uid, tenant: $tenant, text: $text}) "
            "WITH c CALL db.create.setNodeVectorProperty(c, 'embedding', $embedding)",
            uid=f"{key}-{uuid.uuid4().hex}",
            text=text,
            embedding=[x + 1e-9 for x in vector],  # not representable in float32
        )
    cypher.system_query("CALL db.awaitIndexes(60)")
    query = get_embedder().embed(["Money policy: the bank increased rates."])[0]
    rows = cypher.read(
        scope,
        "CYPHER 25 MATCH (c:Chunk) SEARCH c IN (VECTOR INDEX chunk_embedding FOR $vector "
        "WHERE c.tenant = $tenant LIMIT 20) SCORE AS score "
        "RETURN c.text AS text, score, c.embedding AS stored ORDER BY score DESC",
        vector=query,
    )
    assert rows[0]["text"] == texts["bank"]
    assert rows[0]["score"] > rows[-1]["score"]
    # Stored as float32: each coordinate is the nearest float32 to the model's value.
    stored = rows[0]["stored"]
    sent = [x + 1e-9 for x in vectors[1]]
    assert stored == [float(x) for x in array("f", sent)]
    assert stored != sent


def test_fulltext_index_round_trip_with_quotes_in_the_query(scope):
    cypher.write(
        scope,
        "CREATE (:Entity {uid: $uid, tenant: $tenant, name: 'Sherlock Holmes', type: 'Person', "
        "aliases: ['Mr. Holmes', \"The Great Detective\"], status: 'active'})",
        uid=uuid.uuid4().hex,
    )
    cypher.system_query("CALL db.awaitIndexes(60)")
    for words in ["holmes", "great detective", "O'Holmes \") MATCH (n) DETACH DELETE n //"]:
        rows = cypher.read(
            scope,
            "CALL db.index.fulltext.queryNodes('entity_names', $q) YIELD node, score "
            "WHERE node.tenant = $tenant RETURN node.name AS name",
            q=entity_words_query(scope.tenant, fulltext_terms(words)),
        )
        assert [r["name"] for r in rows] == ["Sherlock Holmes"], words


@pytest.mark.serial  # drops an index every tenant's queries use
def test_a_message_index_made_with_other_hnsw_settings_is_made_again_with_ours():
    """A database whose message index was made with another HNSW graph (a denser one: 32 links,
    200 candidates, costly to insert into) gets ours at the next install."""
    from django.conf import settings

    from apps.graph.nodes.conversations import MESSAGE_HNSW_EF_CONSTRUCTION, MESSAGE_HNSW_M

    def config():
        return cypher.system_query(
            "SHOW VECTOR INDEXES YIELD name, properties, options WHERE name = 'message_embedding' "
            "RETURN properties, options.indexConfig AS config"
        )

    cypher.system_query("DROP INDEX message_embedding IF EXISTS")
    cypher.system_query(
        "CYPHER 25 CREATE VECTOR INDEX message_embedding FOR (m:Message) ON m.embedding "
        "WITH [m.tenant, m.user] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
        "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false, "
        "`vector.hnsw.m`: 32, `vector.hnsw.ef_construction`: 200}}",
        dimensions=settings.EMBEDDING_DIMENSIONS,
    )
    assert config()[0]["config"]["vector.hnsw.m"] == 32

    schema_install()

    [index] = config()
    assert index["properties"] == ["embedding", "tenant", "user"]
    assert index["config"]["vector.hnsw.m"] == MESSAGE_HNSW_M
    assert index["config"]["vector.hnsw.ef_construction"] == MESSAGE_HNSW_EF_CONSTRUCTION
    assert index["config"]["vector.quantization.enabled"] is False
