"""The gate's scoring replayed: records every comparison `gate.proposals_score` makes during a
run of bench/ingest_throughput.py (its inputs, the Compared list and the match model's score),
then scores the same inputs again with the code of another checkout and lists what differs. A
change that makes scoring cheaper is shown to decide alike when nothing differs.

    .venv/bin/python bench/scoring_replay.py --record calls.pkl [ingest_throughput options]
    .venv/bin/python bench/scoring_replay.py --replay calls.pkl   # in the changed checkout

Prints the calls recorded or replayed, the CPU seconds the replay's scoring took, and the
differences (none is the goal)."""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")


def _scored(compared, score) -> tuple:
    parts = tuple((p.compared.comparison, p.compared.level, p.compared.detail, round(p.weight, 12))
                  for p in score.parts)  # fmt: skip
    return (tuple((c.comparison, c.level, c.detail) for c in compared),
            round(score.probability, 12), score.may_merge, tuple(score.forbidden), parts)  # fmt: skip


def record(path: str, rest: list[str]) -> None:
    import django

    django.setup()
    from apps.resolution import gate

    calls = []
    compare, score = gate.records_compare, gate.match_score

    def compare_recorded(*args, **kwargs):
        found = compare(*args, **kwargs)
        calls.append([args, kwargs, found])
        return found

    def score_recorded(compared, **kwargs):
        scored = score(compared, **kwargs)
        if calls and calls[-1][2] is compared:
            calls[-1].extend([kwargs, _scored(compared, scored)])
        return scored

    gate.records_compare, gate.match_score = compare_recorded, score_recorded
    sys.argv = ["ingest_throughput.py", *rest]
    from bench import ingest_throughput

    ingest_throughput.main()
    kept = [c for c in calls if len(c) == 5]
    with open(path, "wb") as f:
        pickle.dump([(a, k, sk, out) for a, k, _, sk, out in kept], f)
    print(f"recorded {len(kept)} scored comparisons in {path}")


def replay(path: str) -> None:
    import django

    django.setup()
    from apps.resolution.comparisons.records import records_compare
    from apps.resolution.match_model import match_score

    with open(path, "rb") as f:
        calls = pickle.load(f)
    started, differ = time.process_time(), []
    for i, (args, kwargs, score_kwargs, expected) in enumerate(calls):
        compared = records_compare(*args, **kwargs)
        got = _scored(compared, match_score(compared, **score_kwargs))
        if got != expected:
            differ.append((i, args[1].names, args[2].names, expected, got))
    spent = time.process_time() - started
    print(f"replayed {len(calls)} scored comparisons in {spent:.2f} CPU s; {len(differ)} differ")
    for i, a, b, expected, got in differ[:20]:
        print(f"  #{i} {list(a)} / {list(b)}:\n    was {expected}\n    now {got}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record")
    parser.add_argument("--replay")
    known, rest = parser.parse_known_args()
    if known.record:
        record(known.record, rest)
    elif known.replay:
        replay(known.replay)
    else:
        parser.error("--record FILE or --replay FILE")
