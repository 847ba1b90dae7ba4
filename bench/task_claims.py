"""Ready set and claim cost on a small and a large tenant: the ratio shows whether either reads an
index in order (flat) or scans the tasks (grows with them).

Each tenant's tasks are written in bulk with the properties the task service keeps (half DONE,
a quarter waiting on a dependency, a quarter ready, a few kinds; no embeddings, which neither
read touches), then timed through the real selector and service: `ready_set(limit=20)`, and
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

# The small tenant of 100 has 25 ready tasks: both sizes must return as many rows.
READY_LIMIT = 20
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


def db_hits(scope, query: str, **params) -> int:
    """Database hits of one run of `query` (PROFILE): what it read, whatever the machine's load."""
    from apps.graph.connection import graph_driver

    with graph_driver().session() as session:
        profile = session.run("PROFILE " + query.strip(), tenant=scope.tenant, **params)
        profile = profile.consume().profile

    def total(op):
        return op.get("dbHits", 0) + sum(total(c) for c in op.get("children", []))

    return total(profile)


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
    sizes = (args.small, args.large)
    scopes = {n: Scope(tenant=f"bench-claims-{uuid.uuid4().hex[:8]}", actor="agent:bench")
              for n in sizes}  # fmt: skip
    samples = {n: {"ready": [], "claim": []} for n in sizes}
    try:
        for size, scope in scopes.items():
            t0 = time.perf_counter()
            tasks_write(scope, size)
            print(f"{size} tasks written in {time.perf_counter() - t0:.1f} s")

        def one_round(scope, into):
            t0 = time.perf_counter()
            selectors.ready_set(scope, limit=READY_LIMIT)
            into["ready"].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            got = claims.check_task_claim(scope, kind="crawl", lease_seconds=60)
            into["claim"].append((time.perf_counter() - t0) * 1000)
            claims.check_task_release(scope, task=got["uid"])

        for _ in range(10):  # warm the plan cache and the page cache
            for size in sizes:
                one_round(scopes[size], {"ready": [], "claim": []})
        # Interleaved, so both sizes see the same machine load.
        for _ in range(args.repeat):
            for size in sizes:
                one_round(scopes[size], samples[size])
        p50 = {}
        for size in sizes:
            scope = scopes[size]
            hits_ready = db_hits(scope, selectors.READY, limit=READY_LIMIT)
            now = claims.clock()
            hits_claim = db_hits(scope, claims.CLAIM, kind="crawl", now=now, until=now,
                                 actor="agent:profile", epoch=claims.EPOCH)  # fmt: skip
            r, c = sorted(samples[size]["ready"]), sorted(samples[size]["claim"])
            p50[size] = (statistics.median(r), statistics.median(c))
            print(f"{size:>7} tasks: ready set p50 {p50[size][0]:.1f} ms "
                  f"p95 {r[int(len(r) * 0.95) - 1]:.1f} ms, {hits_ready} db hits; "
                  f"claim p50 {p50[size][1]:.1f} ms p95 {c[int(len(c) * 0.95) - 1]:.1f} ms, "
                  f"{hits_claim} db hits")  # fmt: skip
        _plan_print(scopes[args.large])
        print(f"ratio large/small (p50): ready set {p50[args.large][0] / p50[args.small][0]:.2f}, "
              f"claim {p50[args.large][1] / p50[args.small][1]:.2f}")  # fmt: skip
    finally:
        for scope in scopes.values():
            cypher.write(scope, AGENTS)
            while cypher.write(scope, WIPE)[0]["n"]:
                pass


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
