"""A window's chunks in one query: the reading order (NEXT) is whole whatever the windows
skipped or a crashed run left, a replayed window changes nothing, and the write stays in its
tenant."""

import pytest

from apps.graph import cypher
from apps.graph.embeddings import get_embedder
from apps.ingestion.chunk_writes import (
    ChunkRecord,
    WindowChunk,
    chunk_uid,
    window_write,
)
from apps.ingestion.chunking import TextChunk
from apps.ingestion.dedup import content_hash
from apps.resolution.candidates import EntityCandidate, MentionSpan
from apps.resolution.gate import candidates_embed
from tests.chunks import document_for
from tests.conftest import scope_for

TEXTS = [f"Paragraph {i}: Ada Lovelace wrote note {i} on the engine." for i in range(6)]

PICTURE = """
MATCH (c:Chunk {tenant: $tenant, document_uid: $document})
RETURN c.position AS position, [(c)-[:NEXT]->(n) | n.position] AS next,
       COUNT { (c)-[:PART_OF]->(:Document) } AS part_of,
       [(c)-[m:MENTIONS]->(e) | [m.surface, m.start, e.name]] AS mentions,
       COUNT { MATCH (:Entity {tenant: $tenant}) } AS entities
ORDER BY position
"""


def window(document: str, positions, vectors) -> list[WindowChunk]:
    out = []
    for p in positions:
        text = TEXTS[p]
        start = text.find("Ada")
        record = ChunkRecord(chunk_uid(document, p), document, TextChunk(p, text, 0, len(text), ()),
                             content_hash(text), vectors[p])  # fmt: skip
        candidate = EntityCandidate("Ada Lovelace", "Person",
                                    mentions=(MentionSpan("Ada Lovelace", start, start + 12),))  # fmt: skip
        out.append(WindowChunk(record, candidates_embed([candidate]), []))
    return out


@pytest.fixture(scope="module")
def vectors():
    return get_embedder().embed(TEXTS)


@pytest.mark.django_db(transaction=True)
def test_windows_with_gaps_join_into_one_reading_order_and_a_replay_changes_nothing(
    make_tenant, vectors
):
    scope = scope_for(make_tenant())
    document = document_for(scope, " ".join(TEXTS))
    seen: dict = {}  # the names the document's windows resolved, as the pipeline keeps them
    # A crashed run left 0, 1, 4, 5 (NEXT 1 -> 4 across the gap); the re-run fills 2 and 3.
    assert all(window_write(scope, chunks=window(document, [0, 1, 4, 5], vectors), seen=seen))
    assert [r["next"] for r in cypher.read(scope, PICTURE, document=document)] == [
        [1],
        [4],
        [5],
        [],
    ]
    assert all(window_write(scope, chunks=window(document, [2, 3], vectors), seen=seen))
    picture = cypher.read(scope, PICTURE, document=document)
    assert [r["next"] for r in picture] == [[1], [2], [3], [4], [5], []]
    assert all(r["part_of"] == 1 and len(r["mentions"]) == 1 for r in picture)
    assert picture[0]["entities"] == 1  # one name in one document is one entity

    # The whole document again (a job run twice): every chunk is reported written already.
    assert window_write(scope, chunks=window(document, range(6), vectors), seen=seen) == [None] * 6
    assert cypher.read(scope, PICTURE, document=document) == picture


@pytest.mark.django_db(transaction=True)
def test_a_window_for_another_tenants_document_writes_nothing(make_tenant, vectors):
    owner, other = scope_for(make_tenant()), scope_for(make_tenant())
    document = document_for(owner, " ".join(TEXTS))
    with pytest.raises(LookupError):
        window_write(other, chunks=window(document, [0, 1], vectors))
    assert cypher.read(owner, PICTURE, document=document) == []
    # A tenant's graph holds its stamp from the start (GraphStamp); nothing else may be there.
    left = "MATCH (n {tenant: $tenant}) WHERE NOT n:GraphStamp RETURN count(n) AS n"
    assert cypher.read(other, left)[0]["n"] == 0
