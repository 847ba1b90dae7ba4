"""Context by Personalized PageRank on a large work graph: latency of POST-free
`task_context` calls (seeds, the seeds' neighbourhood read ring by ring, its GDS projection,
PageRank, details, paths, drop), recall of planted answers against plain vector top-k, and how
far the bounded neighbourhood's ranking agrees with PageRank on the seeds' whole connected work
graph (what the walk sees without a bound; its cost is printed too).

The graph (written in bulk with the properties the services keep): `--tasks` tasks, a tenth of
them roots and the rest subtasks of a random root, and `--evidence` evidence nodes PRODUCED by
random tasks, each with a random unit embedding (384 dimensions), and `--similar` SIMILAR_TO
edges per evidence node to evidence of another task (score 0.5-0.9), as the sync job keeps.
Then `--queries` planted cases: a query task q under a root, a task d that q DEPENDS_ON, and the
answer: evidence PRODUCED by d whose embedding is unrelated to q's, while ten distractors
PRODUCED by random other tasks sit close to q's embedding (cosine about 0.7). The answer is one
structural hop from q's dependency, and far from q in the vector space: what a plain vector
search cannot reach and the walk can. Recall@10 counts the answers among the first 10 evidence
items of each method; vector top-k is the `evidence_embedding` index searched with q's
embedding, filtered to the tenant. Agreement@10 is the share of the bounded top-10 evidence
that the unbounded walk also ranks in its top 10 (the first `--agreement` cases).

    NEO4J_LOCAL_PORT=7714 ANAMNESIS_DATA_DIR=$PWD/.local/test .venv/bin/python bench/task_context.py
    ... bench/task_context.py --tasks 10000 --evidence 40000 --queries 50
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

DIMS = 384
TOP = 10
TASKS = """
UNWIND $rows AS row
CREATE (:Task {tenant: $tenant, uid: row.uid, short_id: 't-' + row.uid, kind: 'default',
               description: row.text, status: 'PENDING', waiting: 0, embedding: row.embedding,
               created_at: datetime()})
"""
PARENTS = """
UNWIND $rows AS row
MATCH (c:Task {tenant: $tenant, uid: row.child}), (p:Task {tenant: $tenant, uid: row.parent})
CREATE (c)-[:SUBTASK_OF]->(p)
"""
DEPENDS = """
UNWIND $rows AS row
MATCH (c:Task {tenant: $tenant, uid: row.child}), (p:Task {tenant: $tenant, uid: row.parent})
CREATE (c)-[:DEPENDS_ON]->(p)
"""
EVIDENCE = """
UNWIND $rows AS row
MATCH (t:Task {tenant: $tenant, uid: row.task})
CREATE (t)-[:PRODUCED]->(:Evidence {tenant: $tenant, uid: row.uid, short_id: 'e-' + row.uid,
        task_uid: row.task, content: row.text, source: 'bench', strength: 0.5,
        superseded: false, embedding: row.embedding, created_at: datetime()})
"""
SIMILAR = """
UNWIND $rows AS row
MATCH (a:Evidence {tenant: $tenant, uid: row.a}), (b:Evidence {tenant: $tenant, uid: row.b})
CREATE (a)-[:SIMILAR_TO {score: row.score}]->(b)
"""
VECTOR_TOP = """
CYPHER 25
MATCH (e:Evidence)
  SEARCH e IN (VECTOR INDEX evidence_embedding FOR $embedding WHERE e.tenant = $tenant LIMIT 10)
  SCORE AS score
RETURN e.uid AS uid ORDER BY score DESC
"""
IS_EVIDENCE = "UNWIND $uids AS u MATCH (e:Evidence {tenant: $tenant, uid: u}) RETURN e.uid AS uid"
WIPE = """
MATCH (n) WHERE (n:Task OR n:Evidence) AND n.tenant = $tenant
WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n
"""


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def write(scope, query: str, rows: list[dict]) -> None:
    from apps.graph import cypher

    for start in range(0, len(rows), 2000):
        cypher.write(scope, query, rows=rows[start : start + 2000])


def build(scope, rng, args) -> list[dict]:
    """The graph and the planted cases: [{q, answer, embedding}]."""
    n_roots = max(1, args.tasks // 10)
    tasks = [uuid.uuid4().hex for _ in range(args.tasks)]
    vectors = unit(rng.normal(size=(args.tasks, DIMS)))
    write(scope, TASKS, [{"uid": u, "text": f"task {i}", "embedding": v.tolist()}
                         for i, (u, v) in enumerate(zip(tasks, vectors, strict=True))])  # fmt: skip
    roots, rest = tasks[:n_roots], tasks[n_roots:]
    parent = {c: roots[rng.integers(0, n_roots)] for c in rest}
    write(scope, PARENTS, [{"child": c, "parent": p} for c, p in parent.items()])
    owners = rng.integers(0, args.tasks, args.evidence)
    ev = unit(rng.normal(size=(args.evidence, DIMS)))
    found = [uuid.uuid4().hex for _ in range(args.evidence)]
    write(scope, EVIDENCE, [{"uid": u, "task": tasks[o], "text": f"finding {i}",
                             "embedding": v.tolist()}
                            for i, (u, o, v) in enumerate(zip(found, owners, ev, strict=True))])  # fmt: skip
    similar = []
    for a in range(args.evidence):
        for b in rng.integers(0, args.evidence, args.similar):
            if owners[a] != owners[b]:
                similar.append({"a": found[a], "b": found[b],
                                "score": round(float(rng.uniform(0.5, 0.9)), 3)})  # fmt: skip
    write(scope, SIMILAR, similar)
    cases, depends, planted = [], [], []
    picks = rng.choice(len(rest), size=2 * args.queries, replace=False)
    for k in range(args.queries):
        q, d = rest[picks[2 * k]], rest[picks[2 * k + 1]]
        depends.append({"child": q, "parent": d})
        answer = uuid.uuid4().hex
        planted.append({"uid": answer, "task": d, "text": f"answer {k}",
                        "embedding": unit(rng.normal(size=DIMS)).tolist()})  # fmt: skip
        q_vec = vectors[tasks.index(q)]
        for j in range(10):
            near = unit(q_vec + rng.normal(scale=1.0 / np.sqrt(DIMS), size=DIMS))
            planted.append({"uid": uuid.uuid4().hex, "task": tasks[rng.integers(0, args.tasks)],
                            "text": f"distractor {k}.{j}", "embedding": near.tolist()})  # fmt: skip
        cases.append({"q": q, "answer": answer, "embedding": q_vec.tolist()})
    write(scope, DEPENDS, depends)
    write(scope, EVIDENCE, planted)
    return cases


def agree(scope, cases: list[dict], ranked_nodes) -> None:
    """The bounded walk's top evidence against the walk on the seeds' whole connected graph."""
    from django.conf import settings

    from apps.tasks.context import seed_kinds, seed_weights

    whole_cap = settings.GRAPH_ALGORITHMS["max_nodes"]
    shared, whole_times = 0, []
    for case in cases:
        kinds = seed_kinds(scope, case["q"])
        seeds, weights = list(kinds), seed_weights(kinds)
        bounded = evidence_of(scope, ranked_nodes(scope, seeds, weights=weights))
        t0 = time.perf_counter()
        whole = evidence_of(scope, ranked_nodes(scope, seeds, weights=weights, hops=1000,
                                                cap=whole_cap))  # fmt: skip
        whole_times.append((time.perf_counter() - t0) * 1000)
        shared += len(set(bounded[:TOP]) & set(whole[:TOP]))
    if cases:
        print(f"agreement@{TOP} with the walk on the whole connected graph: "
              f"{shared / (TOP * len(cases)):.2f} over {len(cases)} cases; the whole walk's "
              f"ranking p50 {statistics.median(whole_times):.0f} ms")  # fmt: skip


def evidence_of(scope, ranked: list[dict]) -> list[str]:
    from apps.graph import cypher

    found = {r["uid"] for r in cypher.read(scope, IS_EVIDENCE, uids=[r["uid"] for r in ranked])}
    return [r["uid"] for r in ranked if r["uid"] in found]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=2000)
    parser.add_argument("--evidence", type=int, default=8000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--similar", type=int, default=1, help="SIMILAR_TO edges per evidence")
    parser.add_argument("--agreement", type=int, default=10, help="cases compared to the whole")
    args = parser.parse_args()

    import django

    django.setup()
    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.tasks.context import ranked_nodes, task_context

    schema_install()
    rng = np.random.default_rng(5)
    scope = Scope(tenant=f"bench-context-{uuid.uuid4().hex[:8]}", actor="agent:bench")
    try:
        t0 = time.perf_counter()
        cases = build(scope, rng, args)
        nodes = args.tasks + args.evidence + 11 * args.queries
        print(f"{nodes:,} nodes written in {time.perf_counter() - t0:.1f} s")
        task_context(scope, task=cases[0]["q"], token_budget=100_000, limit=60)  # warm up
        times, ppr_hits, vector_hits = [], 0, 0
        for case in cases:
            t0 = time.perf_counter()
            got = task_context(scope, task=case["q"], token_budget=100_000, limit=60)
            times.append((time.perf_counter() - t0) * 1000)
            evidence = [i["uid"] for i in got["items"] if i["kind"] == "evidence"][:TOP]
            ppr_hits += case["answer"] in evidence
            top = [r["uid"] for r in cypher.read(scope, VECTOR_TOP, embedding=case["embedding"])]
            vector_hits += case["answer"] in top
        times.sort()
        print(f"context p50 {statistics.median(times):.0f} ms, "
              f"p95 {times[int(len(times) * 0.95) - 1]:.0f} ms over {len(cases)} calls")  # fmt: skip
        print(f"recall@{TOP} of planted answers: PPR {ppr_hits / len(cases):.2f}, "
              f"vector top-{TOP} {vector_hits / len(cases):.2f}")  # fmt: skip
        agree(scope, cases[: args.agreement], ranked_nodes)
    finally:
        while cypher.write(scope, WIPE)[0]["n"]:
            pass


if __name__ == "__main__":
    main()
