"""similar() by shared relations at two sizes in one run: prints figures, asserts nothing.

    .venv/bin/python bench/similar_by_relations.py                       # 1k then 50k entities
    .venv/bin/python bench/similar_by_relations.py --small 1000 --large 50000 --calls 200

Uses the Neo4j of the data dir (ANAMNESIS_DATA_DIR / NEO4J_LOCAL_PORT or NEO4J_BOLT_URL) and
tenants of its own, deleted at the end. Everything is written through the real services: devices
in rooms of about 10 devices and used by 2 of the teams of about 40 users (the neighbourhood of a
device keeps its size as the graph grows, as rooms and teams do in a real one); every fifth
device has moved rooms once, so windows of the past are read too. The measured tenant's devices
grow from --small to --large and another tenant's with them, --others as many (the whole
database grows, not the tenant alone). At each size: the median of --calls similar() calls over random
devices, and the database hits of one call (PROFILE); then the ratio large/small.
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

import django  # noqa: E402

django.setup()

from apps.graph import cypher  # noqa: E402
from apps.graph.connection import graph_connect, graph_driver  # noqa: E402
from apps.graph.schema import schema_install  # noqa: E402
from apps.graph.scope import Scope  # noqa: E402
from apps.timeline import similar as similar_module  # noqa: E402
from apps.timeline.kinds import check_kind_declare  # noqa: E402
from apps.timeline.services import check_rows_write  # noqa: E402

BATCH = 500
T0, T1 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
WIPE = """
MATCH (n) WHERE n.tenant = $tenant
WITH n LIMIT 5000
DETACH DELETE n
RETURN count(*) AS n
"""


def device_rows(start: int, stop: int, t: str, *, moved: bool = False) -> list[dict]:
    rows, teams = [], stop // 40 + 1
    for i in range(start, stop):
        if moved and i % 5:
            continue
        room = (i // 10 + (1 if moved else 0)) * 7919 % max(stop // 10, 1)
        rows.append({
            "kind": "Device", "key": f"d{i}", "t": t, "values": {"status": "ok"},
            "relations": {"LOCATED_IN": f"r{i // 10}" if not moved else f"r{room}-m",
                          "USED_BY": sorted({f"t{i % teams}", f"t{(i * 31) % teams}"})},
        })  # fmt: skip
    return rows


def grow(scope: Scope, start: int, stop: int) -> None:
    for t, moved in ((T0, False), (T1, True)):
        rows = device_rows(start, stop, t, moved=moved)
        for at in range(0, len(rows), BATCH):
            receipts = check_rows_write(scope, rows=rows[at : at + BATCH])
            refused = [r for r in receipts if r["status"] == "refused"]
            if refused:
                raise SystemExit(f"refused: {refused[:3]}")


def declare(scope: Scope) -> None:
    check_kind_declare(scope, kind={"name": "Room", "key": "code"})
    check_kind_declare(scope, kind={"name": "Team", "key": "name", "type": "Organization"})
    check_kind_declare(scope, kind={
        "name": "Device", "key": "serial", "values": {"status": "string"},
        "relations": {"LOCATED_IN": {"target": "Room", "one": True},
                      "USED_BY": {"target": "Team", "one": False}},
    })  # fmt: skip


def db_hits(scope: Scope, key: str) -> int:
    with graph_driver().session() as session:
        profile = session.run(
            "PROFILE " + similar_module.SIMILAR, tenant=scope.tenant, kind="Device", key=key,
            through=["LOCATED_IN", "USED_BY"], per_target=similar_module.PER_TARGET, limit=20,
        ).consume().profile  # fmt: skip

    def total(op: dict) -> int:
        return op.get("dbHits", 0) + sum(total(c) for c in op.get("children", []))

    return total(profile)


def measure(scope: Scope, size: int, calls: int) -> tuple[float, float, int]:
    rng = random.Random(size)
    keys = [f"d{rng.randrange(size)}" for _ in range(calls)]
    for key in keys[:20]:  # warm the plans and the page cache
        similar_module.similar(scope, kind="Device", key=key)
    times, found = [], 0
    for key in keys:
        started = time.perf_counter()
        found += len(similar_module.similar(scope, kind="Device", key=key))
        times.append(time.perf_counter() - started)
    hits = statistics.median(db_hits(scope, key) for key in keys[:15])
    return statistics.median(times) * 1000, found / calls, int(hits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=50000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument(
        "--others",
        type=float,
        default=0.5,
        help="the other tenant's devices, as a share of the measured one's",
    )
    args = parser.parse_args()
    graph_connect()
    schema_install()
    scopes = [
        Scope(tenant=f"bench-similar-{name}-{uuid.uuid4().hex[:8]}", actor="bench",
              actor_kind="system", permissions=frozenset({"admin"}))
        for name in ("measured", "other")
    ]  # fmt: skip
    measured = scopes[0]
    figures = {}
    try:
        for scope in scopes:
            declare(scope)
        done = 0
        for size in (args.small, args.large):
            started = time.perf_counter()
            grow(measured, done, size)
            grow(scopes[1], int(done * args.others), int(size * args.others))
            done = size
            print(f"{size} devices in the measured tenant, {int(size * args.others)} in another, "
                  f"written in {time.perf_counter() - started:.0f} s")  # fmt: skip
            figures[size] = measure(measured, size, args.calls)
            ms, results, hits = figures[size]
            print(f"  similar(): median {ms:.2f} ms of {args.calls} calls, {results:.1f} results "
                  f"a call, {hits} db hits (median of 15)")  # fmt: skip
        small, large = figures[args.small][0], figures[args.large][0]
        print(f"ratio {args.large} / {args.small}: {large / small:.2f} (goal <= 1.5)")
    finally:
        for scope in scopes:
            while cypher.write(scope, WIPE)[0]["n"]:
                pass


if __name__ == "__main__":
    main()
