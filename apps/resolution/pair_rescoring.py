"""Pending pairs scored again from what the graph knows of both sides now (collective
resolution): a merge or a new mention gives an entity more neighbours, so a pair that waited
for want of context may now have it. The same comparisons, model and rule as the gate
(gate.proposals_score): here both sides are entities, read with their names, values, type and
the neighbours of a few of their chunks (match_sides.NEIGHBOURS)."""

from __future__ import annotations

from dataclasses import dataclass

from apps.graph.cypher import ScopedTx
from apps.resolution.comparisons import Compared
from apps.resolution.comparisons.entity_types import types_may_meet
from apps.resolution.comparisons.records import RARE_CARRIERS, Record, records_compare
from apps.resolution.gate import Match, Proposal, match_of
from apps.resolution.match_model import match_score, name_tf_adjustment
from apps.resolution.match_sides import CONTEXT_PARAMS, SIDE_FIELDS
from apps.resolution.name_frequency import type_name_counts
from apps.resolution.tenant_model import tenant_params

# What depends on the pair itself (a, b bound): the two descriptions' cosine and how many
# active entities carry a's name, in all and apart from the pair and its pending fragments.
PAIR_FIGURES = """CASE WHEN a.description_embedding IS NULL OR b.description_embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(a.description_embedding,
                                              b.description_embedding) - 1 END AS semantic,
       COUNT { MATCH (x:Entity {tenant: $tenant, norm_name: a.norm_name})
               USING INDEX SEEK x:Entity(tenant, norm_name)
               WHERE x.type = a.type AND x.status = 'active' } AS same_name_count,
       COUNT { MATCH (x:Entity {tenant: $tenant, norm_name: a.norm_name})
               USING INDEX SEEK x:Entity(tenant, norm_name)
               WHERE x.type = a.type AND x.status = 'active' AND x <> a AND x <> b
                 AND NOT EXISTS { (x)-[:SAME_AS {status: 'pending'}]-(a) }
                 AND NOT EXISTS { (x)-[:SAME_AS {status: 'pending'}]-(b) } } AS apart_count"""
MODEL_JSON = "COLLECT { MATCH (mm:MatchModel {model_key: $tenant}) RETURN mm.params_json }[0]"
# Both sides of a pair (a, b bound), scored by side_pair_scored: the semantic part of SIDE_FIELDS
# is asked with no vector (null) and the two descriptions' cosine read beside.
PAIR_SIDES = (
    """
CALL (a) { WITH a AS e RETURN {"""
    + SIDE_FIELDS
    + """} AS left }
CALL (b) { WITH b AS e RETURN {"""
    + SIDE_FIELDS
    + """} AS right }
WITH *, """
    + PAIR_FIGURES
    + ",\n       "
    + MODEL_JSON
    + """ AS model_json
"""
)
# The pending pairs of the given entities, both sides in one round trip.
PENDING_SIDES = (
    """
UNWIND $uids AS seed
MATCH (seeded:Entity {tenant: $tenant, uid: seed})-[s:SAME_AS {status: 'pending'}]-(other)
USING INDEX SEEK seeded:Entity(uid)
WHERE s.tenant = $tenant AND 'Entity' IN labels(other)
WITH DISTINCT s LIMIT $pairs
WITH s, startNode(s) AS a, endNode(s) AS b  // a MATCH on bound s may scan the tenant's entities
WHERE a:Entity AND b:Entity AND a.tenant = $tenant AND b.tenant = $tenant
  AND a.status = 'active' AND b.status = 'active' AND NOT EXISTS { (a)-[:NOT_SAME]-(b) }"""
    + PAIR_SIDES
    + """RETURN s.uid AS pair, left, right, semantic, same_name_count, apart_count, model_json
"""
)


@dataclass(frozen=True)
class RescoredPair:
    uid: str  # the SAME_AS
    left: Match  # its start (the newer entity, as the gate proposed it)
    right: Match
    proposal: Proposal  # `right` as the match, scored now


def pairs_rescored(stx: ScopedTx, *, entity_uids: list[str], limit: int) -> list[RescoredPair]:
    """The pending pairs (at most `limit`) of `entity_uids`, each scored from both sides as
    they are now, most probable first."""
    if not entity_uids:
        return []
    rows = stx.run(PENDING_SIDES, uids=list(entity_uids), pairs=limit, description_embedding=None,
                   **CONTEXT_PARAMS)  # fmt: skip
    out = []
    for row in rows:
        proposal = side_pair_scored(stx, row)
        if proposal is not None:
            out.append(RescoredPair(row["pair"], match_of(row["left"]), proposal.match, proposal))
    out.sort(key=lambda p: (-p.proposal.probability, p.uid))
    return out


def side_pair_scored(stx: ScopedTx, row: dict) -> Proposal | None:
    """One row of both sides (`left`, `right`: SIDE_FIELDS; `semantic`, `same_name_count`,
    `apart_count`, `model_json`) scored as the gate would, `right` as the match; None when
    their types may not meet."""
    found = side_pair_compared(stx, row)
    if found is None:
        return None
    compared, tf_bits = found
    scored = match_score(compared, name_tf_bits=tf_bits, params=tenant_params(row["model_json"]),
                         name_shared=namesakes_beside(row))  # fmt: skip
    return Proposal(match_of(row["right"]), scored)


def side_pair_compared(stx: ScopedTx, row: dict) -> tuple[list[Compared], float] | None:
    """The comparisons of a row's two sides (side_pair_scored) and the bits an identical
    name's frequency adds; None when their types may not meet."""
    left, right = match_of(row["left"]), match_of(row["right"])
    kind = left.type or right.type or "Object"
    if not types_may_meet(kind, left.type_guessed, right.type or kind, right.type_guessed):
        return None
    mine = Record(left.names, left.values, kind, left.type_guessed, left.context)
    theirs = Record(right.names, right.values, right.type or kind, right.type_guessed,
                    right.context)  # fmt: skip
    semantic = row["semantic"]
    semantic = None if semantic is None else max(0.0, min(1.0, float(semantic)))
    # The count includes the pair's own side; sole: the other side is the name's only other
    # carrier (so an identical name: a variant's sole carrier is the gate's to tell), not
    # counting the fragments pending beside either side: three notes' "Corvane Analytics
    # Inc." split in three are one name's carriers, and the first split must not make every
    # later one permanent. A carrier a reviewer kept apart is no pending twin: it counts.
    others = int(row["same_name_count"]) - 1 - _fragments(row)
    sole_on = stx.scope.setting("sole_name_merges") == 1  # the tenant's switch
    compared = records_compare(kind, mine, theirs, semantic=semantic,
                               rare=others <= RARE_CARRIERS, sole=others == 1 and sole_on)  # fmt: skip
    tf_bits = 0.0
    if compared[0].level == "exact":
        counts = type_name_counts(stx, kind)
        tf_bits = name_tf_adjustment(same_name_count=max(1, others + 1),
                                     entity_count=counts.entities,
                                     distinct_names=counts.names)  # fmt: skip
    return compared, tf_bits


def namesakes_beside(row: dict) -> bool:
    """Whether a third entity carries the pair's name, so that what only tells one carrier from
    none (context, a description) cannot tell the pair's sides apart from it. A fragment pending
    beside a side is no third carrier for a firm ('Corvane Analytics Inc.' split three ways); for
    a person it is: the bare note beside a colleague and the namesake pending beside it were
    merged on the colleague alone (crm seed 0)."""
    person = (row["left"].get("type") or row["right"].get("type")) == "Person"
    return int(row["same_name_count"]) - 1 - (0 if person else _fragments(row)) >= 2


def _fragments(row) -> int:
    """Same-name carriers beside the pair that are pending twins of a side (see above)."""
    return max(0, int(row["same_name_count"]) - 2 - int(row["apart_count"]))
