"""Collective resolution: after a document or a facts call, the blocks of the entities it named
are searched again for pairs never proposed (resolution.block_pairs), and their pending pairs
are scored again from what the graph knows now (resolution.pair_rescoring), and a pair
that now meets the gate's own rule (P >= the tenant's merge threshold, evidence beyond the
name, no conflict) is merged as a reviewer's confirm would, with a Merge record marked
automatic, so it can be undone exactly and is never learned from as a human decision. A merge
gives the survivor more neighbours, so its own pairs are scored again, for at most ROUNDS
rounds of at most PAIRS pairs each."""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.resolution.block_pairs import block_proposals
from apps.resolution.decision_receipts import weights_of
from apps.resolution.gate import gate_decide
from apps.resolution.pair_rescoring import pairs_rescored
from apps.review.merges import do_merge_confirm
from apps.tenants.services import audit_record

ROUNDS = 3
PAIRS = 16
MAX_SEEDS = 200


def collective_merges(scope: Scope, *, entity_uids: list[str]) -> list[dict]:
    """Merge the pending pairs of `entity_uids` that new evidence now decides (module
    docstring); each merge as {merge_uid, survivor, merged, names, reason}, audited."""
    seeds = list(dict.fromkeys(u for u in entity_uids if u))[:MAX_SEEDS]
    done: list[dict] = []
    for _ in range(ROUNDS):
        if not seeds:
            break
        merged = cypher.write_unit(scope, lambda stx, seeds=seeds: _round(stx, seeds))
        for m in merged:
            audit_record(scope, action="resolution.collective_merge", target=m["merge_uid"],
                         details={k: m[k] for k in ("survivor_uid", "merged_uid",
                                                    "survivor_name", "merged_name")})  # fmt: skip
        done += merged
        seeds = [m["survivor_uid"] for m in merged]
    return done


def _round(stx: ScopedTx, seeds: list[str]) -> list[dict]:
    merge_at = float(stx.scope.setting("merge_threshold"))
    review_at = float(stx.scope.setting("review_threshold"))
    block_proposals(stx, entity_uids=seeds)  # pairs never proposed, scored as they are now
    gone: set[str] = set()
    merged = []
    pairs = pairs_rescored(stx, entity_uids=seeds, limit=PAIRS)
    for pair in pairs:
        sides = {pair.left.uid, pair.right.uid}
        if sides & gone:
            continue  # one side merged into another already in this round
        # The sides' other pairs, as the gate weighs a mention's other matches: a value one of
        # them agrees on and this pair disagrees on points elsewhere (match_model.told_apart).
        beside = [p.proposal for p in pairs if p is not pair and {p.left.uid, p.right.uid} & sides]
        decision = gate_decide([pair.proposal, *beside], merge_at=merge_at, review_at=review_at)
        if decision.action != "merge":
            continue
        proposal = pair.proposal
        result = do_merge_confirm(stx, review_uid=pair.uid, automatic={
            "score": round(proposal.probability, 6),
            "signals": json.dumps(weights_of(proposal)),
            "evidence": json.dumps(proposal.scored.as_dict()["parts"]),
            "reason": "scored again after new mentions: " + decision.reason,
        })  # fmt: skip
        gone.add(result["merged_uid"])
        merged.append({**result, "reason": decision.reason})
    return merged
