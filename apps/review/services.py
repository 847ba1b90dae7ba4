"""A reviewer's (or review agent's) decisions: confirm, reject, and undo either. Pages and the
API call these same functions; each checks the review permission, runs in one graph transaction
under the tenant's review lock, then records the human decision in the audit. Every
`model_learn_every`-th decision queues the tenant's match model to learn (tenant_model)."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.resolution.tenant_model import match_model_learn_due
from apps.review.merges import do_merge_confirm, do_review_lock, pending_pair_locked
from apps.review.not_same import do_not_same_record
from apps.review.suspect_merges import do_suspect_keep, do_suspect_undo, suspect_embedded
from apps.review.unmerges import do_merge_undo
from apps.tenants.models import KeyScope
from apps.tenants.services import audit_record
from memoryproject.api_errors import ConflictError, NotFoundError, PermissionDeniedError

MAX_REASON_CHARS = 2000

REJECTION_UNDO = """
MATCH (a:Entity)-[s:SAME_AS {uid: $uid}]->(b:Entity)
USING INDEX SEEK s:SAME_AS(uid)
WHERE s.tenant = $tenant AND a.tenant = $tenant AND b.tenant = $tenant
OPTIONAL MATCH (a)-[n:NOT_SAME]-(b)
DELETE n
WITH DISTINCT s, a, b
WHERE s.status = 'rejected'
SET s.status = 'pending', s.decided_by = null, s.decided_at = null
RETURN a.uid AS a, b.uid AS b, a.name AS a_name, b.name AS b_name
"""

REJECTION_STATE = """
MATCH ()-[s:SAME_AS {uid: $uid}]->() WHERE s.tenant = $tenant
RETURN s.status AS status
"""


def _require_review(scope: Scope) -> None:
    if not scope.allows(KeyScope.REVIEW):
        raise PermissionDeniedError(
            "Deciding reviews needs the review permission (reviewer or admin role, or a key "
            "with the 'review' scope)."
        )


def check_review_confirm(scope: Scope, *, review_uid: str, survivor_uid: str | None = None):
    """Merge a pending pair (see merges.py). ConflictError if it was decided already."""
    _require_review(scope)
    result = cypher.write_unit(
        scope, lambda stx: do_merge_confirm(stx, review_uid=review_uid, survivor_uid=survivor_uid)
    )
    audit_record(
        scope,
        action="review.confirm",
        target=review_uid,
        details={k: result[k] for k in ("merge_uid", "survivor_uid", "merged_uid",
                                         "survivor_name", "merged_name", "moved")},
    )  # fmt: skip
    match_model_learn_due(scope, result["decisions"])
    return result


def _reject(stx: ScopedTx, review_uid: str, reason: str) -> dict:
    pair = pending_pair_locked(stx, review_uid)
    do_not_same_record(stx, left_uid=pair["a"], right_uid=pair["b"], reason=reason)
    return pair


def check_review_reject(scope: Scope, *, review_uid: str, reason: str = "") -> dict:
    """Record NOT_SAME between the pair (both directions; the gate never proposes it again)."""
    _require_review(scope)
    pair = cypher.write_unit(scope, lambda stx: _reject(stx, review_uid, reason[:MAX_REASON_CHARS]))
    result = {"review_uid": review_uid, "left_uid": pair["a"], "right_uid": pair["b"],
              "left_name": pair["a_name"], "right_name": pair["b_name"]}  # fmt: skip
    audit_record(scope, action="review.reject", target=review_uid, details=result)
    match_model_learn_due(scope, pair["decisions"])
    return result


def check_merge_undo(scope: Scope, *, merge_uid: str) -> dict:
    """Unmerge (see unmerges.py for the rules). ConflictError when later merges built on it."""
    _require_review(scope)
    result = cypher.write_unit(scope, lambda stx: do_merge_undo(stx, merge_uid=merge_uid))
    audit_record(scope, action="merge.undo", target=merge_uid, details=result)
    return result


def _rejection_undo(stx: ScopedTx, review_uid: str) -> dict:
    do_review_lock(stx)
    state = stx.run(REJECTION_STATE, uid=review_uid)
    if not state or state[0]["status"] != "rejected":
        raise ConflictError("This pair is not rejected (any more).")
    return stx.run(REJECTION_UNDO, uid=review_uid)[0]


def check_rejection_undo(scope: Scope, *, review_uid: str) -> dict:
    """Take back a rejection: the NOT_SAME goes and the pair is pending again."""
    _require_review(scope)
    pair = cypher.write_unit(scope, lambda stx: _rejection_undo(stx, review_uid))
    audit_record(scope, action="review.reject_undo", target=review_uid, details=pair)
    return pair


def check_suspect_keep(scope: Scope, *, uid: str) -> dict:
    """Keep a suspect automatic merge (suspect_merges). ConflictError if decided already."""
    _require_review(scope)
    result = cypher.write_unit(scope, lambda stx: do_suspect_keep(stx, uid=uid))
    audit_record(scope, action="suspect_merge.keep", target=uid,
                 details={k: result[k] for k in ("entity_uid", "name", "entity_name")})  # fmt: skip
    return result


def check_suspect_undo(scope: Scope, *, uid: str) -> dict:
    """Undo a suspect automatic merge: the mention's entity comes back, NOT_SAME the other."""
    _require_review(scope)
    embedded = suspect_embedded(scope, uid=uid)
    if embedded is None:
        raise NotFoundError("No such suspect merge.")
    result = cypher.write_unit(scope, lambda stx: do_suspect_undo(stx, uid=uid, embedded=embedded))
    audit_record(scope, action="suspect_merge.undo", target=uid,
                 details={k: result[k] for k in ("entity_uid", "restored_uid", "moved_back")})  # fmt: skip
    return result
