"""The gate's lookups by meaning: the entities of a tenant and type nearest a candidate's name
(or description) vector.

A vector index answers approximately, and its answer depends on more than the tenant: the HNSW
graph holds every tenant's vectors (and deleted ones until segments merge), so which 20 of a
tenant's entities it returns moves with what else is in the store. Measured on one Neo4j: the
same 64 notes into a fresh tenant ended in two different cluster sets over 4 runs, the first
difference one of 20 "nearest" entities. So while a tenant has fewer than EXACT_POOL active
entities of the type, they are ranked exactly (cosine, then uid: creation order) by a seek on
the (tenant, type, status) index, a cost bounded by the pool; above it, the vector index
answers (the cost of a decision must not grow with the tenant).
"""

from __future__ import annotations

# Below this many active entities of a type, a tenant's nearest are ranked exactly. Measured
# (scripts in docs/benchmarks/identity-text.md): about 20 us an entity a lookup, against about
# 2 ms for the vector index at any size, so 256 costs at most about 5 ms a name.
EXACT_POOL = 256

# Every query using `nearest` passes these.
PARAMS = {"exact_pool": EXACT_POOL}


def pool_small(type_expr: str) -> str:
    """A boolean expression: fewer than EXACT_POOL active entities of `type_expr` in the tenant
    (a count that stops at the bound)."""
    return (
        "size(COLLECT { MATCH (pool:Entity {tenant: $tenant, type: " + type_expr
        + ", status: 'active'}) USING INDEX SEEK pool:Entity(tenant, type, status)"
        + " RETURN pool.uid LIMIT $exact_pool }) < $exact_pool"
    )  # fmt: skip


# A lookup's text; each <slot> is filled by `nearest` from the calling query's own names.
_NEAREST = """
  WITH <scope> WHERE <when>
  CALL (<scope>) {
    WHEN <small> THEN {
      MATCH (<exact>:Entity {tenant: $tenant, type: <type>, status: 'active'})
      USING INDEX SEEK <exact>:Entity(tenant, type, status)
      WHERE <exact>.<prop> IS NOT NULL
      WITH <exact> ORDER BY vector.similarity.cosine(<exact>.<prop>, <vector>) DESC, <exact>.uid
      LIMIT $meaning_hits
      RETURN <exact> AS node
    }
    ELSE {
      MATCH (<hit>:Entity)
        SEARCH <hit> IN (VECTOR INDEX <index> FOR <vector>
          WHERE <hit>.tenant = $tenant AND <hit>.type = <type> AND <hit>.status = 'active'
          LIMIT $meaning_hits)
      RETURN <hit> AS node
    }
  }
  RETURN node
"""


# What each lookup searches: its property, its vector index, a prefix for its variables.
LOOKUPS = {
    "name": ("embedding", "entity_embedding", "by_name"),
    "description": ("description_embedding", "entity_description_embedding", "by_text"),
}


def nearest(lookup: str, *, scope: str, vector: str, type_expr: str, when: str = "true") -> str:
    """A branch of a CALL body returning `node`: for `lookup` (LOOKUPS), the exact ranking when
    `small` (a boolean `scope` binds, from `pool_small`) holds, else the vector index's hits (a
    conditional query, so the exact seek never runs for a large tenant); nothing unless `when`
    holds. Each SEARCH binds a name used nowhere else in the query (Neo4j 2026.01 fails
    otherwise). Every argument is a name or expression of the calling query, never a value."""
    prop, index, prefix = LOOKUPS[lookup]
    slots = {"<scope>": scope, "<when>": when, "<small>": "small", "<exact>": f"{prefix}_near",
             "<hit>": f"{prefix}_hit", "<type>": type_expr, "<prop>": prop, "<index>": index,
             "<vector>": vector}  # fmt: skip
    text = _NEAREST
    for slot, value in slots.items():
        text = text.replace(slot, value)
    return text
