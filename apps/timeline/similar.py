"""Recall by shared relations (seed 001's similar()): the entities of a kind that point, or
pointed, at the targets an entity points at now.

The current relations of the entity (open windows, of the relation types `through` names, all of
the kind's when it names none) are compared with every window the others ever had, so an entity
of the past is found too. A shared target counts 1 / ln(2 + n), where n is how many entities
point at it by that relation: a room two devices share says more than a building that holds a
thousand. The n is the size of what the query reads anyway, so the weight costs nothing more.

The read is one query, bounded by the 5 s stop of searches (503 `query_timeout`), and reads at
most PER_TARGET pointers per shared target: the cost grows with the entity's neighbourhood, not
with the tenant or the database.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.timeline.kinds import kind_get
from memoryproject.api_errors import ApplicationError

MAX_LIMIT = 100
PER_TARGET = 5000

# A window with valid_to = valid_from holds at no time (a late row emptied it): not a relation.
SIMILAR = """
MATCH (e:Entity {tenant: $tenant, kind: $kind, key: $key})-[r:RELATED_TO]->
      (x:Entity {tenant: $tenant})
WHERE r.kind_relation AND r.valid_to IS NULL AND r.predicate IN $through
WITH DISTINCT e, r.predicate AS rel, x
CALL (e, rel, x) {
  MATCH (x)<-[o:RELATED_TO {predicate: rel}]-(other:Entity {tenant: $tenant, kind: $kind})
  WHERE o.kind_relation AND other <> e AND (o.valid_to IS NULL OR o.valid_to > o.valid_from)
  WITH DISTINCT other LIMIT $per_target
  RETURN collect(other) AS others
}
WITH rel, x, others, 1.0 / log(2 + size(others)) AS weight
UNWIND others AS other
WITH other, collect({rel: rel, target: x.key}) AS through, sum(weight) AS score
RETURN other.key AS key, through, score
ORDER BY score DESC, key LIMIT $limit
"""


def check_through(kind_relations: set[str], through: list[str] | None) -> list[str]:
    """The relation types to compare: those named (each one of the kind's), or all of them."""
    if not through:
        return sorted(kind_relations)
    for name in through:
        if name not in kind_relations:
            raise ApplicationError(
                f"through names relations of the kind; {name[:40]} is not one of "
                f"{', '.join(sorted(kind_relations)) or 'none'}.", field="through",
            )  # fmt: skip
    return sorted(set(through))


@cypher.bounded_read("similar")
def similar(
    scope: Scope, *, kind: str, key: str, through: list[str] | None = None, limit: int = 20
) -> list[dict]:
    """Entities of `kind` ranked by the (relation, target) pairs they share with `key`:
    [{kind, key, score, through: [{rel, target}]}], the rarest shared targets weighing most.
    Unknown kind 404; a `through` that is not a relation of the kind 400."""
    spec = kind_get(scope, name=kind)
    rels = check_through(set(spec.relations), through)
    if not rels:
        return []
    rows = cypher.read(scope, SIMILAR, kind=kind, key=key, through=rels,
                       per_target=PER_TARGET, limit=min(limit, MAX_LIMIT))  # fmt: skip
    return [
        {"kind": kind, "key": r["key"], "score": round(r["score"], 4),
         "through": sorted(r["through"], key=lambda p: (p["rel"], p["target"]))}
        for r in rows
    ]  # fmt: skip
