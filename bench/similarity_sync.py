"""SIMILAR_TO sync on a large work graph: time, pairs compared against all pairs, and the pairs
above the threshold the centroid pre-filter missed (against brute force on the same vectors).

Evidence vectors are synthetic (384 dimensions, unit length): each parent task works on one of
`--topics` subjects, its evidence spreads around the subject (member-to-subject cosine about
0.67, two members about 0.45), so some pairs of parents on one subject pass the threshold and
pairs on different subjects do not.
Tasks and evidence are written in bulk with the properties the services keep; then the real
`similarity_sync` runs (read, pre-filter, compare, write edges) and runs again (no change).

    NEO4J_LOCAL_PORT=7714 ANAMNESIS_DATA_DIR=$PWD/.local/test .venv/bin/python bench/similarity_sync.py
    ... bench/similarity_sync.py --evidence 10000 --parents 500
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

DIMS = 384
TASKS = """
UNWIND $rows AS row
CREATE (:Task {tenant: $tenant, uid: row.uid, short_id: 't-' + row.uid, kind: 'default',
               description: 'bench', status: 'PENDING', waiting: 0, embedding: row.embedding,
               created_at: datetime()})
"""
EVIDENCE = """
UNWIND $rows AS row
MATCH (t:Task {tenant: $tenant, uid: row.task})
CREATE (t)-[:PRODUCED]->(:Evidence {tenant: $tenant, uid: row.uid, short_id: 'e-' + row.uid,
        task_uid: row.task, content: 'bench', source: 'bench', strength: 0.5,
        superseded: false, embedding: row.embedding, created_at: datetime()})
"""
WIPE = """
MATCH (n) WHERE (n:Task OR n:Evidence) AND n.tenant = $tenant
WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n
"""


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--evidence", type=int, default=2000)
    parser.add_argument("--parents", type=int, default=100)
    parser.add_argument("--topics", type=int, default=0, help="default: parents / 5")
    parser.add_argument("--spread", type=float, default=1.1, help="noise around a subject")
    args = parser.parse_args()
    topics = args.topics or max(1, args.parents // 5)

    import django

    django.setup()
    from apps.graph import cypher
    from apps.graph.schema import schema_install
    from apps.graph.scope import Scope
    from apps.tasks.similarity import cross_group_pairs, similarity_sync

    schema_install()
    rng = np.random.default_rng(11)
    subjects = unit(rng.normal(size=(topics, DIMS)))
    parent_topic = rng.integers(0, topics, args.parents)
    parents = [uuid.uuid4().hex for _ in range(args.parents)]
    # Tasks are roots on distinct random subjects (so task pairs add little), evidence spreads.
    task_vectors = unit(rng.normal(size=(args.parents, DIMS)))
    owner = rng.integers(0, args.parents, args.evidence)
    noise = rng.normal(scale=args.spread / np.sqrt(DIMS), size=(args.evidence, DIMS))
    vectors = unit(subjects[parent_topic[owner]] + noise).astype(np.float32)
    scope = Scope(tenant=f"bench-similar-{uuid.uuid4().hex[:8]}", actor="system:bench")
    try:
        t0 = time.perf_counter()
        cypher.write(scope, TASKS, rows=[{"uid": u, "embedding": v.tolist()}
                                         for u, v in zip(parents, task_vectors, strict=True)])  # fmt: skip
        rows = [{"uid": uuid.uuid4().hex, "task": parents[o], "embedding": v.tolist()}
                for o, v in zip(owner, vectors, strict=True)]  # fmt: skip
        for start in range(0, len(rows), 2000):
            cypher.write(scope, EVIDENCE, rows=rows[start : start + 2000])
        print(f"{args.parents} parents, {args.evidence} evidence written in "
              f"{time.perf_counter() - t0:.1f} s")  # fmt: skip
        threshold = float(scope.setting("similar_to_threshold"))
        groups = {}
        for g in range(args.parents):
            members = vectors[owner == g]
            if len(members):
                groups[g] = members
        exact, compared_exact = cross_group_pairs(groups, threshold, margin=None)
        t0 = time.perf_counter()
        result = similarity_sync(scope)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = similarity_sync(scope)
        second = time.perf_counter() - t0
        quick, _ = cross_group_pairs(groups, threshold)
        missed = len(exact) - len(quick)
        print(f"threshold {threshold}: first sync {first:.1f} s ({result['created']} edges "
              f"created), second {second:.1f} s ({again['created']} created, "
              f"{again['pruned']} pruned)")  # fmt: skip
        print(f"pairs compared {result['pairs_compared']:,} of {result['all_pairs']:,} "
              f"({100 * result['pairs_compared'] / result['all_pairs']:.2f}%); the exact bound "
              f"alone would compare {compared_exact:,}")  # fmt: skip
        print(f"evidence pairs above the threshold: {len(exact):,} by brute force, "
              f"{len(quick):,} found with the pre-filter ({missed:,} missed)")  # fmt: skip
    finally:
        while cypher.write(scope, WIPE)[0]["n"]:
            pass


if __name__ == "__main__":
    main()
