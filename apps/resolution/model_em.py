"""The match model estimated on a tenant's own pairs by expectation-maximisation (as Splink
does), with its reviewers' decisions as labels: pure arithmetic, no graph.

Each pair is the levels its comparisons gave. Unlabelled pairs (the gate's and collective
resolution's merges, and the pairs of the tenant's blocks, whatever became of them) take the
probability the current model gives them (E step); confirmed pairs count as 1, rejected as 0.
Every level's m is then re-estimated from the pairs weighted by that probability and its u from
the pairs weighted by its complement, and the prior from their mean (M step), each blended
with the shipped defaults as a Dirichlet prior worth `prior_pairs` pairs, as model_learning
does for decisions alone: m = (K m0 + sum p [level]) / (K + sum p). A tenant with few pairs
keeps nearly the defaults; one with many learns how its own text reads (how often two notes
about one person name no neighbour alike, how often two people share a job).

The name is the comparison the blocks are cut on (every pair met shares a word of its name), so
the pairs cannot say how often different things carry one name: among them, far more often than
between any two of the tenant's things. Estimated there, an identical name fell from odds x260 to
x3.5 on one tenant of 59 notes. As Splink leaves a blocking rule's comparison out of the EM run
it blocked, `fixed` comparisons keep the shipped levels; decisions (labels) still teach them.

Two bounds keep a small or odd tenant from running off: the prior stays within
[PRIOR_FLOOR, PRIOR_CEILING], and no probability falls below FLOOR. The rules above the
arithmetic (a conflict forbids a merge, a name alone never merges) are not the model's and do
not move."""

from __future__ import annotations

import copy
import math
from collections import defaultdict
from collections.abc import Sequence

from apps.resolution.match_model import level_weight
from apps.resolution.model_learning import FLOOR

ITERATIONS = 20
PRIOR_FLOOR = 0.005
PRIOR_CEILING = 0.5
Levels = dict[str, str]  # comparison -> level (missing ones left out)


def params_em(
    defaults: dict,
    *,
    unlabelled: Sequence[Levels],
    confirmed: Sequence[Levels] = (),
    rejected: Sequence[Levels] = (),
    prior_pairs: float,
    iterations: int = ITERATIONS,
    fixed: frozenset[str] = frozenset(),
) -> dict:
    """The defaults re-estimated on the pairs (module docstring); `learned` says from what."""
    params = copy.deepcopy(defaults)
    labelled = [(levels, 1.0) for levels in confirmed] + [(levels, 0.0) for levels in rejected]
    for _ in range(iterations if unlabelled else 1):
        pairs = [(levels, _posterior(params, levels)) for levels in unlabelled] + labelled
        if not pairs:
            break
        _maximise(params, defaults, pairs, prior_pairs, fixed)
    params["learned"] = {
        "confirmed": len(confirmed), "rejected": len(rejected), "unlabelled": len(unlabelled),
        "prior_pairs": prior_pairs, "method": "em" if unlabelled else "decisions",
        "fixed": sorted(fixed),
    }  # fmt: skip
    return params


def _posterior(params: dict, levels: Levels) -> float:
    prior = params["prior"]
    log_odds = math.log2(prior / (1 - prior))
    for comparison, level in levels.items():
        spec = params["comparisons"].get(comparison)
        if spec and level in spec["levels"]:
            log_odds += level_weight(params, comparison, level)
    return 1.0 / (1.0 + 2.0 ** (-max(-60.0, min(60.0, log_odds))))


def _maximise(
    params: dict, defaults: dict, pairs: list[tuple[Levels, float]], k: float, fixed: frozenset
) -> None:
    for comparison, spec in params["comparisons"].items():
        if comparison in fixed:
            continue
        shipped = defaults["comparisons"].get(comparison, spec)["levels"]
        for side in ("m", "u"):
            counts: dict[str, float] = defaultdict(float)
            for levels, p in pairs:
                level = levels.get(comparison)
                if level in spec["levels"]:
                    counts[level] += p if side == "m" else 1.0 - p
            seen = sum(counts.values())
            if seen <= 0:
                continue
            for level, mu in spec["levels"].items():
                prior = shipped.get(level, mu)[side]
                mu[side] = max(FLOOR, (k * prior + counts[level]) / (k + seen))
    same = sum(p for _, p in pairs)
    prior = (k * defaults["prior"] + same) / (k + len(pairs))
    params["prior"] = max(PRIOR_FLOOR, min(PRIOR_CEILING, prior))
