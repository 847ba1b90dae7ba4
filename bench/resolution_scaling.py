"""Resolution cost per mention against a small and a large database: the indexes do the
blocking, so the cost must stay near flat as the graph grows.

The whole database grows, not one tenant: `--tenants` throwaway tenants are filled in bulk,
round robin (batched UNWIND, a bench-only path: synthetic Person names from name lists with
their blocking keys and parses, random unit vectors, since only the index sizes matter for the
cost; the probing process then forgets the parses, as a worker that did not write them), so
at each size the probed tenant holds 1/`--tenants` of the entities. The same mix of probe
mentions (half existing names, which merge; half new names, which are created) then goes,
once the local Neo4j has finished merging the fill's index segments (`--no-settle`: at once),
through the real `do_resolve_and_write`, one transaction each (`--per-call N`: N mentions per
call and transaction, as a facts call or a chunk brings them), at each size. `--profile` adds,
at the largest size, the round trips per mention and where the time goes (cProfile);
`--by-query` the time of each Cypher query per mention at each size, and the rest (begin,
commit with its index updates, Python). `--floor` adds, at each size, what the same mix costs
with no search and no decision at all: a transaction of three bare round trips (a merge's
least), and one creating an entity with the index entries a new entity needs (full-text on its
names, then its name vector, then its description vector), one transaction each: what this
machine's Neo4j charges before the gate does anything.

    .venv/bin/python bench/resolution_scaling.py                       # 1,000 and 50,000
    .venv/bin/python bench/resolution_scaling.py --sizes 1000 50000 --probes 100 --floor
    .venv/bin/python bench/resolution_scaling.py --sizes 1000 200000 --probes 400 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
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
                  name_keys: row.keys, name_parsed: row.parsed, status: 'active',
                  created_at: datetime(), updated_at: datetime()})
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


def neo4j_settled(limit_s: float = 600.0) -> float:
    """Wait (bounded) until the local Neo4j is idle: a bulk fill leaves Lucene merging its index
    segments on background threads for several seconds (1.2 cores of 2 at 50,000), and
    probes timed meanwhile measure the merge, not the resolution. Seconds waited."""
    from apps.graph import local_neo4j

    pid = local_neo4j.status().pid
    if pid is None:  # another Neo4j (NEO4J_BOLT_URL): nothing to read
        return 0.0

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        before = cpu()
        time.sleep(2)
        if cpu() - before < 0.2:  # under a tenth of a core over 2 s
            break
    return time.perf_counter() - started


# The floor's writes: an entity with the fields each index reads, nothing else (no key, no
# mention, no version bump); status 'floor' keeps it out of the gate's searches.
FLOOR_ENTITY = """
CREATE (e:Entity {uid: randomUUID(), tenant: $tenant, type: 'Person', status: 'floor',
                  name: $name, norm_name: $name, aliases: [], name_keys: [$name]})
WITH e
CALL (e) { WITH e WHERE $vectors >= 1
           CALL db.create.setNodeVectorProperty(e, 'embedding', $embedding) }
CALL (e) { WITH e WHERE $vectors >= 2
           CALL db.create.setNodeVectorProperty(e, 'description_embedding', $embedding) }
"""


def floor_measure(scope, dims: int, rng: random.Random, runs: int = 40) -> dict[str, float]:
    """Median ms of each floor transaction, in turn, after a few unmeasured ones; the entities
    it made are deleted after."""
    from apps.graph import cypher

    def trips(stx) -> None:
        for _ in range(3):
            stx.run("RETURN $tenant AS tenant")

    def entity(vectors: int):
        return lambda stx: stx.run(FLOOR_ENTITY, name=f"floor {uuid.uuid4().hex}",
                                   vectors=vectors, embedding=unit_vector(rng, dims))  # fmt: skip

    kinds = {"three round trips, no write": trips,
             "create: full-text fields": entity(0),
             "create: + name vector": entity(1),
             "create: + description vector": entity(2)}  # fmt: skip
    spent: dict[str, list[float]] = {kind: [] for kind in kinds}
    for n in range(runs + 8):
        for kind, work in kinds.items():
            started = time.perf_counter()
            cypher.write_unit(scope, work)
            if n >= 8:
                spent[kind].append((time.perf_counter() - started) * 1000)
    cypher.write(scope, "MATCH (e:Entity {tenant: $tenant, status: 'floor'}) DELETE e")
    return {kind: statistics.median(ms) for kind, ms in spent.items()}


def queries_timed() -> dict[str, list[float]]:
    """Seconds spent in each query (named by its first words) of every ScopedTx from now on."""
    from apps.graph.cypher import ScopedTx

    spent: dict[str, list[float]] = {}
    run = ScopedTx.run

    def timed(self, query, **params):
        started = time.perf_counter()
        try:
            return run(self, query, **params)
        finally:
            name = " ".join(query.split())[:60]
            spent.setdefault(name, []).append(time.perf_counter() - started)

    ScopedTx.run = timed
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 50000])
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--tenants", type=int, default=4, help="tenants sharing the database")
    parser.add_argument("--profile", action="store_true", help="profile the largest size")
    parser.add_argument("--by-query", action="store_true", help="time each query per mention")
    parser.add_argument(
        "--per-call",
        type=int,
        default=1,
        help="mentions per do_resolve_and_write call (one transaction)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time the bare transactions under a mention (no gate)",
    )
    parser.add_argument("--no-settle", action="store_true",
                        help="probe while Neo4j still merges the fill's index segments")  # fmt: skip
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    from apps.graph import cypher
    from apps.graph.cypher import count_round_trips
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.resolution.blocking_keys import blocking_keys
    from apps.resolution.candidates import EntityCandidate, Provenance
    from apps.resolution.comparisons import person_names
    from apps.resolution.entity_writes import do_resolve_and_write
    from apps.resolution.gate import candidates_embed
    from apps.resolution.signals import name_normalize

    schema_install()
    by_query = queries_timed() if args.by_query else None
    rng = random.Random(7)
    run = uuid.uuid4().hex[:8]
    scopes = [Scope(tenant=f"bench-scale-{run}-{t}", actor="bench", actor_kind="system")
              for t in range(max(1, args.tenants))]  # fmt: skip
    scope = scopes[0]  # the probed tenant
    provenance = Provenance(agent="bench")
    dims = settings.EMBEDDING_DIMENSIONS
    filled, results = 0, []
    try:
        for size in sorted(args.sizes):
            started = time.perf_counter()
            while filled < size:
                batch = {}
                for i in range(filled, min(size, filled + args.batch)):
                    name = name_for(i // len(scopes))
                    batch.setdefault(i % len(scopes), []).append(
                        {"uid": uuid.uuid4().hex, "name": name, "norm": name_normalize(name),
                         "keys": blocking_keys("Person", [name], {}),
                         "parsed": person_names.parse_stored(name),
                         "embedding": unit_vector(rng, dims),
                         "description": f"Person number {i} of the scaling bench."})  # fmt: skip
                for t, rows in batch.items():
                    cypher.write(scopes[t], BULK, rows=rows)
                    filled += len(rows)
            cypher.system_query("CALL db.awaitIndexes(600)")
            person_names._parses.clear()  # parsed by the writer, not by this process
            fill_seconds = time.perf_counter() - started
            settle_seconds = 0.0 if args.no_settle else neo4j_settled()
            probes = []
            for n in range(args.probes):
                if n % 2:  # an existing name of the probed tenant, spelled differently
                    mine = rng.randrange(size // len(scopes))
                    probes.append(EntityCandidate(name_for(mine).upper(), "Person"))
                else:  # a new person
                    probes.append(EntityCandidate(
                        f"{rng.choice(FIRST)} {rng.choice(LAST)} probe {size}-{n}", "Person",
                        description="A person first seen in a probe mention."))  # fmt: skip
            probes = candidates_embed(probes)
            timings, trips = [], []
            profiler = cProfile.Profile() if args.profile and size == max(args.sizes) else None
            per_call = max(1, args.per_call)
            calls = [probes[i : i + per_call] for i in range(0, len(probes), per_call)]
            mentions = 0  # timed
            for i, call in enumerate(calls):
                warm = i * per_call >= min(20, len(probes) // 5)  # the first warm the caches
                if profiler and warm:
                    profiler.enable()
                t0 = time.perf_counter()
                with count_round_trips() as counted:
                    cypher.write_unit(
                        scope,
                        lambda stx, c=call: do_resolve_and_write(
                            stx, entities=c, relations=[], provenance=provenance
                        ),
                    )
                if profiler:
                    profiler.disable()
                if warm:  # per mention: a call's time shared by its mentions
                    timings.append((time.perf_counter() - t0) / len(call))
                    trips.append(counted[0] / len(call))
                    mentions += len(call)
                elif by_query is not None:
                    by_query.clear()  # the warm-up's queries are not counted
            filled += args.probes // 2 + args.probes % 2
            mean = statistics.mean(timings) * 1000
            median = statistics.median(timings) * 1000
            results.append((size, mean, median))
            print(f"{size:>8} entities ({len(scopes)} tenants): {mean:7.1f} ms mean, "
                  f"{median:7.1f} ms median per mention, "
                  f"{statistics.mean(trips):.1f} round trips ({mentions} timed"
                  f"{f', {per_call} per call' if per_call > 1 else ''}; "
                  f"filled in {fill_seconds:.0f}s, Neo4j idle after {settle_seconds:.0f}s more)",
                  flush=True)  # fmt: skip
            if by_query is not None:
                spent = 0.0
                for query, seconds in sorted(by_query.items(), key=lambda kv: -sum(kv[1])):
                    spent += sum(seconds)
                    print(f"    {1000 * sum(seconds) / mentions:7.1f} ms per mention  "
                          f"{len(seconds) / mentions:.1f}x  {query}")  # fmt: skip
                print(f"    {mean - 1000 * spent / mentions:7.1f} ms per mention  "
                      "the rest: begin, commit (index updates), Python")  # fmt: skip
                by_query.clear()
            if args.floor:
                floor = floor_measure(scope, dims, rng)
                for kind, ms in floor.items():
                    print(f"    floor {ms:7.1f} ms per transaction  {kind}")
                least = (floor["create: + description vector"]
                         + floor["three round trips, no write"]) / 2  # fmt: skip
                print(
                    f"    floor {least:7.1f} ms per mention of this mix (half created with "
                    "a description, half merged), with no search and no decision",
                    flush=True,
                )
            if profiler:
                stats = pstats.Stats(profiler, stream=sys.stdout)
                stats.sort_stats("cumulative").print_stats(25)
    finally:
        for each in scopes:
            while cypher.write(
                each,
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
