"""Episodes, lessons and knowledge promotion under concurrent writers, on the configured Neo4j.

In a throwaway tenant (its graph nodes are removed at the end):

  entries     N entries appended to one episode by W threads: throughput, and that the numbers
              are 1..N with no gap
  weigh       N closed episodes weighed onto one lesson by W threads: throughput, no lost count
  knowledge   C conversation chains of M messages promoted by the rule extractor: time per chain

    .venv/bin/python bench/lessons_concurrency.py
    .venv/bin/python bench/lessons_concurrency.py --entries 2000 --workers 16 --chains 100
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=400)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--episodes", type=int, default=80)
    parser.add_argument("--chains", type=int, default=20)
    parser.add_argument("--messages", type=int, default=10)
    args = parser.parse_args()

    import django

    django.setup()
    from apps.conversations.services import message_append
    from apps.graph import cypher
    from apps.graph.scope import Scope
    from apps.knowledge.services import knowledge_promote_chains
    from apps.lessons.selectors import lesson_get
    from apps.lessons.services.episodes import (
        check_entry_record,
        check_episode_close,
        check_episode_open,
    )
    from apps.lessons.services.lessons import check_lesson_learn, check_lesson_weigh

    defaults = {
        "lesson_threshold": 1,
        "playbook_needs": 3,
        "knowledge_heat_threshold": 0.25,
        "knowledge_extractor": "rules",
        "summarize_waiting": 10**9,
        "summary_keep_last": 20,
    }
    scope = Scope(tenant=f"bench-{uuid.uuid4().hex[:10]}", actor="agent:bench", settings=defaults)
    try:
        ep = check_episode_open(scope, title="bench")["id"]
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            seqs = list(
                pool.map(
                    lambda i: check_entry_record(
                        scope, episode=ep, type="observation", values={"i": i}
                    )["seq"],
                    range(args.entries),
                )
            )
        took = time.perf_counter() - started
        assert sorted(seqs) == list(range(1, args.entries + 1)), "gap or duplicate"
        print(
            f"entries   {args.entries} by {args.workers} threads: {took:.2f} s, "
            f"{args.entries / took:.0f}/s, numbers 1..{args.entries} without gap"
        )

        episodes = []
        for _ in range(args.episodes + 1):
            e = check_episode_open(scope)["id"]
            check_episode_close(scope, episode=e, outcome={"ok": True})
            episodes.append(e)
        check_lesson_learn(scope, key="bench", statement="bench", supported_by=episodes[:1])
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            list(
                pool.map(
                    lambda e: check_lesson_weigh(scope, key="bench", episode=e, agrees=True),
                    episodes[1:],
                )
            )
        took = time.perf_counter() - started
        support = lesson_get(scope, key="bench")["support"]
        print(
            f"weigh     {args.episodes} episodes by {args.workers} threads: {took:.2f} s, "
            f"{args.episodes / took:.0f}/s, support {support} (expected {args.episodes + 1})"
        )

        texts = ["I use go and docker.", "I'm working on atlas.", "I am struggling with auth."]
        for c in range(args.chains):
            for m in range(args.messages):
                message_append(
                    scope,
                    user=f"u{c}",
                    sid="main",
                    role="user",
                    text=texts[m % len(texts)],
                    by="bench",
                    mentions=[],
                    at=None,
                )
        started = time.perf_counter()
        result = knowledge_promote_chains(scope)
        took = time.perf_counter() - started
        print(
            f"knowledge {result['promoted']} chains of {args.messages} messages: {took:.2f} s, "
            f"{1000 * took / max(1, result['promoted']):.0f} ms per chain"
        )
    finally:
        cypher.write(scope, "MATCH (n) WHERE n.tenant = $tenant DETACH DELETE n")


if __name__ == "__main__":
    main()
