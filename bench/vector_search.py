"""Vector search for a small tenant beside a large one: latency, recall against exact search, and
how often an answer comes back short.

20,000 unit vectors (384 dimensions, around 50 shared topics, so tenants' vectors are neighbours)
over 10 tenants, one of them holding more than half; queries are the small tenants' own topics.
On Neo4j 2026 the index declares `tenant` as a filter property and the query is the Cypher 25
`SEARCH ... WHERE n.tenant = $t LIMIT 10`; on Neo4j 5.26 (which cannot filter inside the index)
it is what this project did there: `db.index.vector.queryNodes` for 100, then filter to the
tenant. Runs on the configured Neo4j (NEO4J_BOLT_URL or the local one) under a label of its own,
removed afterwards.

    .venv/bin/python bench/vector_search.py
    .venv/bin/python bench/vector_search.py --vectors 5000 --queries 100
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

DIMS = 384
TOPICS = 50
TOP = 10
OLD_OVERSAMPLE = 100  # what the 5.26 code asked the index for before filtering by tenant
# Label BenchVector and index bench_vector are written out in each statement (no text from
# outside ever reaches the Cypher); LIMIT 10 is TOP, 100 is OLD_OVERSAMPLE.
WRITE = """
UNWIND $rows AS row
CREATE (n:BenchVector {tenant: row.tenant, i: row.i})
WITH n, row CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
"""
FILTERED = """
CYPHER 25 MATCH (n:BenchVector)
  SEARCH n IN (VECTOR INDEX bench_vector FOR $q WHERE n.tenant = $tenant LIMIT 10)
  SCORE AS score
RETURN n.i AS i ORDER BY score DESC
"""
POST_FILTERED = """
CALL db.index.vector.queryNodes('bench_vector', 100, $q) YIELD node, score
WITH node, score WHERE node.tenant = $tenant
RETURN node.i AS i ORDER BY score DESC LIMIT 10
"""


def vectors_make(rng: np.random.Generator, count: int, centers: np.ndarray) -> np.ndarray:
    picked = centers[rng.integers(0, len(centers), count)]
    v = picked + rng.normal(0, 0.9 / np.sqrt(DIMS), (count, DIMS))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--vectors", type=int, default=20_000)
    ap.add_argument("--tenants", type=int, default=10)
    ap.add_argument("--large-share", type=float, default=0.55)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()

    import django

    django.setup()
    from apps.graph.connection import graph_driver

    driver = graph_driver()
    version = driver.execute_query(
        "CALL dbms.components() YIELD versions RETURN versions[0] AS v"
    ).records[0]["v"]
    filtered = not version.startswith("5.")
    rng = np.random.default_rng(args.seed)
    centers = vectors_make(rng, TOPICS, np.zeros((1, DIMS)) + rng.normal(0, 1, (TOPICS, DIMS)))
    large = int(args.vectors * args.large_share)
    small = (args.vectors - large) // (args.tenants - 1)
    sizes = {"large": large, **{f"small{i}": small for i in range(1, args.tenants)}}
    data = {t: vectors_make(rng, n, centers) for t, n in sizes.items()}

    wipe(driver)
    # Index DDL takes no $parameters: both statements are written out whole.
    if filtered:
        driver.execute_query(
            "CYPHER 25 CREATE VECTOR INDEX bench_vector FOR (n:BenchVector) ON n.embedding "
            "WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: 384, "
            "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}"
        )
    else:
        driver.execute_query(
            "CREATE VECTOR INDEX bench_vector FOR (n:BenchVector) ON n.embedding "
            "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}"
        )
    started = time.perf_counter()
    for tenant, vectors in data.items():
        for at in range(0, len(vectors), 1000):
            rows = [{"tenant": tenant, "i": at + j, "vector": v.tolist()}
                    for j, v in enumerate(vectors[at : at + 1000])]  # fmt: skip
            driver.execute_query(WRITE, rows=rows)
    driver.execute_query("CALL db.awaitIndexes(600)")
    load_s = time.perf_counter() - started

    try:
        query = FILTERED if filtered else POST_FILTERED
        tenant = "small1"
        own = data[tenant]
        probes = vectors_make(rng, args.queries, centers)
        for q in probes[:20]:  # warm-up: plans cached, index pages read
            driver.execute_query(query, q=q.tolist(), tenant=tenant)
        times, recalls, short = [], [], 0
        for q in probes:
            exact = set(np.argsort(-(own @ q))[:TOP].tolist())
            began = time.perf_counter()
            records = driver.execute_query(query, q=q.tolist(), tenant=tenant).records
            times.append((time.perf_counter() - began) * 1000)
            got = [r["i"] for r in records]
            short += len(got) < TOP
            recalls.append(len(exact & set(got)) / TOP)
        times.sort()
        print(
            f"Neo4j {version}: {'SEARCH ... WHERE tenant' if filtered else 'queryNodes(100) + filter'}"
        )
        print(f"  {args.vectors} vectors, {args.tenants} tenants (large {large}, small {small} each), "
              f"loaded in {load_s:.1f} s")  # fmt: skip
        print(f"  small tenant top-{TOP}, {args.queries} queries: "
              f"p50 {statistics.median(times):.2f} ms, p95 {times[int(0.95 * len(times)) - 1]:.2f} ms, "
              f"recall {statistics.mean(recalls):.3f}, short answers {short / len(probes):.0%}")  # fmt: skip
    finally:
        wipe(driver)


def wipe(driver) -> None:
    with driver.session() as session:  # IN TRANSACTIONS needs an implicit transaction
        session.run("MATCH (n:BenchVector) CALL (n) { DELETE n } IN TRANSACTIONS").consume()
    driver.execute_query("DROP INDEX bench_vector IF EXISTS")


if __name__ == "__main__":
    main()
