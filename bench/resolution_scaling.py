"""Resolution cost per mention against a small and a large tenant: the indexes do the blocking,
so the cost must stay near flat as the tenant grows.

A throwaway tenant is filled in bulk (batched UNWIND, a bench-only path: synthetic Person names
from name lists, random unit vectors, since only the index sizes matter for the cost), then the
same mix of probe mentions (half existing names, which merge; half new names, which are created)
goes through the real `do_resolve_and_write`, one transaction each, at each size.

    .venv/bin/python bench/resolution_scaling.py                       # 1,000 and 50,000
    .venv/bin/python bench/resolution_scaling.py --sizes 1000 200000 --probes 400
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

FIRST = ("ada alan grace edsger barbara donald john ken dennis linus margaret frances radia "
         "tim vint bob leslie niklaus guido james anders bjarne yukihiro larry rasmus brendan "
         "sophie olivia liam noah emma mia lucas amelia hugo isla oscar freya arthur ivy").split()  # fmt: skip
LAST = ("lovelace turing hopper dijkstra liskov knuth mccarthy thompson ritchie torvalds "
        "hamilton allen perlman lee cerf kahn lamport wirth rossum gosling hejlsberg stroustrup "
        "matsumoto wall lerdorf eich smith jones brown taylor wilson evans thomas roberts walker "
        "wright green hall wood clarke hughes edwards").split()  # fmt: skip

BULK = """
UNWIND $rows AS row
CREATE (e:Entity {uid: row.uid, tenant: $tenant, name: row.name, norm_name: row.norm,
                  type: 'Person', aliases: [], norm_aliases: [], description: row.description,
                  status: 'active', created_at: datetime(), updated_at: datetime()})
WITH e, row  // float32 vectors, as the app stores them
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
CALL db.create.setNodeVectorProperty(e, 'description_embedding', row.embedding)
WITH e, row
MERGE (k:EntityKey {tenant: $tenant, type: 'Person', norm: row.norm})
ON CREATE SET k.uid = randomUUID(), k.created_at = datetime()
MERGE (k)-[:KEY_OF]->(e)
"""


def unit_vector(rng: random.Random, dims: int) -> list[float]:
    v = [rng.gauss(0, 1) for _ in range(dims)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


def name_for(i: int) -> str:
    # Unique names: a first name, a surname, and a number-word suffix for the collisions.
    first, last = FIRST[i % len(FIRST)], LAST[(i // len(FIRST)) % len(LAST)]
    return f"{first} {last} {i // (len(FIRST) * len(LAST))}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 50000])
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.resolution.candidates import EntityCandidate, Provenance
    from apps.resolution.entity_writes import do_resolve_and_write
    from apps.resolution.gate import candidates_embed
    from apps.resolution.signals import name_normalize

    schema_install()
    rng = random.Random(7)
    scope = Scope(tenant=f"bench-scale-{uuid.uuid4().hex[:8]}", actor="bench", actor_kind="system")
    provenance = Provenance(agent="bench")
    dims = settings.EMBEDDING_DIMENSIONS
    filled, results = 0, []
    try:
        for size in sorted(args.sizes):
            started = time.perf_counter()
            while filled < size:
                rows = []
                for i in range(filled, min(size, filled + args.batch)):
                    name = name_for(i)
                    rows.append({"uid": uuid.uuid4().hex, "name": name,
                                 "norm": name_normalize(name), "embedding": unit_vector(rng, dims),
                                 "description": f"Person number {i} of the scaling bench."})  # fmt: skip
                cypher.write(scope, BULK, rows=rows)
                filled += len(rows)
            cypher.system_query("CALL db.awaitIndexes(600)")
            fill_seconds = time.perf_counter() - started
            probes = []
            for n in range(args.probes):
                if n % 2:  # an existing name, spelled differently: merges through the key
                    probes.append(EntityCandidate(name_for(rng.randrange(size)).upper(), "Person"))
                else:  # a new person
                    probes.append(EntityCandidate(
                        f"{rng.choice(FIRST)} {rng.choice(LAST)} probe {size}-{n}", "Person",
                        description="A person first seen in a probe mention."))  # fmt: skip
            probes = candidates_embed(probes)
            timings = []
            for i, probe in enumerate(probes):
                t0 = time.perf_counter()
                cypher.write_unit(
                    scope,
                    lambda stx, p=probe: do_resolve_and_write(
                        stx, entities=[p], relations=[], provenance=provenance
                    ),
                )
                if i >= min(20, len(probes) // 5):  # the first ones warm the caches
                    timings.append(time.perf_counter() - t0)
            filled += args.probes // 2 + args.probes % 2
            mean = statistics.mean(timings) * 1000
            median = statistics.median(timings) * 1000
            results.append((size, mean, median))
            print(f"{size:>8} entities: {mean:7.1f} ms mean, {median:7.1f} ms median per mention "
                  f"({len(timings)} timed; filled in {fill_seconds:.0f}s)", flush=True)  # fmt: skip
    finally:
        while cypher.write(
            scope,
            "MATCH (n) WHERE n.tenant = $tenant WITH n LIMIT 5000 DETACH DELETE n "
            "RETURN count(*) AS n",
        )[0]["n"]:
            pass
    (small, s_mean, s_median), (large, l_mean, l_median) = results[0], results[-1]
    print(
        f"ratio {large}/{small}: {l_mean / s_mean:.2f} (mean), {l_median / s_median:.2f} (median)"
    )


if __name__ == "__main__":
    main()
