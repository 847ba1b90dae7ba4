"""Print a generated corpus for eyeballing: its documents (the surfaces each names, with --names),
then its stats: documents, true things and how many documents name each, the namesake pairs,
and whatever `corpora.check` finds wrong. No database, standard library only.

    python3 bench/corpora_show.py --corpus crm
    python3 bench/corpora_show.py --corpus chat --seed 3 --size large --names
    python3 bench/corpora_show.py --corpus all --stats     # stats only, every generator
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import GENERATORS, SIZES, check  # noqa: E402


def show(name: str, seed: int, size: str, names: bool, stats_only: bool) -> list[str]:
    docs, truths, pairs = GENERATORS[name](seed=seed, size=size)
    print(f"== {name} (seed {seed}, size {size})")
    for i, doc in enumerate([] if stats_only else docs):
        print(f"[{i}] {doc.text}")
        if names:
            print("     " + ", ".join(f"{s!r}->{k}" for s, k in doc.names.items()))
    named = Counter(k for d in docs for k in set(d.names.values()))
    surfaces: dict[str, set[str]] = {k: set() for k in truths}
    for d in docs:
        for s, k in d.names.items():
            surfaces[k].add(s)
    kinds = Counter(t.kind for t in truths.values())
    print(f"documents {len(docs)}, true things {len(truths)} ({dict(kinds)}), "
          f"things per document {sum(named.values()) / max(1, len(docs)):.2f}, "
          f"documents naming 2+ things {sum(1 for d in docs if len(set(d.names.values())) > 1)}")  # fmt: skip
    for key, t in truths.items():
        print(f"  {key:4} {t.kind:7} {named[key]} docs  {t.name:28} {sorted(surfaces[key])}")
    for a, b in pairs:
        fa, fb = truths[a].facts, truths[b].facts
        print(f"  namesakes {a} / {b}: {truths[a].name!r}: "
              f"{fa['job']}, {fa['city']}, {truths[fa['employer']].name} / "
              f"{fb['job']}, {fb['city']}, {truths[fb['employer']].name}")  # fmt: skip
    problems = check(docs, truths, pairs)
    print("check: " + ("ok" if not problems else "; ".join(problems)))
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="all", choices=[*GENERATORS, "all"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", default="default", choices=list(SIZES))
    parser.add_argument("--names", action="store_true", help="list each document's surfaces")
    parser.add_argument("--stats", action="store_true", help="stats only, no documents")
    args = parser.parse_args()
    bad = []
    for name in GENERATORS if args.corpus == "all" else [args.corpus]:
        bad += show(name, args.seed, args.size, args.names, args.stats)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
