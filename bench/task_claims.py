"""Ready set and claim cost on a small and a large tenant: the ratio shows whether either reads an
index in order (flat) or scans the tasks (grows with them).

Each tenant's tasks are written in bulk with the properties the task service keeps (half DONE,
a quarter waiting on a dependency, a quarter ready, a few kinds; no embeddings, which neither
read touches), then timed through the real selector and service: `ready_set(limit=50)`, and
`check_task_claim` followed by an untimed release. The claim's plan is printed (EXPLAIN), so the
index seeks can be seen. Two tenants in one run, so the ratio is of one machine state.

    NEO4J_LOCAL_PORT=7714 ANAMNESIS_DATA_DIR=$PWD/.local/test .venv/bin/python bench/task_claims.py
    ... bench/task_claims.py --small 100 --large 100000 --repeat 200
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

KINDS = ["crawl", "parse", "write", "default"]
BULK = """
UNWIND $rows AS row
CREATE (t:Task {tenant: $tenant, uid: row.uid, short_id: 't-' + row.uid, kind: row.kind,
                description: 'bench task', status: row.status, waiting: row.waiting,
                created_at: datetime() + duration({seconds: row.i})})
SET t.ready_at = CASE WHEN row.status = 'PENDING' AND row.waiting = 0 THEN t.created_at END
"""
WIPE = "MATCH (t:Task {tenant: $tenant}) WITH t LIMIT 5000 DETACH DELETE t RETURN count(*) AS n"
AGENTS = "MATCH (a:Agent {tenant: $tenant}) DETACH DELETE a"


def tasks_write(scope, count: int) -> None:
    from apps.graph import cypher

    rows = []
    for i in range(count):
        r = i % 4
        status, waiting = ("DONE", 0) if r < 2 else ("PENDING", 1 if r == 2 else 0)
        rows.append({"uid": uuid.uuid4().hex, "i": i, "kind": KINDS[(i // 4) % len(KINDS)],
                     "status": status, "waiting": waiting})  # fmt: skip
    for start in range(0, count, 5000):
        cypher.write(scope, BULK, rows=rows[start : start + 5000])


def timed(fn, repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()

    import django

    django.setup()
    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.tasks import selectors
    from apps.tasks.services import claims

    schema_install()
    results = {}
    for size in (args.small, args.large):
        scope = Scope(tenant=f"bench-claims-{uuid.uuid4().hex[:8]}", actor="agent:bench")
        try:
            t0 = time.perf_counter()
            tasks_write(scope, size)
            print(f"{size} tasks written in {time.perf_counter() - t0:.1f} s")

            def one_claim(scope=scope):
                t0 = time.perf_counter()
                got = claims.check_task_claim(scope, kind="crawl", lease_seconds=60)
                spent = time.perf_counter() - t0
                claims.check_task_release(scope, task=got["uid"])
                return spent

            for _ in range(10):  # warm the plan cache and the page cache
                one_claim()
                selectors.ready_set(scope, limit=50)
            ready = timed(lambda scope=scope: selectors.ready_set(scope, limit=50), args.repeat)
            claim_ms = sorted(one_claim() * 1000 for _ in range(args.repeat))
            claim = (statistics.median(claim_ms), claim_ms[int(len(claim_ms) * 0.95) - 1])
            results[size] = (ready, claim)
            print(f"{size:>7} tasks: ready set p50 {ready[0]:.1f} ms p95 {ready[1]:.1f} ms; "
                  f"claim p50 {claim[0]:.1f} ms p95 {claim[1]:.1f} ms")  # fmt: skip
            if size == args.large:
                _plan_print(scope)
        finally:
            cypher.write(scope, AGENTS)
            while cypher.write(scope, WIPE)[0]["n"]:
                pass
    (r_small, c_small), (r_large, c_large) = results[args.small], results[args.large]
    print(f"ratio large/small (p50): ready set {r_large[0] / r_small[0]:.2f}, "
          f"claim {c_large[0] / c_small[0]:.2f}")  # fmt: skip


def _plan_print(scope) -> None:
    """The operators of the claim's plan: index seeks under a Limit or a small Top, no scan."""
    from apps.graph.connection import graph_driver
    from apps.tasks.services import claims

    with graph_driver().session() as session:
        result = session.run("EXPLAIN " + claims.CLAIM.strip(), tenant=scope.tenant, kind="crawl",
                             now=claims.clock(), until=claims.clock(), actor="agent:profile",
                             epoch=claims.EPOCH)  # fmt: skip
        plan = result.consume().plan

    def walk(op, depth=0):
        detail = str(op.get("args", {}).get("Details", ""))[:100]
        print(f"  {'  ' * depth}{op['operatorType']} {detail}")
        for child in op.get("children", []):
            walk(child, depth + 1)

    print("claim plan:")
    walk(plan)


if __name__ == "__main__":
    main()
