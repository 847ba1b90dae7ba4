"""Concurrent writers naming the same new entity, with the same evidence, end with one canonical
entity: each thread is its own transaction on the real Neo4j, started together."""

import threading
from dataclasses import replace

import pytest

from apps.graph import cypher
from apps.graph.connection import graph_driver
from apps.graph.cypher import ScopedTx
from apps.ingestion.chunk_writes import do_chunk_write
from apps.resolution import entity_writes
from apps.resolution.candidates import (
    EntityCandidate,
    MentionSpan,
    Provenance,
    RelationCandidate,
)
from apps.resolution.comparisons import Compared
from apps.resolution.gate import Decision, Match, Proposal, candidates_embed, key_claim
from apps.resolution.match_model import match_score
from apps.review.services import check_review_confirm
from tests.chunks import chunk_record, document_for
from tests.conftest import wait_for_a_blocked_transaction
from tests.review.review_fixtures import anthropic_pair, pending_pairs

WORKERS = 6
HOPPER = {"born": "1906-12-09"}
NAVY = {"domain": "navy.mil"}


def test_racing_writers_create_one_entity_and_count_every_observation(scope):
    people = candidates_embed([
        EntityCandidate("Grace Hopper", "Person", description="Computer scientist, COBOL.",
                        values=HOPPER),
        EntityCandidate("Navy", "Organization", description="The United States Navy.",
                        values=NAVY),
    ])  # fmt: skip
    barrier = threading.Barrier(WORKERS)
    results, errors = [], []
    chunk = chunk_record(document_for(scope, "Grace Hopper served in the Navy."), "t")

    def worker(n: int) -> None:
        # Each worker spells the names its own way: they normalize alike. The values are the
        # evidence beyond the name (a name alone never merges).
        mine = [
            EntityCandidate("GRACE HOPPER" if n % 2 else "Grace Hopper", "Person",
                            description=people[0].description, embedding=people[0].embedding,
                            values=HOPPER),
            EntityCandidate("navy", "Organization", embedding=people[1].embedding, values=NAVY),
        ]  # fmt: skip
        relation = [RelationCandidate(0, "SERVED_IN", 1, confidence=0.9)]
        record = replace(chunk, uid=f"{scope.tenant}-chunk-{n}")  # uids are global

        def unit(stx):
            return do_chunk_write(stx, record=record, entities=mine, relations=relation)

        barrier.wait()
        try:
            results.append(cypher.write_unit(scope, unit))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == []
    assert len(results) == WORKERS

    rows = cypher.read(
        scope,
        "MATCH (e:Entity {tenant: $tenant}) RETURN e.type AS type, count(*) AS n ORDER BY type",
    )
    assert rows == [{"type": "Organization", "n": 1}, {"type": "Person", "n": 1}]
    actions = sorted(receipts[0].action for receipts in results)
    assert actions.count("created") == 1 and actions.count("pending") == 0
    assert len({receipts[0].entity_uid for receipts in results}) == 1
    [edge] = cypher.read(
        scope,
        "MATCH (:Entity {tenant: $tenant})-[r:RELATED_TO]->() "
        "RETURN r.weight AS weight, size(r.chunks) AS chunks",
    )
    # Six independent chunks: six observations, none lost, one edge.
    assert edge == {"weight": WORKERS, "chunks": WORKERS}
    mentions = cypher.read(
        scope, "RETURN COUNT { MATCH (:Chunk {tenant: $tenant})-[:MENTIONS]->() } AS n"
    )
    assert mentions == [{"n": 2 * WORKERS}]


MERGED_ENTITY_EDGES = """
MATCH (a:Entity {tenant: $tenant, uid: $uid})-[r]-()
RETURN type(r) AS type ORDER BY type
"""
CHUNK_MENTIONS = """
MATCH (:Chunk {tenant: $tenant, uid: $chunk})-[:MENTIONS]->(e:Entity)
RETURN e.uid AS uid
"""


@pytest.mark.django_db(transaction=True)
def test_a_mention_written_while_a_reviewer_merges_lands_on_the_survivor(scope):
    """Ingestion resolved 'Anthropic AI' (a later chunk of the document that named it) and
    holds its transaction open when a reviewer confirms that 'Anthropic AI' is 'Anthropic': the
    merge waits, then moves the new mention too."""
    first, second = anthropic_pair(scope)
    [doc] = cypher.read(
        scope,
        "MATCH (d:Document {tenant: $tenant, title: 'about Anthropic AI'}) RETURN d.uid AS uid",
    )
    survivor, merged = first[0].entity_uid, second[0].entity_uid
    [review] = pending_pairs(scope)
    [candidate] = candidates_embed([
        EntityCandidate("Anthropic AI", "Organization",
                        mentions=(MentionSpan("Anthropic AI", 0, 12),)),
    ])  # fmt: skip
    outcome = {}

    def reviewer():
        try:
            outcome["merge"] = check_review_confirm(scope, review_uid=review["uid"])
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            outcome["error"] = exc

    # A later chunk of the document that named 'Anthropic AI'.
    [doc] = cypher.read(
        scope,
        "MATCH (d:Document {tenant: $tenant, title: 'about Anthropic AI'}) RETURN d.uid AS uid",
    )
    late = "Anthropic AI hires."
    record = replace(chunk_record(doc["uid"], late), uid=f"{scope.tenant}-late-chunk")
    with graph_driver().session() as session:
        tx = session.begin_transaction()
        stx = ScopedTx(scope, tx)
        [receipt] = do_chunk_write(stx, record=record, entities=[candidate], relations=[])
        assert receipt.entity_uid == merged
        thread = threading.Thread(target=reviewer)
        thread.start()
        wait_for_a_blocked_transaction(scope.tenant)  # the reviewer's waits on the entity's lock
        assert "merge" not in outcome
        tx.commit()
    thread.join(timeout=300)
    assert "error" not in outcome, outcome
    assert cypher.read(scope, MERGED_ENTITY_EDGES, uid=merged) == [{"type": "MERGED_INTO"}]
    assert cypher.read(scope, CHUNK_MENTIONS, chunk=record.uid) == [{"uid": survivor}]


def test_a_gate_match_merged_away_meanwhile_is_followed_to_its_survivor(scope):
    """The gate read 'Anthropic AI' as active, then a reviewer merged it before the write: the
    alias, the mention and a new pending pair go to the survivor, never to the tombstone."""
    first, second = anthropic_pair(scope)
    survivor, merged = first[0].entity_uid, second[0].entity_uid
    [review] = pending_pairs(scope)
    check_review_confirm(scope, review_uid=review["uid"])
    [late] = candidates_embed([EntityCandidate("Anthropic Labs", "Organization")])
    # A pending decision as the gate made it from its stale read of the merged entity.
    stale = match_score([Compared("name", "close")])
    proposal = Proposal(Match(uid=merged, name="Anthropic AI"), stale)
    pending = Decision("pending", (proposal,), proposal, reason="stale read")

    def unit(stx):
        for norm in ("anthropic labs", "anthropic labs x"):
            key_claim(stx, late, norm)
        changed, uid = entity_writes._absorb(stx, late, "anthropic labs", merged,
                                             Provenance(agent="agent:late"))  # fmt: skip
        created = entity_writes._create(stx, late, "anthropic labs x", pending,
                                        Provenance(agent="agent:late"))  # fmt: skip
        return changed, uid, created

    changed, uid, created = cypher.write_unit(scope, unit)
    assert (changed, uid) == (True, survivor)
    assert cypher.read(scope, MERGED_ENTITY_EDGES, uid=merged) == [{"type": "MERGED_INTO"}]
    pairs = cypher.read(
        scope,
        "MATCH (:Entity {tenant: $tenant, uid: $uid})-[s:SAME_AS]->(b) RETURN b.uid AS uid",
        uid=created,
    )
    assert pairs == [{"uid": survivor}]
