"""Conversations benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/conversations.py                      # small, a few minutes here
    .venv/bin/python bench/conversations.py --messages 100000 --users 1000 --entities 20000 \
        --long-session 20000 --erase-messages 20000             # the issue's sizes

Uses the Neo4j of the data dir (ANAMNESIS_DATA_DIR / NEO4J_LOCAL_PORT or NEO4J_BOLT_URL) and a
tenant of its own, deleted at the end. Data is bulk-loaded through batched writes (vectors are
real model vectors of a pool of sentences, jittered, so the indexes see realistic clusters);
the measured calls go through the real services:
- context: p50/p95 of the server time of check_context() without the query's embedding;
- reading the last 20 messages of a long session against a 20-message one (the ratio);
- erasure of a user with --erase-messages messages, in steps, as the worker does it.
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

import numpy as np  # noqa: E402

from apps.conversations import context, erasure, selectors  # noqa: E402
from apps.conversations.input_limits import owner_key  # noqa: E402
from apps.graph import cypher  # noqa: E402
from apps.graph.connection import graph_connect  # noqa: E402
from apps.graph.embeddings import get_embedder  # noqa: E402
from apps.graph.schema import schema_install  # noqa: E402
from apps.graph.scope import Scope  # noqa: E402

TOPICS = ["turbine", "invoice", "boiler", "contract", "shipment", "router", "pump", "lease",
          "payroll", "drone", "forklift", "server", "license", "kiln", "sensor", "ferry"]  # fmt: skip
VERBS = ["is late", "broke down", "needs review", "was approved", "costs too much",
         "arrived damaged", "was renewed", "keeps failing", "got an update", "was moved"]  # fmt: skip
WHERE = ["in Oslo", "at the plant", "for the client", "in hall 3", "before Friday",
         "after the audit", "on the night shift", "in the north depot"]  # fmt: skip

LOAD_MESSAGES = """
UNWIND $rows AS r
MERGE (s:Session {tenant: $tenant, user: r.user, sid: r.sid})
  ON CREATE SET s.uid = randomUUID(), s.created_at = datetime(), s.last_no = 0
SET s.last_no = CASE WHEN r.no > s.last_no THEN r.no ELSE s.last_no END, s.last_at = datetime()
CREATE (m:Message {uid: randomUUID(), tenant: $tenant, user: r.user, sid: r.sid, no: r.no,
  role: r.role, text: r.text, by: r.user, at: datetime(), created_at: datetime(),
  owner_key: r.owner, mention_names: []})
CREATE (m)-[:IN_SESSION]->(s)
WITH m, r WHERE r.vector IS NOT NULL  // float32 vectors, as the app stores them
CALL db.create.setNodeVectorProperty(m, 'embedding', r.vector)
"""
LOAD_NEXT = """
UNWIND $rows AS r
MATCH (a:Message {tenant: $tenant, user: r.user, sid: r.sid, no: r.no - 1})
MATCH (b:Message {tenant: $tenant, user: r.user, sid: r.sid, no: r.no})
CREATE (a)-[:NEXT]->(b)
"""
LOAD_ENTITIES = """
UNWIND $rows AS r
CREATE (e:Entity {uid: r.uid, tenant: $tenant, name: r.name, norm_name: toLower(r.name),
  type: r.type, aliases: [], norm_aliases: [], description: r.description,
  status: 'active', created_at: datetime(), updated_at: datetime()})
WITH e, r CALL db.create.setNodeVectorProperty(e, 'embedding', r.vector)  // float32, as the app
"""
LOAD_RELATIONS = """
UNWIND $rows AS r
MATCH (a:Entity {uid: r.a}) WHERE a.tenant = $tenant
MATCH (b:Entity {uid: r.b}) WHERE b.tenant = $tenant
CREATE (a)-[:RELATED_TO {uid: randomUUID(), tenant: $tenant, predicate: r.predicate,
  confidence: r.confidence, weight: r.weight, first_seen: datetime(),
  last_seen: datetime() - duration({days: r.age})}]->(b)
"""
WIPE = """
MATCH (n) WHERE n.tenant = $tenant
WITH n LIMIT 5000
DETACH DELETE n
RETURN count(*) AS n
"""


def sentence(rng: random.Random) -> str:
    return f"The {rng.choice(TOPICS)} {rng.choice(VERBS)} {rng.choice(WHERE)}."


class VectorPool:
    """Real vectors of a few hundred sentences; each stored message gets one, jittered."""

    def __init__(self, rng: random.Random, size: int = 400) -> None:
        self.texts = sorted({sentence(rng) for _ in range(size * 3)})[:size]
        self.vectors = np.array(get_embedder().embed(self.texts), dtype=np.float32)
        self.np_rng = np.random.default_rng(rng.randrange(2**32))

    def pick(self, rng: random.Random) -> tuple[str, list[float]]:
        i = rng.randrange(len(self.texts))
        v = self.vectors[i] + self.np_rng.normal(0, 0.02, self.vectors.shape[1]).astype(np.float32)
        return self.texts[i], (v / np.linalg.norm(v)).tolist()


def load_messages(scope, pool, rng, plan: list[tuple[str, str, int]], *, vectors=True, batch=1000):
    """plan: (user, sid, count) triples; writes in batches of `batch` messages."""
    rows = []
    total = 0

    def flush():
        nonlocal rows
        if rows:
            cypher.write(scope, LOAD_MESSAGES, rows=rows)
            cypher.write(scope, LOAD_NEXT, rows=[r for r in rows if r["no"] > 1])
            rows = []

    for user, sid, count in plan:
        key = owner_key(scope.tenant, user)
        for no in range(1, count + 1):
            text, vector = pool.pick(rng)
            rows.append({"user": user, "sid": sid, "no": no, "role": "user" if no % 2 else
                         "assistant", "text": text, "owner": key,
                         "vector": vector if vectors else None})  # fmt: skip
            total += 1
            if len(rows) >= batch:
                flush()
    flush()
    return total


def load_entities(scope, pool, rng, n: int, batch: int = 1000) -> list[str]:
    uids = [uuid.uuid4().hex for _ in range(n)]
    for start in range(0, n, batch):
        rows = []
        for i in range(start, min(n, start + batch)):
            topic = TOPICS[i % len(TOPICS)]
            _, vector = pool.pick(rng)
            rows.append({"uid": uids[i], "name": f"{topic.title()} {i}", "type": "Object",
                         "description": f"A {topic} known as number {i}.", "vector": vector})  # fmt: skip
        cypher.write(scope, LOAD_ENTITIES, rows=rows)
    relations = [
        {"a": uids[i], "b": uids[rng.randrange(n)], "predicate": rng.choice(["uses", "near"]),
         "confidence": round(rng.uniform(0.2, 1.0), 2), "weight": rng.randint(1, 9),
         "age": rng.randint(0, 90)}
        for i in range(n) for _ in range(3)
    ]  # fmt: skip
    for start in range(0, len(relations), batch * 2):
        cypher.write(scope, LOAD_RELATIONS, rows=relations[start : start + batch * 2])
    return uids


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def load_all(scope, rng, args) -> None:
    pool = VectorPool(rng)
    started = time.perf_counter()
    per_user = max(1, args.messages // args.users)
    plan = []
    for u in range(args.users):
        sessions = rng.randint(1, 4)
        for s in range(sessions):
            plan.append((f"user-{u}", f"s{s}", max(1, per_user // sessions)))
    loaded = load_messages(scope, pool, rng, plan)
    loaded += load_messages(scope, pool, rng, [("long-reader", "long", args.long_session),
                                               ("short-reader", "short", 20)], vectors=False)  # fmt: skip
    loaded += load_messages(scope, pool, rng, [("erase-me", f"e{i}", args.erase_messages // 4)
                                               for i in range(4)])  # fmt: skip
    load_entities(scope, pool, rng, args.entities)
    print(f"loaded {loaded} messages and {args.entities} entities "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    from apps.graph.schema import schema_install as wait_indexes

    wait_indexes()  # waits until the indexes have caught up with the load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--messages", type=int, default=5_000)
    ap.add_argument("--users", type=int, default=50)
    ap.add_argument("--entities", type=int, default=1_000)
    ap.add_argument("--long-session", type=int, default=20_000)
    ap.add_argument("--erase-messages", type=int, default=2_000)
    ap.add_argument("--context-calls", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=50, help="context calls not counted")
    ap.add_argument("--reads", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", action="store_true", help="keep the bench tenant's nodes")
    ap.add_argument("--tenant", help="measure a tenant kept by an earlier --keep run (no load, "
                    "no erasure); give the same --users")  # fmt: skip
    args = ap.parse_args()

    rng = random.Random(args.seed)
    graph_connect()
    schema_install()
    tenant = args.tenant or f"bench-{uuid.uuid4().hex[:8]}"
    scope = Scope(tenant=tenant, actor="bench", actor_kind="system")
    if args.tenant:
        print(f"tenant {scope.tenant} (kept by an earlier run), {args.users} users")
    else:
        print(f"tenant {scope.tenant}: {args.messages} messages over {args.users} users, "
              f"{args.entities} entities")  # fmt: skip
    if not args.tenant:
        load_all(scope, rng, args)

    # --- context ---------------------------------------------------------------------------
    # --- context ---------------------------------------------------------------------------
    questions = [f"What happened with the {rng.choice(TOPICS)} {rng.choice(WHERE)}?"
                 for _ in range(args.context_calls + args.warmup)]  # fmt: skip
    server, steps = [], {}
    for i, q in enumerate(questions):
        user = f"user-{rng.randrange(args.users)}"
        found = context.check_context(scope, user=user, sid="s0", message=q, k=5,
                                      token_budget=800)  # fmt: skip
        if i >= args.warmup:  # plans cached and JIT-compiled, as on a server in use
            server.append(found["timings"]["server_ms"])
            for step in found["timings"]["steps"]:
                steps.setdefault(step["step"], []).append(step["ms"])
    print(f"context server time (no query embedding), {len(server)} calls: "
          f"p50 {pct(server, 50):.1f} ms, p95 {pct(server, 95):.1f} ms, max {max(server):.1f} ms "
          f"(goal p95 <= 50 ms)")  # fmt: skip
    print("  per step, p50 ms: " + ", ".join(f"{k} {pct(v, 50):.1f}" for k, v in steps.items()))
    print(f"  last call: {len(found['message_hits'])} message hits, "
          f"{len(found['entity_hits'])} entity hits, {len(found['neighbours'])} neighbours, "
          f"{len(found['traces'])} prior traces, {found['tokens']} tokens")  # fmt: skip

    # --- last 20 of a long session against a short one ---------------------------------------
    def read(user, sid):
        return lambda: selectors.messages_read(scope, user=user, sid=sid, last=20)

    timed(read("long-reader", "long"), 20)
    timed(read("short-reader", "short"), 20)
    long_ms = timed(read("long-reader", "long"), args.reads)
    short_ms = timed(read("short-reader", "short"), args.reads)
    print(f"last 20 of a {args.long_session}-message session: p50 {pct(long_ms, 50):.2f} ms, "
          f"p95 {pct(long_ms, 95):.2f} ms")  # fmt: skip
    print(f"last 20 of a 20-message session: p50 {pct(short_ms, 50):.2f} ms, "
          f"p95 {pct(short_ms, 95):.2f} ms")  # fmt: skip
    print(f"  ratio long/short: p50 {pct(long_ms, 50) / pct(short_ms, 50):.2f}, "
          f"mean {statistics.mean(long_ms) / statistics.mean(short_ms):.2f}")  # fmt: skip

    if args.tenant:
        return
    # --- erasure -----------------------------------------------------------------------------
    t = time.perf_counter()
    counts = erasure.messages_erase(scope, user="erase-me", sid=None)
    took = time.perf_counter() - t
    print(f"erasure of a user with {counts['messages']} messages in {counts['sessions']} "
          f"sessions: {took:.2f} s ({counts['messages'] / took:.0f} messages/s)")  # fmt: skip

    if not args.keep:
        while cypher.write(scope, WIPE)[0]["n"]:
            pass


if __name__ == "__main__":
    main()
