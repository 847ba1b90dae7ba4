"""Writes inside the caller's transaction: MENTIONS from the chunk, RELATED_TO upserts with
seed 002's contract, and a replayed chunk that changes nothing."""

import uuid
from dataclasses import replace

from apps.graph import cypher
from apps.ingestion.chunk_writes import do_chunk_write
from apps.resolution.candidates import EntityCandidate, MentionSpan, Provenance, RelationCandidate
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.gate import candidates_embed
from tests.chunks import chunk_record, document_for

TEXT = "Ada Lovelace worked with Charles Babbage on the Analytical Engine."
ADA = EntityCandidate("Ada Lovelace", "Person", mentions=(MentionSpan("Ada Lovelace", 0, 12),))
BABBAGE = EntityCandidate(
    "Charles Babbage", "Person", mentions=(MentionSpan("Charles Babbage", 25, 40),)
)
ENGINE = EntityCandidate("Analytical Engine", "Object", mentions=(MentionSpan("Analytical Engine", 48, 65),))  # fmt: skip
RELATIONS = [
    RelationCandidate(0, "WORKED_WITH", 1, confidence=0.8, nuance="collaborators"),
    RelationCandidate(0, "WORKS_ON", 2, confidence=0.6),
]


def uid_in(scope, name: str) -> str:
    """A chunk uid of this test's own: uids are global, and tests run side by side in processes
    sharing one Neo4j ('chunk-1' of another tenant would be this chunk, already written)."""
    return f"{scope.tenant}-{name}"


def write_chunk(scope, chunk_uid, entities, relations, text=TEXT):
    """What the pipeline does for one chunk of a stored document: the chunk (its service) and
    the resolution in one transaction. Written again, the chunk stays as it is and the
    resolution runs again, which is what these tests look at."""
    embedded = candidates_embed(entities)
    chunk_uid = uid_in(scope, chunk_uid)
    record = replace(chunk_record(document_for(scope, TEXT), text), uid=chunk_uid)
    provenance = Provenance(agent=scope.actor, document_uid=record.document_uid,
                            chunk_uid=chunk_uid)  # fmt: skip

    def unit(stx):
        do_chunk_write(stx, record=record, entities=[], relations=[])
        return do_resolve_and_write(
            stx, entities=embedded, relations=relations, provenance=provenance
        )

    return cypher.write_unit(scope, unit)


def graph_counts(scope):
    return cypher.read(
        scope,
        "RETURN COUNT { MATCH (:Entity {tenant: $tenant}) } AS entities, "
        "COUNT { MATCH (:Chunk {tenant: $tenant})-[:MENTIONS]->() } AS mentions, "
        "COUNT { MATCH (:Entity {tenant: $tenant})-[:RELATED_TO]->() } AS relations",
    )[0]


def relation(scope, predicate):
    [row] = cypher.read(
        scope,
        "MATCH (:Entity {tenant: $tenant})-[r:RELATED_TO {predicate: $p}]->() "
        "RETURN r.weight AS weight, r.confidence AS confidence, r.nuance AS nuance, "
        "r.chunks AS chunks, r.first_seen AS first_seen, r.last_seen AS last_seen",
        p=predicate,
    )
    return row


def test_mentions_and_relations_are_written_with_the_chunk(scope):
    receipts = write_chunk(scope, "chunk-1", [ADA, BABBAGE, ENGINE], RELATIONS)
    assert [(r.kind, r.action) for r in receipts] == [
        ("entity", "created"), ("entity", "created"), ("entity", "created"),
        ("relation", "created"), ("relation", "created"),
    ]  # fmt: skip
    assert receipts[3].name == "Ada Lovelace WORKED_WITH Charles Babbage"
    assert graph_counts(scope) == {"entities": 3, "mentions": 3, "relations": 2}
    mentions = cypher.read(
        scope,
        "MATCH (:Chunk {tenant: $tenant, uid: $uid})-[m:MENTIONS]->(e:Entity) "
        "RETURN e.name AS name, m.surface AS surface, m.start AS start, m.end AS end "
        "ORDER BY start",
        uid=uid_in(scope, "chunk-1"),
    )
    assert [(m["surface"], m["start"], m["end"]) for m in mentions] == [
        ("Ada Lovelace", 0, 12), ("Charles Babbage", 25, 40), ("Analytical Engine", 48, 65)
    ]  # fmt: skip
    worked = relation(scope, "WORKED_WITH")
    assert (worked["weight"], worked["confidence"], worked["nuance"]) == (1, 0.8, "collaborators")
    assert (
        worked["chunks"] == [uid_in(scope, "chunk-1")]
        and worked["first_seen"] == worked["last_seen"]
    )


def test_a_replayed_chunk_changes_nothing(scope):
    write_chunk(scope, "chunk-1", [ADA, BABBAGE, ENGINE], RELATIONS)
    before = graph_counts(scope), relation(scope, "WORKED_WITH")
    receipts = write_chunk(scope, "chunk-1", [ADA, BABBAGE, ENGINE], RELATIONS)
    assert [r.action for r in receipts] == ["unchanged"] * 5
    assert (graph_counts(scope), relation(scope, "WORKED_WITH")) == before


def test_each_new_chunk_is_one_more_observation(scope):
    write_chunk(scope, "chunk-1", [ADA, BABBAGE, ENGINE], RELATIONS)
    again = [RelationCandidate(0, "WORKED_WITH", 1, confidence=0.4, nuance="colleagues")]
    receipts = write_chunk(scope, "chunk-2", [ADA, BABBAGE], again, text="Ada and Babbage.")
    assert [r.action for r in receipts] == ["unchanged", "unchanged", "merged"]
    assert receipts[2].reason == "observed again: weight 2"
    worked = relation(scope, "WORKED_WITH")
    # weight counts observations; confidence is seed 002's running average (old + new) / 2.
    assert worked["weight"] == 2 and abs(worked["confidence"] - 0.6) < 1e-9
    assert worked["nuance"] == "colleagues" and worked["chunks"] == [
        uid_in(scope, "chunk-1"),
        uid_in(scope, "chunk-2"),
    ]
    assert worked["last_seen"] > worked["first_seen"]
    assert graph_counts(scope) == {"entities": 3, "mentions": 5, "relations": 2}


def test_the_same_fact_twice_in_one_call_is_one_observation(scope):
    relations = [
        RelationCandidate(0, "WORKED_WITH", 1, confidence=1.0),
        RelationCandidate(0, "WORKED_WITH", 1, confidence=0.5, nuance="later"),
    ]
    receipts = write_chunk(scope, "chunk-1", [ADA, BABBAGE], relations)
    assert [r.action for r in receipts[2:]] == ["created", "unchanged"]
    worked = relation(scope, "WORKED_WITH")
    assert worked["weight"] == 1 and worked["confidence"] == 0.75 and worked["nuance"] == "later"


def test_relations_to_refused_or_missing_entities_are_refused(scope):
    relations = [
        RelationCandidate(0, "USES", 1),
        RelationCandidate(0, "KNOWS", 7),
        RelationCandidate(0, "IS", 2),
    ]
    receipts = write_chunk(
        scope,
        f"chunk-{uuid.uuid4().hex}",
        [ADA, EntityCandidate("Python", "Software"), EntityCandidate("ada lovelace", "Person")],
        relations,
    )
    assert [r.action for r in receipts] == ["created", "refused", "unchanged"] + ["refused"] * 3
    assert "was refused" in receipts[3].reason
    assert "not in this request" in receipts[4].reason
    assert "same entity" in receipts[5].reason
    assert graph_counts(scope)["relations"] == 0
