"""The graph views' server time (apps/insights/view_selectors.py) on one tenant of N entities and
5N relations (a third of them pointing at 100 hubs), written in bulk as bench/graph_insights.py
writes them: p50/p95/max of the entity page's neighbourhood (40 per node) over random entities
and over the hubs, and of the page "Graph"'s picture (15 seeds, 12 per node, hubs as seeds).

    .venv/bin/python bench/graph_views.py                 # 50,000 entities, 250,000 relations
    .venv/bin/python bench/graph_views.py --entities 5000

Run it against a Neo4j of its own (NEO4J_LOCAL_PORT, ANAMNESIS_DATA_DIR); the tenant is wiped
at the end.
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


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return f"p50 {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=50_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()

    import django

    django.setup()
    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.insights.view_selectors import graph_neighbourhood
    from bench.graph_insights import fill, wipe

    schema_install()
    rng = random.Random(29)
    scope = Scope(tenant=f"bench-views-{uuid.uuid4().hex[:8]}", actor="bench", actor_kind="system")
    try:
        started = time.perf_counter()
        uids = fill(cypher, scope, args.entities, rng)
        print(f"loaded {args.entities} entities, {5 * args.entities} relations in "
              f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
        for _ in range(20):  # warm the page cache and the query plans
            graph_neighbourhood(scope, uids=[rng.choice(uids)])
        cases = {
            "entity page, a random entity": lambda: [rng.choice(uids)],
            "entity page, a hub": lambda: [uids[rng.randrange(100)]],
            "page Graph, 15 hubs as seeds": lambda: rng.sample(uids[:100], 15),
        }
        for name, seeds in cases.items():
            per_node = 12 if "15" in name else 40
            times, sizes = [], []
            for _ in range(args.samples):
                chosen = seeds()
                started = time.perf_counter()
                answer = graph_neighbourhood(scope, uids=chosen, per_node=per_node)
                ms = (time.perf_counter() - started) * 1000
                times.append(ms)
                sizes.append(len(answer["nodes"]))
            print(f"{name}: {spread(times)} ({statistics.median(sizes):.0f} nodes)", flush=True)
    finally:
        wipe(cypher, scope)


if __name__ == "__main__":
    main()
