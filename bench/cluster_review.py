"""Server time of cluster decisions: a firm split into six fragments decided in one request.

    .venv/bin/python bench/cluster_review.py                     # 10 firms, 2 rounds each
    .venv/bin/python bench/cluster_review.py --firms 20 --rounds 3

Runs against the configured Neo4j and SQLite (ANAMNESIS_DATA_DIR, NEO4J_LOCAL_PORT or
NEO4J_BOLT_URL; `manage.py neo4j start` first). It makes a throwaway tenant and removes its graph
data at the end (--keep to keep it).

Loading goes through the agents' API, as an agent writes: each fragment is one POST
/api/v1/facts (the firm's name variant, its description, a city it is based in, and for two of
them a phone, so the cluster holds a conflicting value), and the gate leaves the fragments
pending against each other. A firm whose fragments did not become one cluster of six is left
out (said in the output). Each round decides every firm's cluster through POST
/api/v1/reviews/clusters/{id}/decision, accept, then split (two groups of three), then reject,
each followed by its undo (POST .../undo), which gives the same cluster back for the next
decision. Server time is the time around the request in the process (Django's test client:
routing, middleware, key check, the service, the answer), warm: one round of each kind runs
before the timed ones.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

import django  # noqa: E402

django.setup()

from rest_framework.test import APIClient  # noqa: E402

from apps.graph import cypher  # noqa: E402
from apps.graph.cypher import count_round_trips  # noqa: E402
from bench.bench_tenant import bench_tenant  # noqa: E402

# Nine- and ten-letter names unlike each other, so only one firm's fragments pair up.
FIRMS = ("Quillonex", "Marvexato", "Tesparune", "Brindlewic", "Ozymethra", "Calvorine",
         "Nuvrikola", "Pentagrow", "Sorellium", "Vantorixa", "Hexleyano", "Jubranite",
         "Dromelkin", "Fyrestalo", "Glimmarko", "Yarrowind", "Kestovira", "Lumbarzet",
         "Wickhamos", "Zephyrule")  # fmt: skip
SUFFIXES = ("", " AI", " Labs", " Inc", " Safety", " Studio")
CITIES = ("Paris", "London", "Berlin", "Madrid", "Rome", "Vienna")
# Two fragments of each firm hold phones that differ (a conflicting value in the cluster); no
# phone is another firm's, which would be evidence joining the two firms.
PHONES = {0: "+1 415 555 01{i:02d}", 2: "+44 20 7946 09{i:02d}"}
WIPE = """
MATCH (n) WHERE n.tenant = $tenant
WITH n LIMIT 5000
DETACH DELETE n
RETURN count(*) AS n
"""


def fragment_facts(firm: str, k: int) -> dict:
    name, i = firm + SUFFIXES[k], FIRMS.index(firm)
    city = CITIES[k]
    return {
        "entities": [
            {"name": name, "type": "Organization",
             "description": f"{firm} is a company that designs safety systems for language models.",
             "values": {"phone": PHONES[k].format(i=i)} if k in PHONES else {}},
            {"name": city, "type": "Location", "description": f"The city of {city}.",
             "values": {"url": f"https://en.wikipedia.org/wiki/{city}"}},
        ],
        "relations": [{"subject": name, "predicate": "BASED_IN", "object": city}],
        "source_text": f"{name} is based in {city}.",
    }  # fmt: skip


def load(client: APIClient, firms: list[str]) -> float:
    started = time.perf_counter()
    for firm in firms:
        for k in range(len(SUFFIXES)):
            answer = client.post("/api/v1/facts", fragment_facts(firm, k), format="json")
            assert answer.status_code == 201, answer.json()
    return time.perf_counter() - started


def firm_clusters(client: APIClient, firms: list[str]) -> dict[str, dict]:
    listing = client.get("/api/v1/reviews/clusters", {"limit": 200}).json()
    found = {}
    for row in listing["results"]:
        names = {m["name"] for m in row["members"]}
        firm = next((f for f in firms if names == {f + s for s in SUFFIXES}), None)
        if firm:
            found[firm] = row
    return found


def timed(client: APIClient, path: str, body: dict | None, times: dict, trips: dict, kind: str):
    with count_round_trips() as counter:
        started = time.perf_counter()
        answer = client.post(path, body or {}, format="json")
        elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200, (kind, answer.status_code, answer.json())
    times.setdefault(kind, []).append(elapsed)
    trips[kind] = counter[0]
    return answer.json()


def decide_round(client: APIClient, clusters: dict[str, dict], times: dict, trips: dict) -> None:
    for row in clusters.values():
        path = f"/api/v1/reviews/clusters/{row['id']}"
        members = sorted(row["members"], key=lambda m: m["name"])
        uids = [m["uid"] for m in members]
        bodies = {
            "accept": {"decision": "accept", "expected_members": uids},
            "split": {"decision": "split", "groups": [uids[:3], uids[3:]],
                      "expected_members": uids},
            "reject": {"decision": "reject", "expected_members": uids},
        }  # fmt: skip
        for kind, body in bodies.items():
            timed(client, f"{path}/decision", body, times, trips, kind)
            timed(client, f"{path}/undo", None, times, trips, f"undo {kind}")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def host_speed() -> str:
    out = subprocess.run(["python3", "-m", "timeit", "sum(range(1000000))"],
                         capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--firms", type=int, default=10, help=f"at most {len(FIRMS)}")
    parser.add_argument("--rounds", type=int, default=2, help="timed rounds over every firm")
    parser.add_argument("--keep", action="store_true", help="keep the bench tenant's graph")
    args = parser.parse_args()

    tenant, key, scope = bench_tenant()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    firms = list(FIRMS[: args.firms])
    try:
        seconds = load(client, firms)
        clusters = firm_clusters(client, firms)
        left_out = sorted(set(firms) - set(clusters))
        print(f"loaded {len(firms)} firms of {len(SUFFIXES)} fragments through POST /api/v1/facts "
              f"in {seconds:.1f} s; {len(clusters)} clusters of 6"
              + (f" (left out, not one cluster of 6: {', '.join(left_out)})" if left_out else ""))  # fmt: skip
        pairs = statistics.mean(c["pairs"] for c in clusters.values()) if clusters else 0
        print(f"pending pairs per cluster: {pairs:.1f} (each one a pairwise decision otherwise)")
        decide_round(client, clusters, {}, {})  # warm: plans cached, as on a server in use
        times: dict[str, list[float]] = {}
        trips: dict[str, int] = {}
        for _ in range(args.rounds):
            decide_round(client, clusters, times, trips)
        print(
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {args.rounds} rounds, server time per request:"
        )
        decisions = [t for kind in ("accept", "split", "reject") for t in times.get(kind, [])]
        for kind, values in [*times.items(), ("every decision", decisions)]:
            if values:
                print(f"  {kind:<15} n={len(values):<4} p50 {statistics.median(values):7.1f} ms   "
                      f"p95 {p95(values):7.1f} ms   round trips {trips.get(kind, '-')}")  # fmt: skip
        print(f"host speed: python3 -m timeit 'sum(range(1000000))': {host_speed()}")
    finally:
        if not args.keep:
            while cypher.write(scope, WIPE)[0]["n"]:
                pass
        tenant.delete()


if __name__ == "__main__":
    main()
