"""The Fellegi-Sunter match model: each comparison's level has m = P(level | same entity) and
u = P(level | different entities); its match weight is log2(m / u). The weights add to the prior
log-odds, and the sum is the match probability.

Parameters are data, not code: `match_model_params.json`, estimated on FEBRL by
`bench/identity_estimate.py` (which says which set was held out); levels FEBRL cannot show
(phones, emails, domains, descriptions) carry stated assumptions, marked as such in the file.

Two rules sit above the arithmetic, because no weight should be able to buy them:
- a conflicting identifier or date (`conflict` of born, phone, email, domain, external_id)
  forbids an automatic merge, whatever the probability (a typing slip is not a conflict: a
  `close` date or `typo` id is weighed like any level);
- a name alone never merges: some other comparison must add evidence (weight > 0); a type that
  agrees is no such evidence, and where namesakes carry the name, nor is shared context.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from apps.resolution.comparisons import MISSING, Compared

PARAMS_PATH = Path(__file__).with_name("match_model_params.json")
FORBIDDING = {"born": "conflict", "phone": "conflict", "email": "conflict", "role": "conflict",
              "domain": "conflict", "external_id": "conflict"}  # fmt: skip
# Evidence that is no evidence beyond the name: a type that agrees says nothing of identity.
NOT_CORROBORATING = {"name", "type"}
# Descriptions are weak evidence: two generic descriptions embed alike (see descriptions.py).
DESCRIPTION_CAP_BITS = 1.5
# Levels that say the two sides disagree: never evidence for them, whatever a tenant's EM run
# learned (descriptions of one person in two notes read 'unrelated' so often that one tenant's
# model weighed it x1.72 for, and it alone corroborated a namesake's name).
DISAGREEING = frozenset({"different", "conflict", "unrelated", "low", "none"})
# And levels that say they agree never count against them: one tenant's EM run weighed "only
# a city named beside both" /1.45, and a person's name beside that city read as a reason apart.
AGREEING_LEVELS = frozenset({"same", "shared", "many", "place", "related", "high"})
# How far the name's frequency in the tenant may move the weight of an identical name.
TF_CAP_BITS = 5.0


@dataclass(frozen=True)
class Part:
    compared: Compared
    weight: float  # log2(m/u); 0 for a missing comparison


@dataclass(frozen=True)
class Scored:
    probability: float
    log_odds: float  # prior log2-odds plus every part's weight
    parts: tuple[Part, ...]
    forbidden: tuple[str, ...]  # comparisons whose conflict forbids an automatic merge
    corroborated: bool  # some comparison besides the name adds evidence

    @property
    def may_merge(self) -> bool:
        return not self.forbidden and self.corroborated

    def as_dict(self) -> dict:
        return {
            "probability": round(self.probability, 6),
            "parts": [
                {"comparison": p.compared.comparison, "level": p.compared.level,
                 "weight": round(p.weight, 2), "detail": p.compared.detail}
                for p in self.parts if p.compared.level != MISSING
            ],
            "forbidden": list(self.forbidden),
        }  # fmt: skip


@functools.cache
def model_params(path: str = str(PARAMS_PATH)) -> dict:
    return json.loads(Path(path).read_text())


def level_weight(params: dict, comparison: str, level: str) -> float:
    if level == MISSING:
        return 0.0
    # A tenant's model learned before a comparison existed has no levels for it: the defaults.
    spec = params["comparisons"].get(comparison) or model_params()["comparisons"][comparison]
    mu = spec["levels"].get(level) or model_params()["comparisons"][comparison]["levels"][level]
    return math.log2(mu["m"] / mu["u"])


def name_tf_adjustment(*, same_name_count: int, entity_count: int, distinct_names: int) -> float:
    """Bits added to an identical name's weight (term-frequency adjustment): the name's share
    of the tenant's entities of the type (`same_name_count` / `entity_count`, the match
    included) against an average name's share (1 / `distinct_names`). A name no more common
    than average adds nothing; one carried by 8 entities where names are unique takes 3 bits;
    a rare one in a tenant of repeated names adds. The reference is the tenant's own, so the
    FEBRL-estimated weight of `exact` (an average name) transfers to other tenants."""
    if same_name_count < 1 or entity_count < 1 or distinct_names < 1:
        return 0.0
    bits = math.log2(entity_count / (distinct_names * same_name_count))
    return max(-TF_CAP_BITS, min(TF_CAP_BITS, bits))


# When two or more entities the tenant keeps apart carry the name (namesakes), what tells them
# apart is what one of them is (a date, an identifier, a job, an employer, a city): being named
# beside the same things, or described alike, corroborates nothing then.
NOT_TELLING_APART = NOT_CORROBORATING | {"context", "description", "rare_name"}


def match_score(
    comparisons: Sequence[Compared], *, name_tf_bits: float = 0.0, params: dict | None = None,
    name_shared: bool = False,
) -> Scored:  # fmt: skip
    """The match probability of two records from their comparisons (records_compare), with
    `name_tf_bits` (name_tf_adjustment) added when the names are identical; `name_shared`: the
    name is carried by two or more entities kept apart (NOT_TELLING_APART)."""
    params = params or model_params()
    quiet = NOT_TELLING_APART if name_shared else NOT_CORROBORATING
    prior = params["prior"]
    log_odds = math.log2(prior / (1 - prior))
    parts, forbidden, corroborated = [], [], False
    for compared in comparisons:
        weight = level_weight(params, compared.comparison, compared.level)
        if compared.comparison == "name" and compared.level == "exact":
            weight += name_tf_bits
        if compared.comparison == "description":
            weight = max(-DESCRIPTION_CAP_BITS, min(DESCRIPTION_CAP_BITS, weight))
        if compared.level in DISAGREEING:
            weight = min(0.0, weight)
        elif compared.level in AGREEING_LEVELS and compared.comparison != "name":
            weight = max(0.0, weight)
        if FORBIDDING.get(compared.comparison) == compared.level:
            forbidden.append(compared.comparison)
        if compared.comparison not in quiet and weight > 0:
            corroborated = True
        parts.append(Part(compared, weight))
        log_odds += weight
    probability = 1.0 / (1.0 + 2.0 ** (-log_odds)) if log_odds > -1000 else 0.0
    return Scored(probability, log_odds, tuple(parts), tuple(forbidden), corroborated)


# What one carrier of a name is and another is not: a value that agrees with one match and
# disagrees with another tells them apart (context, descriptions and hobbies are too loose).
TELLING = frozenset({"born", "role", "employer", "city", "maker", "phone", "email", "domain",
                     "external_id", "address"})  # fmt: skip


def told_apart(best: Scored, others: Sequence[Scored]) -> tuple[str, ...]:
    """The comparisons on which `best` disagrees while one of `others` agrees: the mention's
    value points to another carrier ('Jordi Watanabe (Pécs)' is the Pécs one, however much
    context the Tabriz one shares), so `best` is no match to take without a reviewer."""
    agreeing = {p.compared.comparison for other in others for p in other.parts
                if p.compared.level in AGREEING_LEVELS}  # fmt: skip
    return tuple(p.compared.comparison for p in best.parts
                 if p.compared.comparison in TELLING and p.compared.level in DISAGREEING
                 and p.compared.comparison in agreeing)  # fmt: skip


def part_words(part: Part) -> str:
    """One comparison in words a reviewer reads: what it found and what it did to the odds."""
    compared = part.compared
    if compared.level == MISSING:
        return f"{compared.comparison}: not on both sides, no evidence"
    effect = "for" if part.weight > 0 else "against" if part.weight < 0 else "neither way"
    times = 2 ** abs(part.weight)
    odds = f"odds x{times:.3g}" if part.weight >= 0 else f"odds /{times:.3g}"
    detail = f" ({compared.detail})" if compared.detail else ""
    return f"{compared.comparison} {compared.level}{detail}: {effect}, {odds}"
