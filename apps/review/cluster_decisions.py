"""One decision on a cluster of pending pairs (cluster_finding), in one transaction under the
tenant's review lock, made of the pair decisions every reviewer makes, so each of their rules
holds (edges move, undo records, who decided, 409 on a stale pair):

- accept: every member is merged into one survivor (`survivor_rank`), each through a pending pair
  with it (`do_merge_confirm`); a member joined to the rest only through another member is merged
  once that member's pairs moved to the survivor.
- split: the same within each group; a group whose members no pending pair joins is joined by a
  pair the decision makes (marked `cluster_decision`, merged at once); then NOT_SAME between the
  groups' survivors (`do_not_same_record`), which closes the pending pairs between them.
- reject: NOT_SAME for every pending pair among the members.

A ClusterDecision node keeps the merges, the NOT_SAMEs and the pairs it made; `do_cluster_undo`
takes them back in one transaction: the NOT_SAMEs go and the pairs they closed are pending again,
the merges are undone latest first (`do_merge_undo`), the pairs it made are removed."""

from __future__ import annotations

import uuid

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.resolution.tenant_model import match_model_learn_due
from apps.review.cluster_finding import cluster_id_of, do_cluster_find
from apps.review.cluster_selectors import survivor_rank
from apps.review.merge_records import record_dump, record_load
from apps.review.merges import do_merge_confirm, do_review_lock
from apps.review.not_same import do_not_same_record
from apps.review.unmerges import do_merge_undo
from apps.tenants.models import KeyScope
from apps.tenants.services import audit_record
from memoryproject.api_errors import (
    ApplicationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
)

DECISIONS = ("accept", "split", "reject")

LINKS_TO_SURVIVOR = """
MATCH (s:Entity {tenant: $tenant, uid: $survivor})-[p:SAME_AS {status: 'pending'}]-(o:Entity)
WHERE o.uid IN $others
RETURN o.uid AS uid, p.uid AS pair
ORDER BY p.score DESC, o.uid
"""

PAIR_MAKE = """
MATCH (a:Entity {tenant: $tenant, uid: $merged}) USING INDEX SEEK a:Entity(uid)
MATCH (b:Entity {tenant: $tenant, uid: $survivor}) USING INDEX SEEK b:Entity(uid)
CREATE (a)-[s:SAME_AS {uid: $uid, tenant: $tenant, status: 'pending', agent: $actor,
                       reason: 'put in one group by a cluster decision',
                       cluster_decision: $decision, created_at: datetime()}]->(b)
RETURN s.uid AS uid
"""

APART = """
UNWIND $survivors AS uid
MATCH (a:Entity {uid: uid})
USING INDEX SEEK a:Entity(uid)
WHERE a.tenant = $tenant
RETURN a.uid AS uid,
  COLLECT { MATCH (a)-[s:SAME_AS {status: 'pending'}]->(b:Entity) WHERE b.uid IN $survivors
            RETURN s.uid } AS pending,
  COLLECT { MATCH (a)-[:NOT_SAME]->(b:Entity) WHERE b.uid IN $survivors RETURN b.uid } AS not_same
"""

DECISION_RECORD = """
CREATE (d:ClusterDecision {uid: $uid, tenant: $tenant, cluster_id: $cluster_id,
                           decision: $decision, members: $members, actor: $actor,
                           status: 'done', record: $record, created_at: datetime()})
RETURN toString(d.created_at) AS created_at
"""

LAST_DECISION = """
MATCH (d:ClusterDecision {cluster_id: $cluster_id})
USING INDEX SEEK d:ClusterDecision(cluster_id)
WHERE d.tenant = $tenant
RETURN d {.uid, .decision, .members, .actor, .status, .record, .undone_by,
          created_at: toString(d.created_at), undone_at: toString(d.undone_at)} AS decision
ORDER BY d.created_at DESC LIMIT 1
"""

# What an undo finds now: which of the decision's merges still stand, and which of the entities
# its NOT_SAMEs were recorded on no longer do.
UNDO_STATE = """
RETURN COLLECT { MATCH (m:Merge {tenant: $tenant, status: 'done'}) WHERE m.uid IN $merges
                 RETURN m.uid } AS merges_done,
       COLLECT { MATCH (e:Entity) USING INDEX SEEK e:Entity(uid)
                 WHERE e.uid IN $kept AND e.tenant = $tenant AND e.status <> 'active'
                 RETURN e.name } AS kept_gone
"""

REJECTIONS_UNDO = """
CALL () {
  UNWIND $not_same AS ns
  MATCH (:Entity {tenant: $tenant, uid: ns[0]})-[n:NOT_SAME]-(:Entity {tenant: $tenant, uid: ns[1]})
  DELETE n
}
CALL () {
  UNWIND $rejected AS uid
  MATCH ()-[s:SAME_AS {uid: uid}]->()
  USING INDEX SEEK s:SAME_AS(uid)
  WHERE s.tenant = $tenant AND s.status = 'rejected'
  SET s.status = 'pending', s.decided_by = null, s.decided_at = null
}
RETURN true AS done
"""

PAIRS_MADE_DROP = """
UNWIND $uids AS uid
MATCH ()-[s:SAME_AS {uid: uid}]->()
WHERE s.tenant = $tenant AND s.cluster_decision = $decision
DELETE s
"""

DECISION_UNDONE = """
MATCH (d:ClusterDecision {tenant: $tenant, uid: $uid}) USING INDEX SEEK d:ClusterDecision(uid)
SET d.status = 'undone', d.undone_by = $actor, d.undone_at = datetime()
RETURN toString(d.undone_at) AS undone_at
"""


def _require_review(scope: Scope) -> None:
    if not scope.allows(KeyScope.REVIEW):
        raise PermissionDeniedError(
            "Deciding reviews needs the review permission (reviewer or admin role, or a key "
            "with the 'review' scope)."
        )


def _cluster_now(stx: ScopedTx, cluster_id: str, expected: list[str] | None) -> dict:
    """The cluster under the lock, as the reviewer saw it, or the refusal that says why not."""
    found = do_cluster_find(stx, cluster_id=cluster_id)
    if found["found"]:
        if expected is not None and sorted(expected) != found["members"]:
            raise ApplicationError("These are not the members of this cluster.",
                                   field="expected_members")  # fmt: skip
        return found
    if found["start_status"] is None:
        raise NotFoundError("No such cluster.")
    last = stx.run(LAST_DECISION, cluster_id=cluster_id)
    if last and last[0]["decision"]["status"] == "done":
        d = last[0]["decision"]
        raise ConflictError(
            f"Already decided ({d['decision']}) by {d['actor']} at {d['created_at']}.",
            extra={"decision": d["decision"], "decided_by": d["actor"],
                   "decided_at": d["created_at"]},
        )  # fmt: skip
    now = found["members"]
    raise ConflictError(
        "The cluster changed since it was read: its members are not the same any more.",
        extra={"members": now, "cluster_id": cluster_id_of(now) if len(now) >= 3 else None},
    )


def _groups_checked(groups: list[list[str]], found: dict) -> list[list[str]]:
    members = set(found["members"])
    placed = [u for g in groups for u in g]
    if len(groups) < 2:
        raise ApplicationError("A split needs at least two groups.", field="groups", limit=2)
    if any(not g for g in groups) or sorted(placed) != sorted(members):
        raise ApplicationError("Every member must be in exactly one group, and nothing else.",
                               field="groups")  # fmt: skip
    where = {u: i for i, g in enumerate(groups) for u in g}
    for a, b in found["not_same"]:
        if where[a] == where[b]:
            names = found["nodes"][a]["name"], found["nodes"][b]["name"]
            raise ConflictError(f"'{names[0]}' and '{names[1]}' were decided not the same; "
                                "put them in different groups.", field="groups")  # fmt: skip
    return [sorted(g) for g in groups]


def _group_merge(stx: ScopedTx, group: list[str], found: dict, decision_uid: str) -> dict:
    """Merge a group into its survivor through pending pairs with it, making a pair where none
    joins what is left of the group to the survivor."""
    survivor = min((found["nodes"][u] for u in group), key=survivor_rank)["uid"]
    left, merges, made = set(group) - {survivor}, [], []
    # The first round's pairs are those read with the cluster, under the same lock.
    links = [{"uid": p["b"] if p["a"] == survivor else p["a"], "pair": p["uid"]}
             for p in sorted(found["pairs"], key=lambda p: (-(p["score"] or 0.0), p["uid"]))
             if survivor in (p["a"], p["b"])]  # fmt: skip
    while left:
        if not links:
            merged = min((found["nodes"][u] for u in left), key=survivor_rank)["uid"]
            pair = stx.run(PAIR_MAKE, merged=merged, survivor=survivor, uid=uuid.uuid4().hex,
                           actor=stx.scope.actor, decision=decision_uid)[0]["uid"]  # fmt: skip
            made.append(pair)
            links = [{"uid": merged, "pair": pair}]
        for link in links:
            if link["uid"] in left:  # one pair per member: others to it were moved or dropped
                left.discard(link["uid"])
                merges.append(do_merge_confirm(stx, review_uid=link["pair"],
                                               survivor_uid=survivor, lock_held=True))  # fmt: skip
        if left:  # the merged members' pairs with the rest are the survivor's now
            links = stx.run(LINKS_TO_SURVIVOR, survivor=survivor, others=sorted(left))
    return {"survivor": survivor, "merges": merges, "made": made}


def _apart(
    stx: ScopedTx, survivors: list[str], pending: list[tuple[str, str]] | None = None
) -> dict:
    """NOT_SAME between every two of `survivors` (or only the `pending` pairs' ends): what it
    closed and the NOT_SAMEs that were not there before (for the undo)."""
    rows = stx.run(APART, survivors=survivors)
    closed = sorted({uid for r in rows for uid in r["pending"]})
    existing = {frozenset((r["uid"], o)) for r in rows for o in r["not_same"]}
    if pending is None:
        ends = [(a, b) for i, a in enumerate(survivors) for b in survivors[i + 1 :]]
    else:
        ends = pending
    made = []
    for a, b in sorted({tuple(sorted(e)) for e in ends}):
        do_not_same_record(stx, left_uid=a, right_uid=b, reason="a cluster decision")
        if frozenset((a, b)) not in existing:
            made.append([a, b])
    return {"rejected": closed, "not_same": made}


def do_cluster_decide(stx: ScopedTx, *, cluster_id: str, decision: str,
                      groups: list[list[str]] | None = None,
                      expected: list[str] | None = None) -> dict:  # fmt: skip
    """Decide a cluster in the caller's transaction (module docstring). Raises NotFoundError
    outside this tenant, ConflictError when the cluster changed or was decided since read."""
    before = do_review_lock(stx)
    found = _cluster_now(stx, cluster_id, expected)
    decision_uid = uuid.uuid4().hex
    if decision == "accept":
        if found["not_same"]:
            a, b = found["not_same"][0]
            names = found["nodes"][a]["name"], found["nodes"][b]["name"]
            raise ConflictError(f"'{names[0]}' and '{names[1]}' were decided not the same; "
                                "split the cluster instead.")  # fmt: skip
        groups = [found["members"]]
    elif decision == "split":
        groups = _groups_checked(groups or [], found)
    else:
        groups = [[u] for u in found["members"]]
    merged = [_group_merge(stx, g, found, decision_uid) for g in groups if len(g) > 1]
    survivors = {m["survivor"] for m in merged} | {g[0] for g in groups if len(g) == 1}
    if decision == "split":
        apart = _apart(stx, sorted(survivors))
    elif decision == "reject":
        apart = _apart(stx, found["members"], pending=[(p["a"], p["b"]) for p in found["pairs"]])
    else:
        apart = {"rejected": [], "not_same": []}
    merges = [m for g in merged for m in g["merges"]]
    # Each merge and each closed pair is one decision of the tenant's count, as a pair's is;
    # the lock is held since the first statement, so the count goes up once, here.
    after = do_review_lock(stx, decides=len(merges) + len(apart["rejected"]))
    record = {
        "groups": groups,
        "survivors": sorted(survivors),
        "merges": [m["merge_uid"] for m in merges],
        "made": [pair for g in merged for pair in g["made"]],
        **apart,
    }
    created_at = stx.run(DECISION_RECORD, uid=decision_uid, cluster_id=cluster_id,
                         decision=decision, members=found["members"], actor=stx.scope.actor,
                         record=record_dump(record))[0]["created_at"]  # fmt: skip
    return {
        "decision_uid": decision_uid, "cluster_id": cluster_id, "decision": decision,
        "members": found["members"], "groups": groups, "survivors": record["survivors"],
        "merges": [{k: m[k] for k in ("merge_uid", "survivor_uid", "merged_uid", "survivor_name",
                                      "merged_name", "moved")} for m in merges],
        "rejected": apart["rejected"], "not_same": apart["not_same"], "made": record["made"],
        "created_at": created_at, "decisions": (before, after),
    }  # fmt: skip


def check_cluster_decide(scope: Scope, *, cluster_id: str, decision: str,
                         groups: list[list[str]] | None = None,
                         expected: list[str] | None = None) -> dict:  # fmt: skip
    """Accept, split or reject a cluster, all of it in one transaction (module docstring), then
    audited. `expected`: the members the reviewer saw (the id already pins them)."""
    _require_review(scope)
    if decision not in DECISIONS:
        raise ApplicationError(f"A decision is one of {', '.join(DECISIONS)}.", field="decision")
    result = cypher.write_unit(scope, lambda stx: do_cluster_decide(
        stx, cluster_id=cluster_id, decision=decision, groups=groups, expected=expected))  # fmt: skip
    before, after = result.pop("decisions")
    audit_record(scope, action=f"review.cluster_{decision}", target=cluster_id,
                 details={k: result[k] for k in ("decision_uid", "members", "groups",
                                                 "survivors", "merges", "rejected")})  # fmt: skip
    for n in range(before + 1, after + 1):  # learning is due at a multiple the decision passed
        if match_model_learn_due(scope, n):
            break
    return result


def do_cluster_undo(stx: ScopedTx, *, cluster_id: str) -> dict:
    """Take back the latest decision on `cluster_id` in the caller's transaction (module
    docstring). ConflictError when it was undone already or later work built on it."""
    do_review_lock(stx)
    rows = stx.run(LAST_DECISION, cluster_id=cluster_id)
    if not rows:
        raise NotFoundError("No decision on this cluster.")
    decision = rows[0]["decision"]
    if decision["status"] != "done":
        raise ConflictError(
            f"Already undone by {decision['undone_by']} at {decision['undone_at']}.",
            extra={"decided_by": decision["undone_by"], "decided_at": decision["undone_at"]},
        )
    record = record_load(decision["record"])
    # A NOT_SAME is taken back from the entities it was recorded on: they must still stand.
    kept = record["survivors"] if record["not_same"] or record["rejected"] else []
    state = stx.run(UNDO_STATE, merges=record["merges"], kept=kept)[0]
    if state["kept_gone"]:
        raise ConflictError(f"'{state['kept_gone'][0]}' was merged since: undo that merge first.")
    if record["not_same"] or record["rejected"]:
        stx.run(REJECTIONS_UNDO, not_same=record["not_same"], rejected=record["rejected"])
    done = set(state["merges_done"])
    undone = [do_merge_undo(stx, merge_uid=m) for m in reversed(record["merges"]) if m in done]
    if record["made"]:
        stx.run(PAIRS_MADE_DROP, uids=record["made"], decision=decision["uid"])
    undone_at = stx.run(DECISION_UNDONE, uid=decision["uid"], actor=stx.scope.actor)[0]
    return {
        "decision_uid": decision["uid"], "cluster_id": cluster_id,
        "decision": decision["decision"], "members": decision["members"],
        "merges_undone": [u["merge_uid"] for u in undone], "pending_again": record["rejected"],
        "undone_at": undone_at["undone_at"],
    }  # fmt: skip


def check_cluster_undo(scope: Scope, *, cluster_id: str) -> dict:
    """Undo the latest decision on a cluster, all of it in one transaction, then audited."""
    _require_review(scope)
    result = cypher.write_unit(scope, lambda stx: do_cluster_undo(stx, cluster_id=cluster_id))
    audit_record(scope, action="review.cluster_undo", target=cluster_id, details=result)
    return result
