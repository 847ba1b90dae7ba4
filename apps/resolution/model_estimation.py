"""The tenant's match model estimated on its own pairs (model_em), as it grows: the shipped
levels for text (how often two notes about one person name no neighbour alike, share a job,
name one employer) are assumptions; a tenant's own notes say how its text reads.

When: after a document or a facts call, once the tenant's active entities reach FIRST, then
each time they have doubled since the last estimate (so a tenant of n entities is estimated
about log2(n) times, and a decision's cost does not grow). The pairs: the evidence of the gate's
merges (AutoMerge) and of collective merges, as they were scored; the pairs of the blocks of up
to MAX_SEEDS of its active entities as they are now (block_pairs.block_levels); its reviewers'
decisions as labels (tenant_model.DECISIONS). The estimate becomes the tenant's model and the
base that later learning from decisions starts from (tenant_model.match_model_learn)."""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.block_pairs import block_levels
from apps.resolution.match_model import model_params
from apps.resolution.model_em import params_em
from apps.resolution.model_learning import evidence_levels
from apps.resolution.tenant_model import DECISIONS, MAX_DECISIONS

FIRST = 40
MAX_SEEDS = 400
MAX_MERGES = 5000
# The comparison the blocks are cut on (block_pairs: the name index), kept as shipped (model_em).
BLOCKED_ON = frozenset({"name"})

GROWTH = """
OPTIONAL MATCH (mm:MatchModel {model_key: $tenant})
RETURN mm.estimated_entities AS estimated, mm.base_json CONTAINS $current AS current,
       COUNT { MATCH (e:Entity {tenant: $tenant}) WHERE e.status = 'active' } AS entities
"""
# What an estimate of this method stores (params_em's `learned`, as STORE writes it): one taken
# before the name was kept out (BLOCKED_ON) is taken again at the next document, not at the next
# doubling.
CURRENT = json.dumps({"fixed": sorted(BLOCKED_ON)})[1:-1]
MERGED = """
CALL () {
  MATCH (am:AutoMerge {tenant: $tenant, status: 'done'}) WHERE am.evidence IS NOT NULL
  RETURN am.evidence AS evidence
  UNION ALL
  MATCH (m:Merge {tenant: $tenant}) WHERE m.status = 'done' AND m.automatic = true
    AND m.evidence IS NOT NULL
  RETURN m.evidence AS evidence
}
RETURN evidence LIMIT $limit
"""
SAMPLE = """
MATCH (e:Entity {tenant: $tenant}) WHERE e.status = 'active'
RETURN e.uid AS uid ORDER BY e.uid LIMIT $limit
"""
STORE = """
MERGE (mm:MatchModel {model_key: $tenant})
ON CREATE SET mm.uid = randomUUID(), mm.tenant = $tenant, mm.created_at = datetime()
SET mm.params_json = $params_json, mm.base_json = $params_json, mm.confirmed = $confirmed,
    mm.rejected = $rejected, mm.estimated_entities = $entities, mm.learned_at = datetime()
"""


def model_estimate_due(scope: Scope) -> dict | None:
    """Estimate the tenant's model when it has grown enough since the last time (module
    docstring); what was estimated, else None."""
    row = cypher.read(scope, GROWTH, current=CURRENT)[0]
    entities, last = int(row["entities"]), row["estimated"]
    stale = last is not None and not row["current"]
    if entities < FIRST or (last is not None and entities < 2 * int(last) and not stale):
        return None
    return model_estimate(scope, entities=entities)


def model_estimate(scope: Scope, *, entities: int | None = None) -> dict:
    """Estimate the tenant's model on its pairs and store it; from how many pairs, and the
    prior it found."""
    decisions = cypher.read(scope, DECISIONS, limit=MAX_DECISIONS)
    confirmed = [evidence_levels(r["evidence"]) for r in decisions if r["same"]]
    rejected = [evidence_levels(r["evidence"]) for r in decisions if not r["same"]]
    merged = [evidence_levels(r["evidence"]) for r in cypher.read(scope, MERGED, limit=MAX_MERGES)]
    uids = [r["uid"] for r in cypher.read(scope, SAMPLE, limit=MAX_SEEDS)]
    blocks = cypher.read_unit(scope, lambda stx: block_levels(stx, entity_uids=uids))
    unlabelled = [levels for levels in merged + blocks if levels]
    params = params_em(model_params(), unlabelled=unlabelled, confirmed=confirmed,
                       rejected=rejected, prior_pairs=float(scope.setting("model_prior_pairs")),
                       fixed=BLOCKED_ON)  # fmt: skip
    if entities is None:
        entities = int(cypher.read(scope, GROWTH, current=CURRENT)[0]["entities"])
    cypher.write(scope, STORE, params_json=json.dumps(params, sort_keys=True),
                 confirmed=len(confirmed), rejected=len(rejected), entities=entities)  # fmt: skip
    return {"pairs": len(unlabelled), "confirmed": len(confirmed), "rejected": len(rejected),
            "prior": round(params["prior"], 4), "entities": entities}  # fmt: skip
