"""Estimate the match model's m and u per comparison level on FEBRL 1, 2 and 4 (FEBRL 3 is held
out for the benchmark) and write apps/resolution/match_model_params.json.

Pairs are those a gate would look at: records sharing a blocking key (the phonetic key of a name
word, the same id, the same birth date; keys shared by more than MAX_BLOCK records are skipped,
as the gate reads a bounded number of index hits). m is the share of each level among the true
pairs so blocked, u among the other blocked pairs, both with add-one smoothing; the prior is the
share of true pairs among blocked pairs. u never goes below a floor (U_FLOOR, U_FLOORS). Levels FEBRL cannot show keep the assumptions of
ASSUMED (stated in the file).

    .venv/bin/python bench/identity_estimate.py            # about a minute
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.febrl_records import HELD_OUT, TRAINING_SETS, febrl_load, febrl_name, febrl_values  # noqa: E402

MAX_BLOCK = 100
# No level is allowed to look rarer by chance than this, whatever FEBRL says: FEBRL has no
# households, no shared offices and no reused ids, the world has (two people at one address are
# common, so its floor is higher). Without floors FEBRL gives an address +17 bits.
U_FLOOR = 1e-4
U_FLOORS = {"address": 0.01}
MAX_NON_PAIRS = 200_000
SEED = 12
# Not in FEBRL: stated, not measured. Phones, emails and domains agree for one entity most of
# the time and almost never by chance; a conflict is frequent for one entity (a second phone,
# a new email) yet still much more frequent between two. Descriptions are weak by design.
ASSUMED = {
    "phone": {"exact": (0.80, 0.0005), "conflict": (0.20, 0.9995)},
    "email": {"exact": (0.80, 0.0001), "conflict": (0.20, 0.9999)},
    "domain": {"exact": (0.85, 0.002), "conflict": (0.15, 0.998)},
    "description": {"high": (0.55, 0.25), "medium": (0.30, 0.35), "low": (0.10, 0.25),
                    "unrelated": (0.05, 0.15)},
}  # fmt: skip
LEVELS = {
    "name": ("exact", "variant", "close", "similar", "different"),
    "born": ("exact", "close", "conflict"),
    "external_id": ("exact", "typo", "conflict"),
    "address": ("exact", "close", "similar", "different"),
}


def blocking_keys(name: str, values: dict) -> set[str]:
    import jellyfish

    from apps.resolution.comparisons.text_forms import comparable_tokens

    keys = {"p:" + jellyfish.metaphone(t) for t in comparable_tokens(name) if len(t) > 1}
    keys |= {f"v:{k}:{v}" for k, v in values.items() if k in ("born", "id:soc_sec")}
    return keys


def blocked_pairs(records: dict) -> set[frozenset]:
    blocks = defaultdict(list)
    for rid, (name, values) in records.items():
        for key in blocking_keys(name, values):
            blocks[key].append(rid)
    pairs = set()
    for members in blocks.values():
        if len(members) <= MAX_BLOCK:
            pairs.update(frozenset(p) for p in itertools.combinations(members, 2))
    return pairs


def main() -> None:
    from apps.resolution.comparisons.records import Record, records_compare

    rng = random.Random(SEED)
    m_counts, u_counts = defaultdict(Counter), defaultdict(Counter)
    n_true = n_blocked = n_true_all = 0
    for dataset in TRAINING_SETS:
        frame, true_pairs = febrl_load(dataset)
        records = {rid: (febrl_name(row), febrl_values(row)) for rid, row in frame.iterrows()}
        pairs = blocked_pairs(records)
        true_blocked = pairs & true_pairs
        others = list(pairs - true_pairs)
        rng.shuffle(others)
        n_true += len(true_blocked)
        n_true_all += len(true_pairs)
        n_blocked += len(pairs)
        for counts, chosen in ((m_counts, true_blocked), (u_counts, others[:MAX_NON_PAIRS])):
            for pair in chosen:
                a, b = (records[r] for r in pair)
                for c in records_compare("Person", Record([a[0]], a[1]), Record([b[0]], b[1])):
                    counts[c.comparison][c.level] += 1
        print(f"{dataset}: {len(frame)} records, {len(true_pairs)} true pairs, "
              f"{len(pairs)} blocked pairs holding {len(true_blocked)} true")  # fmt: skip
    comparisons = {}
    for comparison, levels in LEVELS.items():
        m_total = sum(m_counts[comparison][lv] for lv in levels)
        u_total = sum(u_counts[comparison][lv] for lv in levels)
        comparisons[comparison] = {
            "estimated": True,
            "levels": {
                lv: {"m": (m_counts[comparison][lv] + 1) / (m_total + len(levels)),
                     "u": max(U_FLOORS.get(comparison, U_FLOOR),
                              (u_counts[comparison][lv] + 1) / (u_total + len(levels)))}
                for lv in levels
            },
        }  # fmt: skip
    for comparison, levels in ASSUMED.items():
        comparisons[comparison] = {
            "estimated": False,
            "levels": {lv: {"m": m, "u": u} for lv, (m, u) in levels.items()},
        }
    params = {
        "estimated_on": list(TRAINING_SETS),
        "held_out": HELD_OUT,
        "blocking": f"phonetic key of a name word, same born, same id:soc_sec; blocks <= {MAX_BLOCK}",
        "blocked_recall": round(n_true / n_true_all, 4),
        "prior": n_true / n_blocked,
        "comparisons": comparisons,
    }
    out = Path(__file__).resolve().parent.parent / "apps/resolution/match_model_params.json"
    out.write_text(json.dumps(params, indent=1, sort_keys=True) + "\n")
    print(f"prior {params['prior']:.5f}, blocked recall {params['blocked_recall']}")
    for comparison, spec in comparisons.items():
        for level, mu in spec["levels"].items():
            import math

            print(f"  {comparison:12} {level:9} m={mu['m']:.4f} u={mu['u']:.5f} "
                  f"w={math.log2(mu['m'] / mu['u']):+.2f}")  # fmt: skip
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
