"""The reason kept on a pending pair: its own proposal's evidence, not the decision's whole
reason (which lists the candidate's other proposals too)."""

from __future__ import annotations

from apps.resolution.gate import Decision


def pair_reason(decision: Decision, index: int) -> str:
    """The reason kept on the pending pair of `decision.proposals[index]`."""
    if index < len(decision.pair_reasons):
        return decision.pair_reasons[index]
    return decision.reason
