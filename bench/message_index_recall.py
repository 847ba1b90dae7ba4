"""How much of the exact nearest messages the filtered vector index gives: prints figures,
asserts nothing.

    .venv/bin/python bench/conversations_recall.py --long-users 4 --short-users 40 --facts 10 --keep
    .venv/bin/python bench/message_index_recall.py --tenant bench-xxxxxxxx --depths 60,200,400

For every user of the kept tenant with more than --min-messages messages and every question of
the recall benchmark (FACTS), the user's 10 nearest messages by an exact comparison with all of
them (a full scan) against the first N of `message_embedding` filtered to the user inside the
index (the context's read), for each N of --depths: the share of the exact 10 found, how often
the exact first is missing, and the index read's p50/p95. The index's HNSW settings are printed.
A depth at least the user's message count makes Lucene compare exactly (the context's read for
users up to CONTEXT_EXACT_SCAN_MESSAGES).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

import django  # noqa: E402

django.setup()

from apps.graph import cypher  # noqa: E402
from apps.graph.connection import graph_connect  # noqa: E402
from apps.graph.embeddings import get_embedder  # noqa: E402
from apps.graph.scope import Scope  # noqa: E402
from bench.conversations import pct  # noqa: E402
from bench.conversations_recall import FACTS  # noqa: E402

USERS = """
MATCH (s:Session {tenant: $tenant})
WITH s.user AS user, sum(s.last_no) AS n WHERE n > $min
RETURN user, n ORDER BY user
"""
EXACT = """
MATCH (m:Message {tenant: $tenant, user: $user}) WHERE m.embedding IS NOT NULL
RETURN m.uid AS uid ORDER BY vector.similarity.cosine(m.embedding, $vector) DESC LIMIT 10
"""
INDEX = """
CYPHER 25
MATCH (hit:Message)
  SEARCH hit IN (VECTOR INDEX message_embedding FOR $vector
                 WHERE hit.tenant = $tenant AND hit.user = $user LIMIT $depth)
  SCORE AS score
// The context keeps the 60 best of a read inside the query (they hold the exact 10 whenever
// the read does), so the read costs here what it costs there.
WITH hit ORDER BY score DESC LIMIT 60
RETURN hit.uid AS uid
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tenant", required=True, help="a tenant kept by conversations_recall.py")
    ap.add_argument("--depths", default="60,200,400")
    ap.add_argument("--min-messages", type=int, default=2000)
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]

    graph_connect()
    scope = Scope(tenant=args.tenant, actor="bench", actor_kind="system")
    config = cypher.system_query(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name = 'message_embedding' "
        "RETURN options.indexConfig AS config"
    )[0]["config"]
    print("message_embedding:", {k: v for k, v in sorted(config.items()) if "hnsw" in k
                                  or "quantization" in k})  # fmt: skip
    users = cypher.read(scope, USERS, min=args.min_messages)
    questions = [asked for _, asked in FACTS]
    vectors = get_embedder().embed(questions)
    found = {d: [] for d in depths}
    first_lost = {d: 0 for d in depths}
    times = {d: [] for d in depths}
    for row in users:
        for vector in vectors:
            exact = [r["uid"] for r in cypher.read(scope, EXACT, user=row["user"], vector=vector)]
            for depth in depths:
                started = time.perf_counter()
                got = {r["uid"] for r in cypher.read(scope, INDEX, user=row["user"],
                                                     vector=vector, depth=depth)}  # fmt: skip
                times[depth].append((time.perf_counter() - started) * 1000)
                found[depth].append(len(got & set(exact)) / len(exact))
                first_lost[depth] += exact[0] not in got
    n = len(users) * len(vectors)
    print(f"{len(users)} users ({', '.join(str(r['n']) for r in users)} messages) x "
          f"{len(vectors)} questions = {n} reads per depth")  # fmt: skip
    for depth in depths:
        print(f"depth {depth}: exact 10 found {sum(found[depth]) / n:.3f}, exact first missing "
              f"{first_lost[depth]}/{n}; index read p50 {pct(times[depth], 50):.1f} ms, "
              f"p95 {pct(times[depth], 95):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
