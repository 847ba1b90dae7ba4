"""Concurrent writers naming the same new entity end with one canonical entity: each thread is
its own transaction on the real Neo4j, started together."""

import threading

from apps.graph import cypher
from apps.resolution.candidates import EntityCandidate, Provenance, RelationCandidate
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.gate import candidates_embed

WORKERS = 6


def test_racing_writers_create_one_entity_and_count_every_observation(scope):
    people = candidates_embed([
        EntityCandidate("Grace Hopper", "Person", description="Computer scientist, COBOL."),
        EntityCandidate("Navy", "Organization", description="The United States Navy."),
    ])  # fmt: skip
    barrier = threading.Barrier(WORKERS)
    results, errors = [], []

    def worker(n: int) -> None:
        # Each worker spells the names its own way: they normalize alike.
        mine = [
            EntityCandidate("GRACE HOPPER" if n % 2 else "Grace Hopper", "Person",
                            description=people[0].description, embedding=people[0].embedding),
            EntityCandidate("navy", "Organization", embedding=people[1].embedding),
        ]  # fmt: skip
        relation = [RelationCandidate(0, "SERVED_IN", 1, confidence=0.9)]
        provenance = Provenance(agent=f"worker-{n}", chunk_uid=f"chunk-{n}")

        def unit(tx):
            tx.run("MERGE (c:Chunk {tenant: $tenant, uid: $uid}) SET c.text = 't'",
                   uid=f"chunk-{n}")  # fmt: skip
            return do_resolve_and_write(
                tx, entities=mine, relations=relation, provenance=provenance
            )

        barrier.wait()
        try:
            results.append(cypher.write_unit(scope, unit))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
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
