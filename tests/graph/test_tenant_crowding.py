"""A small tenant's searches are never crowded out by a large one: the vector indexes filter by
tenant inside the index (Neo4j 2026's filtered vector search) and the full-text queries require
the tenant in Lucene, so another tenant with 50x more, more similar, data changes nothing."""

import uuid

import pytest

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.ingestion.dedup import chunk_duplicate_layer
from apps.resolution.selectors import entities_search
from tests.conftest import scope_for

SMALL = 4
CROWD = SMALL * 50

ENTITIES = """
UNWIND $rows AS row
CREATE (e:Entity {uid: row.uid, tenant: $tenant, name: row.name, type: 'Object',
                  aliases: [], status: 'active', description: ''})
WITH e, row CALL db.create.setNodeVectorProperty(e, 'embedding', row.vector)
RETURN count(e) AS n
"""
CHUNKS = """
UNWIND $rows AS row
CREATE (c:Chunk {uid: row.uid, tenant: $tenant, text: row.text})
WITH c, row CALL db.create.setNodeVectorProperty(c, 'embedding', row.vector)
RETURN count(c) AS n
"""


@pytest.mark.slow
def test_a_small_tenant_finds_its_own_entities_beside_a_50x_larger_similar_one(make_tenant):
    small, large = scope_for(make_tenant()), scope_for(make_tenant())
    query = "harbour crane"
    # The large tenant's entities carry the query's own words and vector: nearer than ours.
    exact = get_embedder().embed([query])[0]
    cypher.write(large, ENTITIES, rows=[
        {"uid": uuid.uuid4().hex, "name": f"Harbour Crane {i}", "vector": exact}
        for i in range(CROWD)
    ])  # fmt: skip
    names = [f"Harbour crane of pier {i}" for i in range(SMALL)]
    vectors = get_embedder().embed(names)
    cypher.write(small, ENTITIES, rows=[
        {"uid": uuid.uuid4().hex, "name": name, "vector": vector}
        for name, vector in zip(names, vectors, strict=True)
    ])  # fmt: skip
    cypher.system_query("CALL db.awaitIndexes(60)")

    found = entities_search(small, q=query, limit=10)

    assert sorted(row["name"] for row in found) == sorted(names)
    for row in found:
        assert sorted(row["via"]) == ["meaning", "words"], row  # both indexes found each one
    typed = entities_search(small, q=query, type="Object", limit=10)
    assert len(typed) == SMALL
    assert entities_search(small, q=query, type="Person", limit=10) == []


@pytest.mark.slow
def test_a_small_tenant_finds_its_duplicate_chunk_beside_a_50x_larger_identical_one(make_tenant):
    small, large = scope_for(make_tenant()), scope_for(make_tenant())
    text = "The harbour crane lifted the containers onto the ship at dawn."
    vector = get_embedder().embed([text])[0]
    cypher.write(large, CHUNKS, rows=[
        {"uid": uuid.uuid4().hex, "text": text, "vector": vector} for _ in range(50)
    ])  # fmt: skip
    own = uuid.uuid4().hex
    cypher.write(small, CHUNKS, rows=[{"uid": own, "text": text, "vector": vector}])
    cypher.system_query("CALL db.awaitIndexes(60)")

    layer, uid = chunk_duplicate_layer(
        small, uid=uuid.uuid4().hex, text_hash="not-seen", embedding=vector
    )

    assert (layer, uid) == ("semantic", own)
