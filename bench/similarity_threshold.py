"""Where SIMILAR_TO's default threshold comes from: cosines of all-MiniLM-L6-v2 between texts on
one subject (paraphrase pairs of the kind tasks and findings hold) and between texts on
different subjects (every cross pairing of the same texts).

    .venv/bin/python bench/similarity_threshold.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

SAME = [
    (
        "Pump bearings overheat when lubrication fails",
        "Lubrication failure makes pump bearings overheat",
    ),
    (
        "The centrifugal pump cavitates at low suction pressure",
        "Low inlet pressure causes cavitation in the pump",
    ),
    ("Cooling water enters at pump P-1", "The coolant circuit is fed by pump P-1"),
    ("Valve V-1 leaks at the flange", "There is a leak at the flange of valve V-1"),
    ("The board approved the quarterly budget", "The quarterly budget was approved by the board"),
    (
        "Seals wear out after 4000 hours",
        "Mechanical seals fail after about four thousand operating hours",
    ),
    ("Study pump bearing failures", "Study pump bearing wear"),
    ("Map the cooling water circuit", "Map the cooling water pipes"),
]


def main() -> None:
    import django

    django.setup()
    from apps.graph.embeddings import get_embedder

    embedder = get_embedder()
    diff = [(a[0], b[1]) for i, a in enumerate(SAME) for j, b in enumerate(SAME) if i != j]

    def cosines(pairs):
        left = np.array(embedder.embed([p[0] for p in pairs]))
        right = np.array(embedder.embed([p[1] for p in pairs]))
        return (left * right).sum(axis=1)

    for name, pairs in (("same subject", SAME), ("different subjects", diff)):
        c = cosines(pairs)
        print(f"{name}: min {c.min():.2f} median {np.median(c):.2f} max {c.max():.2f} "
              f"(n={len(c)})")  # fmt: skip


if __name__ == "__main__":
    main()
