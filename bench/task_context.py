"""Context by Personalized PageRank on work graphs of two sizes in one run: server-side
latency of `task_context` calls (seeds, the neighbourhood read in one query, the local push,
details), recall of planted answers against plain vector top-k, and agreement@10 of the local
push with GDS PageRank on the seeds' whole connected work graph (the reference walk; its cost is
printed too).

Each graph (written in bulk with the properties the services keep) has about `--sizes` nodes:
a fifth of them tasks, a tenth of those roots and the rest subtasks of a random root, the rest
evidence PRODUCED by random tasks, each with a random unit embedding (384 dimensions), and
`--similar` SIMILAR_TO edges per evidence node to evidence of another task (score 0.5-0.9), as
the sync job keeps. Then `--queries` planted cases: a query task q under a root, a task d that
q DEPENDS_ON, and the answer: evidence PRODUCED by d whose embedding is unrelated to q's, while
ten distractors PRODUCED by random other tasks sit close to q's embedding (cosine about 0.7).
The answer is one structural hop from q's dependency and far from q in the vector space: what a
plain vector search cannot reach and the walk can. Recall@10 counts the answers among the first
10 evidence items; vector top-k is the `evidence_embedding` index searched with q's embedding,
filtered to the tenant. Agreement@10 is the share of the local push's top-10 evidence that the
whole-graph walk also ranks in its top 10 (the first `--agreement` cases). The calls are
interleaved across the sizes (case k on each graph in turn, `--repeat` rounds, after a warm-up
on each), so a change in the machine's load falls on every size alike and the ratio compares
like with like.

`--keep` keeps each graph (tenant `bench-context-<size>-s<similar>`, its cases in the data dir)
and reuses it in the next run, so the 50,000-node load is paid once:

    NEO4J_LOCAL_PORT=7695 ANAMNESIS_DATA_DIR=$PWD/.local/test \
      .venv/bin/python bench/task_context.py --sizes 1000,50000 --keep
"""

from __future__ import annotations

import argparse
import json
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
WARM_UP = 10  # calls per graph before the measured ones
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
COUNT = "MATCH (t:Task {tenant: $tenant}) RETURN count(t) AS n"
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


def agree(scope, cases: list[dict]) -> tuple[float | None, float | None]:
    """The local push's top evidence against GDS PageRank on the seeds' whole connected graph:
    (agreement@TOP, the whole walk's p50 ms)."""
    from apps.tasks.context import seed_kinds, seed_weights
    from apps.tasks.walk import local_walk
    from apps.tasks.walk_reference import reference_walk

    shared, whole_times = 0, []
    for case in cases:
        kinds = seed_kinds(scope, case["q"])
        seeds, weights = list(kinds), seed_weights(kinds)
        bounded = evidence_of(scope, local_walk(scope, seeds, seed_weights=weights)[0])
        t0 = time.perf_counter()
        whole = evidence_of(scope, reference_walk(scope, seeds, seed_weights=weights))
        whole_times.append((time.perf_counter() - t0) * 1000)
        shared += len(set(bounded[:TOP]) & set(whole[:TOP]))
    if not cases:
        return None, None
    return shared / (TOP * len(cases)), statistics.median(whole_times)


def evidence_of(scope, ranked: list[dict]) -> list[str]:
    from apps.graph import cypher

    found = {r["uid"] for r in cypher.read(scope, IS_EVIDENCE, uids=[r["uid"] for r in ranked])}
    return [r["uid"] for r in ranked if r["uid"] in found]


def graph_for(size: int, args, cases_dir: Path):
    """The scope and cases of a graph of about `size` nodes: built, or with --keep the one a
    run before left (its cases in the data dir)."""
    from apps.graph import cypher
    from apps.graph.scope import Scope

    queries = args.queries
    tasks = max(20, size // 5)
    sizes = argparse.Namespace(tasks=tasks, evidence=size - tasks - 11 * queries,
                               queries=queries, similar=args.similar)  # fmt: skip
    name = (
        f"bench-context-{size}-s{args.similar}"
        if args.keep
        else f"bench-context-{uuid.uuid4().hex[:8]}"
    )
    scope = Scope(tenant=name, actor="agent:bench")
    saved = cases_dir / f"{name}.json"
    if args.keep and saved.exists() and cypher.read(scope, COUNT)[0]["n"]:
        print(f"{size:,} nodes: reusing tenant {name}")
        return scope, json.loads(saved.read_text())
    while cypher.write(scope, WIPE)[0]["n"]:
        pass
    t0 = time.perf_counter()
    cases = build(scope, np.random.default_rng(5), sizes)
    print(f"{size:,} nodes ({tasks:,} tasks) written in {time.perf_counter() - t0:.1f} s")
    if args.keep:
        saved.write_text(json.dumps(cases))
    return scope, cases


def measure(graphs: dict[int, tuple], args) -> dict[int, dict]:
    """Context calls on every graph, interleaved (a case on each size in turn, after a warm-up
    of WARM_UP calls each), so that the machine's load falls on all sizes alike."""
    from apps.graph import cypher
    from apps.tasks.context import task_context

    def call(scope, case) -> tuple[float, list[str]]:
        t0 = time.perf_counter()
        got = task_context(scope, task=case["q"], token_budget=100_000, limit=60)
        ms = (time.perf_counter() - t0) * 1000
        return ms, [i["uid"] for i in got["items"] if i["kind"] == "evidence"][:TOP]

    for scope, cases in graphs.values():
        for case in cases[:WARM_UP]:
            call(scope, case)
    times = {size: [] for size in graphs}
    hits = dict.fromkeys(graphs, 0)
    for _ in range(args.repeat):
        for k in range(max(len(cases) for _, cases in graphs.values())):
            for size, (scope, cases) in graphs.items():
                if k < len(cases):
                    ms, evidence = call(scope, cases[k])
                    times[size].append(ms)
                    hits[size] += cases[k]["answer"] in evidence
    results = {}
    for size, (scope, cases) in graphs.items():
        vector_hits = 0
        for case in cases:
            top = [r["uid"] for r in cypher.read(scope, VECTOR_TOP, embedding=case["embedding"])]
            vector_hits += case["answer"] in top
        ms = sorted(times[size])
        agreement, whole_ms = agree(scope, cases[: args.agreement])
        results[size] = {"p50": statistics.median(ms), "p95": ms[int(len(ms) * 0.95) - 1],
                         "calls": len(ms), "recall": hits[size] / (len(cases) * args.repeat),
                         "vector": vector_hits / len(cases), "agreement": agreement,
                         "whole_ms": whole_ms, "cases": min(len(cases), args.agreement)}  # fmt: skip
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--sizes", default="1000,50000", help="graph sizes in nodes, comma-separated"
    )
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=4, help="calls per case")
    parser.add_argument("--similar", type=int, default=1, help="SIMILAR_TO edges per evidence")
    parser.add_argument("--agreement", type=int, default=5, help="cases compared to the whole")
    parser.add_argument("--keep", action="store_true",
                        help="keep the graphs (tenant bench-context-<size>) and reuse them next run")  # fmt: skip
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    from apps.graph import cypher
    from apps.graph.schema import schema_install

    schema_install()
    cases_dir = Path(settings.DATA_DIR)
    graphs = {}
    try:
        for size in [int(x) for x in args.sizes.split(",")]:
            graphs[size] = graph_for(size, args, cases_dir)
        results = measure(graphs, args)
    finally:
        if not args.keep:
            for scope, _ in graphs.values():
                while cypher.write(scope, WIPE)[0]["n"]:
                    pass
    for size, got in results.items():
        agreement = "-" if got["agreement"] is None else f"{got['agreement']:.2f}"
        whole = "-" if got["whole_ms"] is None else f"{got['whole_ms']:.0f}"
        print(f"{size:,} nodes: context p50 {got['p50']:.1f} ms, p95 {got['p95']:.1f} ms over "
              f"{got['calls']} calls; recall@{TOP} PPR {got['recall']:.2f}, vector top-{TOP} "
              f"{got['vector']:.2f}; agreement@{TOP} with the whole-graph GDS walk {agreement} "
              f"over {got['cases']} cases (whole walk p50 {whole} ms)")  # fmt: skip
    if len(results) > 1:
        small, large = results[min(results)], results[max(results)]
        print(f"ratio {max(results):,}/{min(results):,} nodes: p50 {large['p50'] / small['p50']:.2f}, "
              f"p95 {large['p95'] / small['p95']:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
