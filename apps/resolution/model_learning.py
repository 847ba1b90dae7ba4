"""Learning a tenant's match model from its reviewers' decisions: pure arithmetic, no graph.

Each decided pair carries its evidence (each comparison's level when it was proposed). For a
comparison, the level counts of confirmed pairs re-estimate its m (P(level | same)), and those
of rejected pairs its u (P(level | different)), each blended with the shipped defaults as a
Dirichlet prior worth `prior_pairs` pairs: m = (K m0 + n_level) / (K + n). So a few reviews
move a weight a little, and many move it a lot.

u learns under a prior U_PRIOR_FACTOR times stronger: rejected pairs are the near misses the
gate proposed, not a random sample of different entities, so they say less about how often a
level occurs between any two different entities. Levels no decision showed keep their share.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable

from apps.resolution.comparisons import MISSING
from apps.resolution.match_model import level_weight

U_PRIOR_FACTOR = 5.0
# No probability learned below this, so no level's weight runs off to infinity.
FLOOR = 1e-6


def evidence_levels(evidence_json: str | None) -> dict[str, str]:
    """comparison -> level of one decided pair's stored evidence (missing ones left out)."""
    if not evidence_json:
        return {}
    parts = json.loads(evidence_json)
    return {p["comparison"]: p["level"] for p in parts if p.get("level") != MISSING}


def params_learned(
    defaults: dict,
    *,
    confirmed: Iterable[dict[str, str]],
    rejected: Iterable[dict[str, str]],
    prior_pairs: float,
) -> dict:
    """The defaults with every comparison's m re-estimated from `confirmed` pairs' levels and
    its u from `rejected` pairs' levels (see the module docstring); `learned` says from what."""
    confirmed, rejected = list(confirmed), list(rejected)
    params = copy.deepcopy(defaults)
    for comparison, spec in params["comparisons"].items():
        levels = spec["levels"]
        for side, pairs, strength in (("m", confirmed, prior_pairs),
                                      ("u", rejected, prior_pairs * U_PRIOR_FACTOR)):  # fmt: skip
            counts = Counter(p[comparison] for p in pairs if p.get(comparison) in levels)
            seen = sum(counts.values())
            if not seen:
                continue
            for level, mu in levels.items():
                prior = defaults["comparisons"][comparison]["levels"][level][side]
                mu[side] = max(FLOOR, (strength * prior + counts[level]) / (strength + seen))
    params["learned"] = {"confirmed": len(confirmed), "rejected": len(rejected),
                         "prior_pairs": prior_pairs, "u_prior_factor": U_PRIOR_FACTOR}  # fmt: skip
    return params


def weight_changes(before: dict, after: dict, *, at_least: float = 0.05) -> list[dict]:
    """The levels whose weight (log2 m/u) moved by at least `at_least` bits, largest first."""
    changes = []
    for comparison, spec in after["comparisons"].items():
        for level in spec["levels"]:
            was = level_weight(before, comparison, level)
            now = level_weight(after, comparison, level)
            if abs(now - was) >= at_least:
                changes.append({"comparison": comparison, "level": level,
                                "before": round(was, 2), "after": round(now, 2)})  # fmt: skip
    return sorted(changes, key=lambda c: -abs(c["after"] - c["before"]))
