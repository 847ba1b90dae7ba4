"""The whole-graph algorithms (apps/insights) on one tenant of N entities and 5N relations, with
another tenant 5x larger in the same database: cold and kept time of each, at a time too,
`connection` p50/p95 over 100 random pairs, and GDS's memory estimate against the heap.

Entities and relations are written in bulk (batched UNWIND, a bench-only path): Object entities
created over two years, relations between random entities with a skew towards a few hubs, one
of five predicates, a fifth of them closed (valid_to) and a tenth opened late (valid_from).

    .venv/bin/python bench/graph_insights.py              # 5,000 / 25,000 (+ 25,000 / 125,000)
    .venv/bin/python bench/graph_insights.py --full       # the issue's size: 50,000 / 250,000

Run it against a Neo4j of its own with a larger heap (the full size holds 300,000 entities and
1.5 million relations), e.g. NEO4J_LOCAL_PORT=7795 ANAMNESIS_DATA_DIR=$PWD/.local/bench
NEO4J_LOCAL_HEAP=3g .venv/bin/python manage.py neo4j start. `--name N --keep` keeps the two
tenants, and a later run with the same name measures them again without loading.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

START = datetime(2024, 1, 1, tzinfo=UTC)
DAYS = 730
PREDICATES = ["WORKS_FOR", "LOCATED_IN", "KNOWS", "PART_OF", "USES"]
ENTITIES = """
UNWIND $rows AS row
CREATE (:Entity {uid: row.uid, tenant: $tenant, name: row.name, type: 'Object',
                 status: 'active', aliases: [], created_at: row.created_at})
"""
RELATIONS = """
UNWIND $rows AS row
MATCH (a:Entity {tenant: $tenant, uid: row.s}), (b:Entity {tenant: $tenant, uid: row.o})
CREATE (a)-[r:RELATED_TO {uid: row.uid, tenant: $tenant, predicate: row.p, weight: row.w,
                          first_seen: row.since}]->(b)
SET r.valid_from = row.valid_from, r.valid_to = row.valid_to
"""


def fill(cypher, scope, entities: int, rng: random.Random, batch: int = 5000) -> list[str]:
    uids = [f"{scope.tenant}-{i}" for i in range(entities)]
    created = [START + timedelta(days=DAYS * i / entities) for i in range(entities)]
    for i in range(0, entities, batch):
        rows = [{"uid": uids[j], "name": f"thing {j}", "created_at": created[j]}
                for j in range(i, min(i + batch, entities))]  # fmt: skip
        cypher.write(scope, ENTITIES, rows=rows)
    rows = []
    for k in range(5 * entities):
        s = rng.randrange(entities)
        # A third of the relations point at one of 100 hubs.
        o = rng.randrange(min(100, entities)) if k % 3 == 0 else rng.randrange(entities)
        if o == s:
            o = (s + 1) % entities
        since = max(created[s], created[o])
        roll = rng.random()
        valid_from = since + timedelta(days=rng.randrange(1, 90)) if roll < 0.1 else None
        valid_to = since + timedelta(days=rng.randrange(30, 400)) if roll > 0.8 else None
        rows.append({"uid": uuid.uuid4().hex, "s": uids[s], "o": uids[o],
                     "p": PREDICATES[k % len(PREDICATES)], "w": float(rng.randint(1, 5)),
                     "since": since, "valid_from": valid_from, "valid_to": valid_to})  # fmt: skip
        if len(rows) >= batch:
            cypher.write(scope, RELATIONS, rows=rows)
            rows = []
    if rows:
        cypher.write(scope, RELATIONS, rows=rows)
    return uids


def timed(call) -> tuple[float, object]:
    started = time.perf_counter()
    answer = call()
    return (time.perf_counter() - started) * 1000, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=5000, help="the measured tenant's")
    parser.add_argument("--full", action="store_true", help="the issue's size: 50,000 entities")
    parser.add_argument("--name", default="", help="tenant name; reused when already loaded")
    parser.add_argument("--keep", action="store_true", help="leave the tenants in the graph")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--skip", nargs="*", default=[], help="algorithms not to time")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.cache import cache

    from apps.graph import algorithms, cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.insights import selectors
    from apps.insights.connection import graph_connection

    schema_install()
    rng = random.Random(17)
    run = args.name or uuid.uuid4().hex[:8]
    scope = Scope(tenant=f"bench-insights-{run}", actor="bench", actor_kind="system")
    big = Scope(tenant=f"bench-insights-{run}-big", actor="bench", actor_kind="system")
    n = 50000 if args.full else args.entities
    try:
        started = time.perf_counter()
        uids = [f"{scope.tenant}-{i}" for i in range(n)]
        if not loaded(cypher, scope, n):
            fill(cypher, scope, n, rng)
            print(
                f"loaded the measured tenant in {time.perf_counter() - started:.0f} s", flush=True
            )
        if not loaded(cypher, big, 5 * n):
            fill(cypher, big, 5 * n, rng)
        print(f"{n} entities / {5 * n} relations (+ {5 * n} / {25 * n} in another tenant), "
              f"loaded in {time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
        at = START + timedelta(days=DAYS // 2)
        questions = {
            "groups": lambda at=None: selectors.graph_groups(scope, at=at),
            "important": lambda at=None: selectors.graph_important(scope, at=at),
            "important LOCATED_IN": lambda at=None: selectors.graph_important(
                scope, at=at, predicate="LOCATED_IN"),
            "between": lambda at=None: selectors.graph_between(scope, at=at),
            "communities": lambda at=None: selectors.graph_communities(scope, at=at),
        }  # fmt: skip
        print("\n| algorithm | cold ms | kept ms | at a time ms (never kept) | note |")
        print("| --- | --- | --- | --- | --- |")
        for name, ask in questions.items():
            if name in args.skip:
                continue
            cache.clear()
            cold, answer = timed(ask)
            kept, again = timed(ask)
            assert again["kept"] and not answer["kept"]
            then, _ = timed(lambda ask=ask: ask(at=at))
            note = ""
            if name == "between":
                note = "exact" if answer["exact"] else f"sampled from {answer['sample']} sources"
            print(f"| {name} | {cold:.0f} | {kept:.1f} | {then:.0f} | {note} |")

        times = {None: [], at: []}
        for when in times:
            for _ in range(args.pairs):
                a, b = rng.sample(uids[: n // 2], 2) if when else rng.sample(uids, 2)
                ms, _ = timed(lambda a=a, b=b, when=when: graph_connection(scope, source=a,
                                                                          target=b, at=when))  # fmt: skip
                times[when].append(ms)
        for when, values in times.items():
            q = statistics.quantiles(values, n=20)
            label = "now" if when is None else f"at {when.date()}"
            print(f"connection {label}: p50 {statistics.median(values):.0f} ms, "
                  f"p95 {q[18]:.0f} ms over {len(values)} random pairs")  # fmt: skip

        for name, each in (("measured", scope), ("other", big)):
            size = algorithms.graph_size(each)
            print(f"\nGDS memory estimate of the {name} tenant's projection: "
                  f"{size['bytesMax'] / 2**20:.1f} MB ({size['nodes']} nodes, "
                  f"{size['relations']} relations)")  # fmt: skip
        heap = cypher.system_query(
            "CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes "
            "RETURN attributes.HeapMemoryUsage.value.properties.max AS max"
        )  # fmt: skip
        pool = cypher.system_query(
            "SHOW SETTINGS YIELD name, value WHERE name = 'dbms.memory.transaction.total.max' "
            "RETURN value"
        )  # fmt: skip
        print(f"Neo4j heap max: {heap[0]['max'] / 2**20:.0f} MB; transaction memory pool: "
              f"{pool[0]['value'] if pool else 'unknown'}; tenant bound "
              f"{algorithms.memory_limit_mb(scope)} MB")  # fmt: skip
    finally:
        if not args.keep:
            for each in (scope, big):
                wipe(cypher, each)


def loaded(cypher, scope, entities: int) -> bool:
    """The tenant holds its entities and relations already (a run with --keep and --name)."""
    row = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant}) "
                             "RETURN count(e) AS n, sum(COUNT { (e)-[:RELATED_TO]->() }) AS r")[0]  # fmt: skip
    if row["n"] and (row["n"], row["r"]) != (entities, 5 * entities):
        raise SystemExit(f"{scope.tenant} is half loaded ({row['n']} entities, {row['r']} "
                         "relations): run without --name, or wipe it")  # fmt: skip
    return bool(row["n"])


def wipe(cypher, scope) -> None:
    """Relations first, then entities, in small transactions (a hub's relations are many)."""
    for query in (
        "MATCH (:Entity {tenant: $tenant})-[r]->() WITH r LIMIT 10000 DELETE r RETURN count(*) AS n",
        "MATCH (n) WHERE n.tenant = $tenant WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n",
    ):
        while cypher.write(scope, query)[0]["n"]:
            pass


if __name__ == "__main__":
    main()
