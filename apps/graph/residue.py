"""Where a tenant's graph still holds given strings (uids, words): the proof that an erasure of
part of a tenant (a document, a user) left nothing behind. Label-agnostic, so it also sees what a
later app adds."""

from apps.graph import cypher
from apps.graph.scope import Scope

# Every property of every node and relationship of the tenant, as text (lists item by item;
# vectors are numbers only, skipped), that contains one of the needles; a node `besides` names
# is left out.
RESIDUE_NODES = """
MATCH (n) WHERE n.tenant = $tenant AND coalesce(n.uid <> $besides, true)
UNWIND keys(n) AS key
WITH n, key, n[key] AS v WHERE NOT valueType(v) STARTS WITH 'LIST<FLOAT'
WITH n, key, CASE WHEN valueType(v) STARTS WITH 'LIST' THEN [x IN v | toString(x)]
                  ELSE [toString(v)] END AS texts
WHERE any(t IN texts WHERE any(s IN $needles WHERE t CONTAINS s))
UNWIND CASE size(labels(n)) WHEN 0 THEN [''] ELSE labels(n) END AS label
RETURN label + '.' + key AS where, count(*) AS n
"""
RESIDUE_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE a.tenant = $tenant OR b.tenant = $tenant OR r.tenant = $tenant
UNWIND keys(r) AS key
WITH r, key, r[key] AS v WHERE NOT valueType(v) STARTS WITH 'LIST<FLOAT'
WITH r, key, CASE WHEN valueType(v) STARTS WITH 'LIST' THEN [x IN v | toString(x)]
                  ELSE [toString(v)] END AS texts
WHERE any(t IN texts WHERE any(s IN $needles WHERE t CONTAINS s))
RETURN type(r) + '.' + key AS where, count(*) AS n
"""


def tenant_residue(
    scope: Scope, *, needles: list[str], besides: str | None = None
) -> dict[str, int]:
    """Where the tenant's graph still holds any of `needles` (uids, words): {"Label.property" or
    "TYPE.property": count}, empty when nothing is left. Label-agnostic like `tenant_scan`:
    the proof that an erasure of part of a tenant (a document, a user) left nothing behind.
    `besides`: the uid of a node not to look in (the document being deleted, which keeps the
    lists of what its deletion works on until it goes itself)."""
    needles = list(dict.fromkeys(s for s in needles if s))
    if not needles:
        return {}
    found: dict[str, int] = {}
    for query in (RESIDUE_NODES, RESIDUE_RELATIONSHIPS):
        for row in cypher.read(scope, query, needles=needles, besides=besides):
            found[row["where"]] = found.get(row["where"], 0) + row["n"]
    return found
