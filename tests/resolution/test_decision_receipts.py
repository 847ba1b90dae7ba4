"""The receipt of a gate decision, built from real comparisons and the shipped match model
(no graph needed: the gate's rule and the scoring are pure)."""

from __future__ import annotations

from apps.resolution.candidates import EntityCandidate
from apps.resolution.comparisons.records import Record, records_compare
from apps.resolution.decision_receipts import decision_receipt, weights_of
from apps.resolution.gate import Match, Proposal, gate_decide
from apps.resolution.match_model import match_score

ADA = EntityCandidate(name="Ada Lovelace", type="Person", values={"email": "ada@example.org"})


def proposal(match: Match, candidate: EntityCandidate = ADA) -> Proposal:
    mine = Record(candidate.names, candidate.values)
    compared = records_compare(candidate.type, mine, Record(match.names, match.values))
    return Proposal(match, match_score(compared))


def decide(*matches: Match):
    scored = sorted((proposal(m) for m in matches), key=lambda p: -p.probability)
    return gate_decide(scored, merge_at=0.9, review_at=0.5)


def test_a_merge_names_its_match_its_score_and_what_each_comparison_weighed():
    same = Match(uid="e1", name="Ada Lovelace", values={"email": "ada@example.org"})
    decision = decide(same)
    assert decision.action == "merge"
    receipt = decision_receipt(ADA, decision, "e1", "merged")
    best = decision.proposals[0]
    assert (receipt.kind, receipt.name, receipt.action) == ("entity", "Ada Lovelace", "merged")
    assert (receipt.entity_uid, receipt.matched_uid, receipt.matched_name) == (
        "e1", "e1", "Ada Lovelace",
    )  # fmt: skip
    assert receipt.score == round(best.probability, 6) and receipt.score >= 0.9
    assert receipt.signals == weights_of(best) and receipt.signals["email"] > 0
    assert receipt.reason == decision.reason and receipt.reason.endswith("-> merge")
    assert receipt.proposed == []  # only a pending decision lists proposals


def test_a_pending_decision_lists_its_proposals_best_first():
    # An identical name alone never merges: both entities of that name wait for review.
    a = Match(uid="e1", name="Ada Lovelace")
    b = Match(uid="e2", name="Ada Lovelace", aliases=("Countess of Lovelace",))
    decision = decide(a, b)
    assert decision.action == "pending"
    receipt = decision_receipt(ADA, decision, "new", "pending")
    assert receipt.entity_uid == "new" and receipt.matched_uid == decision.proposals[0].match.uid
    assert receipt.proposed == [
        {"uid": p.match.uid, "name": p.match.name, "score": round(p.probability, 6)}
        for p in decision.proposals
    ]
    assert {p["uid"] for p in receipt.proposed} == {"e1", "e2"}
    assert receipt.score == receipt.proposed[0]["score"]


def test_a_creation_keeps_the_best_match_it_passed_over_and_matches_nothing():
    other = Match(uid="e9", name="Grace Hopper", values={"email": "grace@example.org"})
    decision = decide(other)
    assert decision.action == "create" and decision.best is not None
    receipt = decision_receipt(ADA, decision, "new", "created")
    assert (receipt.matched_uid, receipt.matched_name, receipt.proposed) == (None, None, [])
    assert receipt.score == round(decision.best.probability, 6) and receipt.score < 0.5
    assert receipt.signals == weights_of(decision.best)


def test_without_any_candidate_the_receipt_has_no_score_and_no_signals():
    decision = gate_decide([], merge_at=0.9, review_at=0.5)
    receipt = decision_receipt(ADA, decision, "new", "created")
    assert (receipt.score, receipt.signals, receipt.matched_uid) == (None, {}, None)
    assert receipt.reason.startswith("no candidate found") and receipt.reason.endswith("create")
    assert receipt.as_dict()["action"] == "created"


def test_weights_leave_out_comparisons_without_evidence_and_are_rounded():
    # The match has no email: the email comparison is missing and weighs nothing either way.
    best = proposal(Match(uid="e1", name="Ada Lovelace"))
    levels = {part.compared.comparison: part.compared.level for part in best.scored.parts}
    assert levels["email"] == "missing"
    weights = weights_of(best)
    assert "email" not in weights and "name" in weights
    assert all(w == round(w, 2) for w in weights.values())
    assert set(weights) == {c for c, level in levels.items() if level != "missing"}
