"""Relations a gate's automatic merge brought, taken back when the merge is undone.

When an end of a relation resolved through the gate's own merge, the relation write records it
on the edge with the observation: `via` holds '<AutoMerge uid>|<observation>' (see
resolution.relation_writes). Undoing that merge moves those observations to the restored entity:
an edge every observation of which came through the merge moves whole (its properties as they
are now); an edge other sources observed too is split, the survivor keeping the others (weight
less the observations taken back) and the restored entity getting the merge's, with the edge's
confidence, nuance and time window (an average cannot be split). Edges without `via` (written
before it was recorded) stay with the survivor.
"""

from __future__ import annotations

import uuid

from apps.graph.cypher import ScopedTx

BROUGHT = """
MATCH (b:Entity {tenant: $tenant, uid: $survivor})-[r:RELATED_TO]-(o:Entity {tenant: $tenant})
WHERE any(v IN coalesce(r.via, []) WHERE v STARTS WITH $prefix)
RETURN r.uid AS uid, startNode(r) = b AS out, o.uid AS other, properties(r) AS props
"""

# The restored side's edge is created, then the survivor's is cut down or deleted.
TAKE_BACK = """
MATCH (a:Entity {tenant: $tenant, uid: $restored}) USING INDEX SEEK a:Entity(uid)
UNWIND $edges AS x
MATCH (:Entity {tenant: $tenant, uid: $survivor})-[r:RELATED_TO {uid: x.uid}]-
      (o:Entity {tenant: $tenant, uid: x.other})
CALL (a, o, x) {
  WITH * WHERE x.out
  CREATE (a)-[n:RELATED_TO]->(o) SET n = x.theirs
  RETURN n
  UNION
  WITH * WHERE NOT x.out
  CREATE (o)-[n:RELATED_TO]->(a) SET n = x.theirs
  RETURN n
}
SET r += x.kept
WITH r, x, n
CALL (r, x) {
  WITH r WHERE x.whole
  DELETE r
}
RETURN count(n) AS n
"""


def do_merged_relations_back(
    stx: ScopedTx, *, auto_merge_uid: str, survivor: str, restored: str
) -> int:
    """Move the relations the automatic merge `auto_merge_uid` brought from `survivor` to
    `restored` (both active), inside the caller's transaction; how many edges moved or split."""
    prefix = f"{auto_merge_uid}|"
    edges = []
    for row in stx.run(BROUGHT, survivor=survivor, prefix=prefix):
        props = row["props"]
        via = list(props.get("via") or [])
        theirs = {v[len(prefix) :] for v in via if v.startswith(prefix)}
        others = [v for v in via if not v.startswith(prefix)]
        observations = list(props.get("observations") or [])
        chunks = list(props.get("chunks") or [])
        taken = [o for o in observations if o in theirs]
        kept = [o for o in observations if o not in theirs]
        # The other end's merges keep their entries with the observations they name.
        with_taken = [v for v in others if v.split("|", 1)[1] in theirs]
        with_kept = [v for v in others if v.split("|", 1)[1] not in theirs]
        whole = not kept
        edge = {"uid": row["uid"], "other": row["other"], "out": row["out"], "whole": whole}
        if whole:
            edge |= {"theirs": {**props, "via": with_taken}, "kept": {}}
        else:
            edge |= {
                "theirs": {**props, "uid": uuid.uuid4().hex, "observations": taken,
                           "chunks": [c for c in chunks if c in theirs],
                           "weight": len(taken), "via": with_taken},
                "kept": {"observations": kept, "chunks": [c for c in chunks if c not in theirs],
                         "weight": max(1, (props.get("weight") or 0) - len(taken)),
                         "via": with_kept},
            }  # fmt: skip
        edges.append(edge)
    if not edges:
        return 0
    return stx.run(TAKE_BACK, edges=edges, survivor=survivor, restored=restored)[0]["n"]
