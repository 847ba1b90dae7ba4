"""Server time and Cypher round trips of the reviewer pages on a large tenant.

    .venv/bin/python bench/review_pages.py                       # 5,000 entities, 200 pairs
    .venv/bin/python bench/review_pages.py --entities 50000 --pairs 1000

Runs against the configured Neo4j and SQLite (ANAMNESIS_DATA_DIR, NEO4J_LOCAL_PORT or
NEO4J_BOLT_URL; `manage.py neo4j start` first). It creates a throwaway tenant and removes its graph
data at the end (--keep to keep it).

Loading: a bench-only bulk loader (batched UNWIND) writes entities, chunks with MENTIONS,
RELATED_TO edges and pending SAME_AS pairs in the shapes the resolution services write. Going
through the gate for 50k entities would embed 50k names and take far longer than the pages being
measured; the pages read only what the loader writes. Timing goes through Django's test client as
a logged-in reviewer, so it includes routing, middleware, the selectors and template rendering.
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

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from apps.graph import cypher  # noqa: E402
from apps.graph.cypher import count_round_trips  # noqa: E402
from apps.graph.schema import schema_install  # noqa: E402
from apps.graph.scope import Scope  # noqa: E402

TYPES = ("Person", "Organization", "Location", "Event", "Object")
BATCH = 5000

LOAD_ENTITIES = """
UNWIND $rows AS row
CREATE (e:Entity {uid: row.uid, tenant: $tenant, name: row.name, norm_name: row.norm,
                  type: row.type, aliases: [], norm_aliases: [], description: row.description,
                  status: 'active', created_at: datetime(), updated_at: datetime()})
WITH e, row
CREATE (c:Chunk {uid: row.chunk, tenant: $tenant, text: row.text, created_at: datetime()})
CREATE (c)-[:MENTIONS {tenant: $tenant, surface: row.name, start: 0, end: size(row.name),
                       created_at: datetime()}]->(e)
"""

LOAD_RELATIONS = """
UNWIND $rows AS row
MATCH (s:Entity {uid: row.s}) USING INDEX s:Entity(uid) WHERE s.tenant = $tenant
MATCH (o:Entity {uid: row.o}) USING INDEX o:Entity(uid) WHERE o.tenant = $tenant
CREATE (s)-[:RELATED_TO {uid: row.uid, tenant: $tenant, predicate: row.p, weight: row.w,
                         confidence: 0.8, observations: [], chunks: [], first_seen: datetime(),
                         last_seen: datetime()}]->(o)
"""

LOAD_PAIRS = """
UNWIND $rows AS row
MATCH (a:Entity {uid: row.a}) USING INDEX a:Entity(uid) WHERE a.tenant = $tenant
MATCH (b:Entity {uid: row.b}) USING INDEX b:Entity(uid) WHERE b.tenant = $tenant
CREATE (a)-[:SAME_AS {uid: row.uid, tenant: $tenant, status: 'pending', score: row.score,
                      signals: row.signals, reason: row.reason, agent: 'bench',
                      created_at: datetime()}]->(b)
"""


WIPE = """
MATCH (n) WHERE n.tenant = $tenant
WITH n LIMIT 5000
DETACH DELETE n
RETURN count(*) AS n
"""


def batched(rows, size=BATCH):
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def load(scope: Scope, entities: int, pairs: int, relations_per: int) -> list[str]:
    rng = random.Random(7)
    uids = [uuid.uuid4().hex for _ in range(entities)]
    started = time.perf_counter()
    rows = [
        {"uid": u, "name": f"Entity {i}", "norm": f"entity {i}", "type": TYPES[i % 5],
         "description": f"Bench entity number {i}.", "chunk": uuid.uuid4().hex,
         "text": f"Entity {i} appears in this sentence. Another sentence follows."}
        for i, u in enumerate(uids)
    ]  # fmt: skip
    for batch in batched(rows):
        cypher.write(scope, LOAD_ENTITIES, rows=batch)
    rels = [
        {"s": uids[i], "o": uids[rng.randrange(entities)], "p": "RELATED", "w": rng.randint(1, 5),
         "uid": uuid.uuid4().hex}
        for i in range(entities) for _ in range(relations_per)
    ]  # fmt: skip
    for batch in batched(rels):
        cypher.write(scope, LOAD_RELATIONS, rows=batch)
    pair_rows = [
        {"a": uids[2 * i], "b": uids[2 * i + 1], "uid": uuid.uuid4().hex,
         "score": round(rng.uniform(0.85, 0.95), 4),
         "signals": '{"exact": 0.0, "fuzzy": 0.9, "semantic": 0.9}', "reason": "bench pair"}
        for i in range(pairs)
    ]  # fmt: skip
    for batch in batched(pair_rows):
        cypher.write(scope, LOAD_PAIRS, rows=batch)
    # Index population runs after the writes commit; measuring during it would time the loader.
    cypher.system_query("CALL db.awaitIndexes(600)")
    print(f"loaded {entities:,} entities, {len(rels):,} relations, {pairs:,} pending pairs "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    return [p["uid"] for p in pair_rows]


def measure(client: Client, path: str, repeat: int, **headers) -> tuple[list[float], int]:
    for _ in range(3):  # warm: plans cached and JIT-compiled, as on a server in use
        client.get(path, **headers)
    times, trips = [], 0
    for _ in range(repeat):
        with count_round_trips() as counter:
            started = time.perf_counter()
            response = client.get(path, **headers)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        trips = counter[0]
    return times, trips


def report(label: str, times: list[float], trips: int) -> None:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"{label:<28} median {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms   "
          f"round trips {trips}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=5000)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--relations-per-entity", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the bench tenant's graph")
    args = parser.parse_args()

    from django.contrib.auth import get_user_model

    from apps.tenants import services
    from apps.tenants.models import Role

    call_command("migrate", verbosity=0)
    schema_install()
    slug = f"bench-{uuid.uuid4().hex[:8]}"
    tenant = services.tenant_create(slug=slug, name=slug)
    scope = Scope(tenant=tenant.uid, actor="bench", actor_kind="system")
    user = get_user_model().objects.create_user(username=slug, password=slug)
    services.membership_grant(user=user, tenant=tenant, role=Role.REVIEWER)
    try:
        pair_uids = load(scope, args.entities, args.pairs, args.relations_per_entity)
        client = Client()
        client.login(username=slug, password=slug)
        report("queue page (full)", *measure(client, "/review/", args.repeat))
        report("queue filtered + by score",
               *measure(client, "/review/?type=Person&min_score=0.9&order=score", args.repeat))  # fmt: skip
        times, trips = [], 0
        for uid in pair_uids[: args.repeat]:
            t, trips = measure(client, f"/review/pairs/{uid}/", 1, HTTP_HX_REQUEST="true")
            times += t
        report("pair view (htmx fragment)", times, trips)
        # A decision answers with the next pair and the refreshed queue: what the reviewer waits for.
        for label, action, uids in (("confirm (y), next pair", "confirm", pair_uids[-args.repeat:]),
                                    ("reject (n), next pair", "reject",
                                     pair_uids[-2 * args.repeat:-args.repeat])):  # fmt: skip
            times = []
            for uid in uids:
                with count_round_trips() as counter:
                    started = time.perf_counter()
                    response = client.post(f"/review/pairs/{uid}/{action}", HTTP_HX_REQUEST="true")
                    times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, (action, response.status_code)
            report(label, times, counter[0])
        report("review API list", *measure_api(tenant, args.repeat))
    finally:
        if not args.keep:
            while cypher.write(scope, WIPE)[0]["n"]:
                pass
        user.delete()
        tenant.delete()


def measure_api(tenant, repeat):
    from rest_framework.test import APIClient

    from apps.tenants import services

    _, raw = services.api_key_issue(tenant=tenant, name="bench", scopes=["review"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    return measure(client, "/api/v1/reviews?status=pending", repeat)


if __name__ == "__main__":
    main()
