"""Candidate clusters: active entities joined by pending SAME_AS pairs, found as connected
components and cut into parts a reviewer can decide at once.

Rules (docs/concepts/review.md, "Clusters"):
- A component of at most MAX_MEMBERS is one part. A larger one is cut: each part starts from the
  unplaced member whose pending pairs sum to the highest score, then takes, one at a time, the
  unplaced member most strongly tied to the part (the sum of its pairs' scores to the part's
  members), until MAX_MEMBERS or no member is tied to it; the next part starts from what is left.
- A part of at least MIN_MEMBERS is a cluster; smaller parts stay in the pairwise queue only
  (every pair stays there too). A component over MAX_COMPONENT members is not cut at all.
- A cluster's id is its smallest member uid and a digest of all its member uids: stable while
  the members stay, different as soon as one comes or goes, and a start to read it again from.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict

from apps.graph.cypher import ScopedTx

MAX_MEMBERS = 12
MIN_MEMBERS = 3
MAX_COMPONENT = 1000
DIGEST_CHARS = 12
# The smallest member uid (an id of ours is at most 64 characters), a dot and the digest.
MAX_CLUSTER_ID_CHARS = 64 + 1 + DIGEST_CHARS

# A member of a component, with what choosing a survivor needs (mentions, age) and its name.
MEMBER = """{uid: o.uid, name: o.name, type: o.type, created_at: o.created_at,
             mentions: COUNT { (o)<-[:MENTIONS]-() }}"""

# Every entity reachable from `uid` over pending pairs between active entities, each once
# (ANY SHORTEST: one path per end, so the walk is a breadth-first search, not every path); at
# most $limit, so the caller sees a component too large to cut. Then the pairs and NOT_SAMEs
# among them.
COMPONENT = (
    """
MATCH (e:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK e:Entity(uid)
WHERE e.status = 'active'
CALL (e) {
  MATCH ANY SHORTEST (e)(()-[s:SAME_AS WHERE s.status = 'pending']-(:Entity {status: 'active'})){0,}(o:Entity)
  RETURN o LIMIT $limit
}
WITH collect(o) AS nodes
WITH nodes, [n IN nodes | n.uid] AS uids
RETURN [o IN nodes | """
    + MEMBER
    + """] AS members,
  COLLECT { UNWIND nodes AS a
            MATCH (a)-[s:SAME_AS {status: 'pending'}]->(b:Entity)
            WHERE b.uid IN uids
            RETURN {uid: s.uid, a: a.uid, b: b.uid, score: s.score} } AS pairs,
  COLLECT { UNWIND nodes AS a
            MATCH (a)-[:NOT_SAME]->(b:Entity)
            WHERE b.uid IN uids
            RETURN [a.uid, b.uid] } AS not_same
"""
)

# Where a cluster's start is now: its status, and the entity it was merged into, if it was.
ENTITY_NOW = """
MATCH (e:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK e:Entity(uid)
OPTIONAL MATCH (e)-[:MERGED_INTO*1..8]->(s)
WHERE s.status = 'active' AND s.tenant = $tenant
RETURN e.status AS status, s.uid AS survivor
LIMIT 1
"""


def cluster_id_of(uids) -> str:
    """The id of a cluster of these members: `<smallest uid>.<digest of all uids>`."""
    members = sorted(uids)
    digest = hashlib.sha256("\n".join(members).encode()).hexdigest()[:DIGEST_CHARS]
    return f"{members[0]}.{digest}"


def cluster_id_start(cluster_id: str) -> str | None:
    """The member a cluster id starts from (its smallest uid), or None for no id of ours."""
    start, dot, digest = cluster_id.rpartition(".")
    return start if dot and start and len(digest) == DIGEST_CHARS else None


def _ties(pairs: list[dict]) -> dict[str, dict[str, float]]:
    ties: dict[str, dict[str, float]] = defaultdict(dict)
    for p in pairs:
        score = float(p["score"] or 0.0)
        for one, other in ((p["a"], p["b"]), (p["b"], p["a"])):
            ties[one][other] = max(ties[one].get(other, 0.0), score)
    return ties


def cluster_parts(
    members: list[str], pairs: list[dict], size: int = MAX_MEMBERS
) -> list[list[str]]:
    """One component's members cut into parts of at most `size` (module rules), each sorted.
    Deterministic: the same members and pairs give the same parts whatever their order."""
    if len(members) <= size:
        return [sorted(members)]
    ties = _ties(pairs)
    # fsum: a sum that does not depend on the order the pairs were read in.
    strength = {u: round(math.fsum(ties[u].values()), 9) for u in members}
    left = set(members)
    parts = []
    while left:
        seed = min(left, key=lambda u: (-strength[u], u))
        part, pull = [seed], defaultdict(float)
        left.discard(seed)
        while True:
            for other, score in ties[part[-1]].items():
                if other in left:
                    pull[other] += score
            if len(part) == size or not pull:
                break
            best = min(pull, key=lambda u: (-round(pull[u], 9), -strength[u], u))
            part.append(best)
            left.discard(best)
            del pull[best]
        parts.append(sorted(part))
    return parts


def components_of(pairs: list[dict]) -> list[list[str]]:
    """Connected components of the pairs' entities (union-find), each a list of uids."""
    parent: dict[str, str] = {}

    def root(u: str) -> str:
        parent.setdefault(u, u)
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    for p in pairs:
        a, b = root(p["a"]), root(p["b"])
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = defaultdict(list)
    for u in list(parent):
        groups[root(u)].append(u)
    return list(groups.values())


def pairs_among(pairs: list[dict], members) -> list[dict]:
    inside = set(members)
    return [p for p in pairs if p["a"] in inside and p["b"] in inside]


def do_component_read(stx: ScopedTx, *, uid: str) -> dict | None:
    """The component of `uid` (members, pairs, NOT_SAMEs among them), read in the caller's
    transaction; None when `uid` is no active entity of this tenant. `too_large` when it has
    more than MAX_COMPONENT members (then only that many were read)."""
    rows = stx.run(COMPONENT, uid=uid, limit=MAX_COMPONENT + 1)
    if not rows or not rows[0]["members"]:
        return None
    row = rows[0]
    return {**row, "too_large": len(row["members"]) > MAX_COMPONENT}


def do_cluster_find(stx: ScopedTx, *, cluster_id: str) -> dict:
    """The cluster `cluster_id` names as the graph has it now, in the caller's transaction:
    {found, members (uids), nodes (uid -> member), pairs, not_same, component_size}. When it is
    not `found`, `members` are those of the part its start is in now (or was merged into), and
    `start_status` is None when the start is no entity of this tenant at all."""
    start = cluster_id_start(cluster_id)
    anchor, status = start, "active"
    component = do_component_read(stx, uid=start) if start else None
    if start and component is None:
        rows = stx.run(ENTITY_NOW, uid=start)
        status, anchor = (rows[0]["status"], rows[0]["survivor"]) if rows else (None, None)
        component = do_component_read(stx, uid=anchor) if anchor else None
    if component is None or component["too_large"]:
        found = {"found": False, "members": [], "start_status": status, "component_size": 0}
        return {**found, "nodes": {}, "pairs": [], "not_same": []}
    nodes = {m["uid"]: m for m in component["members"]}
    part = next(p for p in cluster_parts(list(nodes), component["pairs"]) if anchor in p)
    inside = set(part)
    return {
        "found": anchor == start and len(part) >= MIN_MEMBERS and cluster_id_of(part) == cluster_id,
        "members": part,
        "start_status": status,
        "component_size": len(nodes),
        "nodes": {u: nodes[u] for u in part},
        "pairs": pairs_among(component["pairs"], inside),
        "not_same": [ns for ns in component["not_same"] if set(ns) <= inside],
    }
