"""Vector and full-text indexes work on the real Neo4j: create, populate, query."""

import uuid

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.graph.fulltext import fulltext_terms
from apps.graph.schema import schema_install


def test_schema_install_is_idempotent():
    first = schema_install()
    second = schema_install()
    assert second["created"] == 0
    assert (second["constraints"], second["indexes"]) == (first["constraints"], first["indexes"])
    names = {r["name"] for r in cypher.system_query("SHOW INDEXES YIELD name RETURN name")}
    assert {"entity_names", "entity_embedding", "chunk_text", "chunk_embedding"} <= names


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
            "CREATE (:Chunk {uid: $uid, tenant: $tenant, text: $text, embedding: $embedding})",
            uid=f"{key}-{uuid.uuid4().hex}",
            text=text,
            embedding=vector,
        )
    cypher.system_query("CALL db.awaitIndexes(60)")
    query = get_embedder().embed(["Money policy: the bank increased rates."])[0]
    rows = cypher.read(
        scope,
        "CALL db.index.vector.queryNodes('chunk_embedding', 20, $vector) YIELD node, score "
        "WHERE node.tenant = $tenant RETURN node.text AS text, score ORDER BY score DESC",
        vector=query,
    )
    assert rows[0]["text"] == texts["bank"]
    assert rows[0]["score"] > rows[-1]["score"]


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
            q=fulltext_terms(words),
        )
        assert [r["name"] for r in rows] == ["Sherlock Holmes"], words
