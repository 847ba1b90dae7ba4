"""The block re-resolved when new evidence arrives: the gate scores a mention against its block
once, when it is first met, so a pair that scored under the review threshold then was never
looked at again, and whether two fragments ever met depended on the order documents arrived.
Here an entity that a document, a facts call or a merge gave more evidence is searched for in
the name index again (the gate's own block: words, acronym, blocking keys), and every active
entity found that is neither paired with it (SAME_AS of any status) nor ruled NOT_SAME is scored
from both sides as they are now (pair_rescoring.side_pair_scored). A pair at or above the
review threshold becomes a pending SAME_AS, as the gate would have proposed it; collective
resolution then merges the ones the gate's rule allows (review.collective_merges)."""

from __future__ import annotations

import json

from apps.graph.cypher import ScopedTx
from apps.graph.ordered_uids import ordered_uid
from apps.resolution.candidates import EntityCandidate
from apps.resolution.comparisons import MISSING
from apps.resolution.decision_receipts import weights_of
from apps.resolution.entity_values import values_with_ties
from apps.resolution.gate import (
    PROPOSALS,
    candidate_words_query,
    gate_decide,
)
from apps.resolution.match_sides import CONTEXT_PARAMS, SIDE_FIELDS
from apps.resolution.pair_rescoring import (
    MODEL_JSON,
    PAIR_FIGURES,
    side_pair_compared,
    side_pair_scored,
)

HITS = 10  # entities of the name index per seed
MAX_SEEDS = 64

SEEDS = """
UNWIND $uids AS seed
MATCH (e:Entity {tenant: $tenant, uid: seed}) USING INDEX SEEK e:Entity(uid)
WHERE e.status = 'active'
RETURN e.uid AS uid, e.name AS name, coalesce(e.aliases, []) AS aliases, e.type AS type,
       e.values_json AS values_json
"""
# Each seed's hits in the name index (`unpaired`: neither paired with it nor ruled apart; else
# only not ruled apart) with what depends on the pair; the sides are read apart (SIDES), once
# per entity: a seed meets up to HITS entities and a hit several seeds.
_BLOCK = """
UNWIND $seeds AS seed
MATCH (a:Entity {tenant: $tenant, uid: seed.uid}) USING INDEX SEEK a:Entity(uid)
CALL (seed, a) {
  CALL db.index.fulltext.queryNodes('entity_names', seed.words, {limit: $hits}) YIELD node
  WITH node AS b
  WHERE b <> a AND b.tenant = $tenant AND b.status = 'active'
    AND NOT EXISTS { (a)-[:NOT_SAME]-(b) } %s
  RETURN b
}
RETURN a.uid AS a, b.uid AS b, """
BLOCK_HITS = {
    unpaired: _BLOCK % ("AND NOT EXISTS { (a)-[:SAME_AS]-(b) }" if unpaired else "") + PAIR_FIGURES
    for unpaired in (True, False)
}
SIDES = (
    """
UNWIND $uids AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid}) USING INDEX SEEK e:Entity(uid)
WITH collect({"""
    + SIDE_FIELDS
    + "}) AS sides\nRETURN sides, "
    + MODEL_JSON
    + " AS model_json\n"
)
# The pair proposed, unless a concurrent worker paired or ruled it meanwhile (both locked).
PROPOSE = """
UNWIND $pairs AS p
MATCH (a:Entity {tenant: $tenant, uid: p.a}) USING INDEX SEEK a:Entity(uid)
MATCH (b:Entity {tenant: $tenant, uid: p.b}) USING INDEX SEEK b:Entity(uid)
SET a._lock = true, b._lock = true
REMOVE a._lock, b._lock
WITH p, a, b
WHERE a.status = 'active' AND b.status = 'active'
  AND NOT EXISTS { (a)-[:SAME_AS]-(b) } AND NOT EXISTS { (a)-[:NOT_SAME]-(b) }
CREATE (a)-[s:SAME_AS {uid: p.uid, tenant: $tenant, status: 'pending', score: p.score,
                       signals: p.signals, evidence: p.evidence, reason: p.reason,
                       agent: 'resolution', created_at: datetime()}]->(b)
RETURN s.uid AS uid
"""


def block_proposals(stx: ScopedTx, *, entity_uids: list[str]) -> list[str]:
    """Propose (pending SAME_AS) the unpaired pairs of `entity_uids`' blocks that now score at
    or above the tenant's review threshold, at most PROPOSALS per entity, best first; the new
    pairs' uids."""
    seeds = _seeds(stx, list(dict.fromkeys(u for u in entity_uids if u))[:MAX_SEEDS])
    if not seeds:
        return []
    rows = _block_rows(stx, seeds, unpaired=True)
    review_at = float(stx.scope.setting("review_threshold"))
    merge_at = float(stx.scope.setting("merge_threshold"))
    seen: set[frozenset] = set()
    per_seed: dict[str, int] = {}
    pairs = []
    scored = [(row, side_pair_scored(stx, row)) for row in rows]
    scored = [(row, p) for row, p in scored if p is not None and p.probability >= review_at]
    for row, proposal in sorted(scored, key=lambda x: (-x[1].probability, x[0]["a"], x[0]["b"])):
        key = frozenset((row["a"], row["b"]))
        if key in seen or per_seed.get(row["a"], 0) >= PROPOSALS:
            continue
        seen.add(key)
        per_seed[row["a"]] = per_seed.get(row["a"], 0) + 1
        decision = gate_decide([proposal], merge_at=merge_at, review_at=review_at)
        pairs.append({
            "a": row["a"], "b": row["b"], "uid": ordered_uid(),
            "score": round(proposal.probability, 6),
            "signals": json.dumps(weights_of(proposal)),
            "evidence": json.dumps(proposal.scored.as_dict()["parts"]),
            "reason": "scored again when new evidence arrived: "
                      + (decision.pair_reasons[0] if decision.pair_reasons else decision.reason),
        })  # fmt: skip
    if not pairs:
        return []
    return [r["uid"] for r in stx.run(PROPOSE, pairs=pairs)]


def block_levels(stx: ScopedTx, *, entity_uids: list[str]) -> list[dict[str, str]]:
    """The comparison levels (missing ones left out) of every pair of `entity_uids`' blocks
    not ruled apart, each pair once: the tenant's own pairs, for model_estimation."""
    # Two edits on every word, as the gate once searched: the estimate needs the pairs of
    # different things a looser search brings as much as the near names (u as well as m).
    seeds = _seeds(stx, list(dict.fromkeys(entity_uids)), loose=True)
    if not seeds:
        return []
    rows = _block_rows(stx, seeds, unpaired=False)
    seen: set[frozenset] = set()
    out = []
    for row in rows:
        key = frozenset((row["a"], row["b"]))
        found = None if key in seen else side_pair_compared(stx, row)
        seen.add(key)
        if found is not None:
            out.append({c.comparison: c.level for c in found[0] if c.level != MISSING})
    return out


def _seeds(stx: ScopedTx, uids: list[str], *, loose: bool = False) -> list[dict]:
    """Each active seed with its name index query (the gate's, as for a candidate of its names,
    type and values; its words exact, or with two edits each when `loose`)."""
    if not uids:
        return []
    out = []
    for row in stx.run(SEEDS, uids=uids):
        values = values_with_ties(row["values_json"], None)
        candidate = EntityCandidate(row["name"], row["type"] or "Object",
                                    aliases=tuple(row["aliases"]), values=values)  # fmt: skip
        # Words exact: the gate searched these names fuzzily when it first met them, and the
        # blocking keys (phonetic codes) still meet a misspelling; 8x cheaper in Neo4j.
        words = candidate_words_query(stx.scope.tenant, candidate, fuzzy=loose, one_edit_below=0)
        if words:
            out.append({"uid": row["uid"], "words": words})
    return out


def _block_rows(stx: ScopedTx, seeds: list[dict], *, unpaired: bool) -> list[dict]:
    """The seeds' block pairs as side_pair_scored reads them (`left`, `right`, `semantic`,
    `same_name_count`, `apart_count`, `model_json`)."""
    hits = stx.run(BLOCK_HITS[unpaired], seeds=seeds, hits=HITS)
    if not hits:
        return []
    uids = list(dict.fromkeys(u for h in hits for u in (h["a"], h["b"])))
    found = stx.run(SIDES, uids=uids, description_embedding=None, **CONTEXT_PARAMS)[0]
    sides = {side["uid"]: side for side in found["sides"]}
    return [
        {**h, "left": sides[h["a"]], "right": sides[h["b"]], "model_json": found["model_json"]}
        for h in hits
        if h["a"] in sides and h["b"] in sides
    ]
