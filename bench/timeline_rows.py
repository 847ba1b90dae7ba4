"""Versioned entities benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/timeline_rows.py                  # the issue's sizes, a few minutes
    .venv/bin/python bench/timeline_rows.py --rows 500 --states 1000 --runs 3 --reads 200

Uses the Neo4j of the data dir (ANAMNESIS_DATA_DIR / NEO4J_LOCAL_PORT or NEO4J_BOLT_URL) and a
tenant of its own, deleted at the end. Everything goes through the real services:
- one batch of --rows changed rows (each entity had one State) against one batch of --rows late
  rows (each falls between two States of its entity), per run, and their ratio;
- as_of (a time in the middle) and history(last=20) of an entity with 1 State and one with
  --states States: the median of --reads calls each, and the ratio; and history(last=20) of an
  entity with 20 States against --states States (the same number of States returned).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
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
from apps.timeline import selectors  # noqa: E402
from apps.timeline.kinds import check_kind_declare  # noqa: E402
from apps.timeline.services import check_rows_write  # noqa: E402

BATCH = 500
T0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
WIPE = """
MATCH (n) WHERE n.tenant = $tenant
WITH n LIMIT 5000
DETACH DELETE n
RETURN count(*) AS n
"""


def stamp(at: dt.datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def rows_for(prefix: str, n: int, at: dt.datetime, status: str) -> list[dict]:
    return [
        {"kind": "Sensor", "key": f"{prefix}{i}", "t": stamp(at),
         "values": {"status": status, "reading": i}, "relations": {"IN": f"room{i % 50}"}}
        for i in range(n)
    ]  # fmt: skip


def write(scope: Scope, rows: list[dict]) -> float:
    started = time.perf_counter()
    for start in range(0, len(rows), BATCH):
        receipts = check_rows_write(scope, rows=rows[start : start + BATCH])
        refused = [r for r in receipts if r["status"] == "refused"]
        if refused:
            raise SystemExit(f"refused: {refused[:3]}")
    return time.perf_counter() - started


def batches(scope: Scope, n: int, run: int) -> tuple[float, float]:
    day = dt.timedelta(days=1)
    write(scope, rows_for(f"c{run}-", n, T0, "ok"))
    changed = write(scope, rows_for(f"c{run}-", n, T0 + 2 * day, "hot"))
    write(scope, rows_for(f"l{run}-", n, T0, "ok") + rows_for(f"l{run}-", n, T0 + 2 * day, "hot"))
    late = write(scope, rows_for(f"l{run}-", n, T0 + day, "warm"))
    return changed, late


def medians_ms(calls: dict, rounds: int) -> dict:
    """The median time of each call, the calls interleaved round by round (the machine's load
    falls on all of them alike)."""
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            started = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - started)
    return {name: statistics.median(t) * 1000 for name, t in times.items()}


def db_hits(scope: Scope, query: str, **params) -> int:
    """Database hits of one run of `query` (PROFILE): what it read, whatever the machine's load."""
    with graph_driver().session() as session:
        profile = session.run("PROFILE " + query, tenant=scope.tenant, **params).consume().profile

    def total(op: dict) -> int:
        return op.get("dbHits", 0) + sum(total(c) for c in op.get("children", []))

    return total(profile)


def reads(scope: Scope, states: int, count: int) -> None:
    write(scope, [{**rows_for("one", 1, T0, "ok")[0], "key": "one"}])  # not "one0"
    long = [
        {"kind": "Sensor", "key": "long", "t": stamp(T0 + dt.timedelta(minutes=i)),
         "values": {"status": f"s{i}", "reading": i}, "relations": {"IN": f"room{i % 3}"}}
        for i in range(states)
    ]  # fmt: skip
    write(scope, long)
    write(scope, [{**row, "key": "twenty"} for row in long[:20]])
    at = {
        "one": T0 + dt.timedelta(hours=1),
        "long": T0 + dt.timedelta(minutes=states // 2, seconds=30),
    }
    calls = {}
    for key in ("one", "long"):
        calls[f"as_of {key}"] = lambda k=key: selectors.as_of(scope, kind="Sensor", key=k, at=at[k])
        calls[f"history {key}"] = lambda k=key: selectors.history(scope, kind="Sensor", key=k,
                                                                  last=20)  # fmt: skip
    calls["history twenty"] = lambda: selectors.history(scope, kind="Sensor", key="twenty", last=20)
    medians_ms(calls, 5)  # warm the plans
    figures = medians_ms(calls, count)
    hits = {
        f"{name} {key}": db_hits(scope, query, kind="Sensor", key=key, at=at[key], last=20)
        for name, query in (("as_of", selectors.AS_OF), ("history", selectors.HISTORY))
        for key in ("one", "long")
    }  # fmt: skip
    got = len(selectors.history(scope, kind="Sensor", key="long"))
    assert len(selectors.history(scope, kind="Sensor", key="one")) == 1
    print(f"entity with {got} States vs 1 State, median of {count} calls each, interleaved:")
    for name in ("as_of", "history"):
        one, many = figures[f"{name} one"], figures[f"{name} long"]
        label = "history(last=20)" if name == "history" else name
        print(f"  {label}: 1 State {one:.2f} ms ({hits[f'{name} one']} db hits), {got} States "
              f"{many:.2f} ms ({hits[f'{name} long']} db hits), ratio {many / one:.2f}")  # fmt: skip
    twenty, many = figures["history twenty"], figures["history long"]
    print(f"  history(last=20), the same 20 States returned: an entity with 20 States "
          f"{twenty:.2f} ms, {got} States {many:.2f} ms, ratio {many / twenty:.2f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=500)
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    graph_connect()
    schema_install()
    tenant = f"bench-timeline-{uuid.uuid4().hex[:8]}"
    scope = Scope(tenant=tenant, actor="bench", actor_kind="system",
                  permissions=frozenset({"admin", "review"}))  # fmt: skip
    try:
        check_kind_declare(scope, kind={"name": "Room", "key": "code"})
        check_kind_declare(scope, kind={
            "name": "Sensor", "key": "serial",
            "values": {"status": "string", "reading": "integer"},
            "relations": {"IN": {"target": "Room", "one": True}},
        })  # fmt: skip
        print(f"one batch of {args.rows} rows (each entity had States already), one query "
              f"transaction per batch:")  # fmt: skip
        for run in range(args.runs):
            changed, late = batches(scope, args.rows, run)
            print(f"  run {run + 1}: changed {changed * 1000:.0f} ms, late {late * 1000:.0f} ms, "
                  f"ratio late/changed {late / changed:.2f}")  # fmt: skip
        reads(scope, args.states, args.reads)
    finally:
        while cypher.write(scope, WIPE)[0]["n"]:
            pass


if __name__ == "__main__":
    main()
