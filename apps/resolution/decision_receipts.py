"""The receipt a gate decision gives its caller, as both gate paths (per name and per window)
write it: the action, the match, the score and what each comparison weighed."""

from __future__ import annotations

from apps.resolution.candidates import EntityCandidate, Receipt
from apps.resolution.gate import Decision
from memoryproject.metrics import GATE_DECISIONS


def decision_receipt(candidate: EntityCandidate, decision: Decision, uid: str, action: str):
    """The receipt of one group's decision, as both gate paths write it (and counted)."""
    GATE_DECISIONS.labels(action=action).inc()
    best = decision.proposals[0] if decision.proposals else decision.best
    return Receipt(
        kind="entity",
        name=candidate.name,
        action=action,
        entity_uid=uid,
        matched_uid=decision.match.uid if decision.match else None,
        matched_name=decision.match.name if decision.match else None,
        score=round(best.probability, 6) if best else None,
        signals=weights_of(best) if best else {},
        reason=decision.reason,
        proposed=[{"uid": p.match.uid, "name": p.match.name, "score": round(p.probability, 6)}
                  for p in decision.proposals] if decision.action == "pending" else [],
    )  # fmt: skip


def weights_of(proposal) -> dict[str, float]:
    """Per comparison with evidence, its weight in bits (log2 m/u): what it added or took."""
    return {part.compared.comparison: round(part.weight, 2) for part in proposal.scored.parts
            if part.compared.level != "missing"}  # fmt: skip
