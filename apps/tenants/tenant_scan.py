"""What a tenant holds, counted everywhere it could be: graph nodes by label, relationships by
type, and rows of every relational table that refers to the tenant. The export's counts, the
import's check that a tenant is empty, and the proof that a deleted tenant left nothing all
come from here.

The graph side scans without relying on labels or indexes (a node whose label no code knows
yet still counts), so it reads every node and relationship once: a deletion's proof and an
import's comparison, not a hot path."""

from __future__ import annotations

from django.apps import apps as django_apps
from django.db import models

from apps.graph import cypher
from apps.graph.scope import Scope

NODES = """
MATCH (n) WHERE n.tenant = $tenant
UNWIND CASE size(labels(n)) WHEN 0 THEN [''] ELSE labels(n) END AS label
RETURN label, count(*) AS n
"""
# A relationship belongs to the tenant if either end does or it carries the tenant itself.
RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE a.tenant = $tenant OR b.tenant = $tenant OR r.tenant = $tenant
RETURN type(r) AS type, count(r) AS n
"""
GRAPH_PRESENT = "MATCH (n) WHERE n.tenant = $tenant RETURN n.tenant AS tenant LIMIT 1"


def tenant_models() -> list[type[models.Model]]:
    """Every installed model with a foreign key to Tenant (found, not listed: an app added
    later is covered without touching this module)."""
    from apps.tenants.models import Tenant

    found = []
    for model in django_apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.ForeignKey) and field.related_model is Tenant:
                found.append(model)
                break
    return found


def _tenant_field(model: type[models.Model]) -> str:
    from apps.tenants.models import Tenant

    return next(
        f.name
        for f in model._meta.get_fields()
        if isinstance(f, models.ForeignKey) and f.related_model is Tenant
    )


def relational_rows(*, tenant_uid: str) -> dict[str, int]:
    """Rows per table (`app_label.model`) that refer to the tenant, the tenant's own row too."""
    from apps.tenants.models import Tenant

    counts = {"tenants.tenant": Tenant.objects.filter(uid=tenant_uid).count()}
    for model in tenant_models():
        field = _tenant_field(model)
        counts[model._meta.label_lower] = model._default_manager.filter(
            **{f"{field}__uid": tenant_uid}
        ).count()
    return counts


def archive_files(*, tenant_uid: str) -> int:
    """The tenant's exports and uploaded imports kept on disk."""
    from apps.tenants.tenant_archive import archive_dir

    folder = archive_dir() / tenant_uid
    return sum(1 for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def tenant_scan(*, tenant_uid: str) -> dict:
    """{"nodes": {label: n}, "relationships": {type: n}, "rows": {table: n}, "files": n,
    "left": total}. `left` adds every count but the tenant's own row (what a deletion must
    bring to 0)."""
    scope = Scope(tenant=tenant_uid, actor="system:scan", actor_kind="system")
    nodes = {r["label"]: r["n"] for r in cypher.read(scope, NODES)}
    relationships = {r["type"]: r["n"] for r in cypher.read(scope, RELATIONSHIPS)}
    rows = relational_rows(tenant_uid=tenant_uid)
    files = archive_files(tenant_uid=tenant_uid)
    left = (
        files
        + sum(nodes.values())
        + sum(relationships.values())
        + sum(n for table, n in rows.items() if table != "tenants.tenant")
    )
    return {"nodes": nodes, "relationships": relationships, "rows": rows, "files": files,
            "left": left}  # fmt: skip


def graph_has_data(scope: Scope) -> bool:
    return bool(cypher.read(scope, GRAPH_PRESENT))


# Every property of every node and relationship of the tenant, as text (lists item by item;
# vectors are numbers only, skipped), that contains one of the needles.
RESIDUE_NODES = """
MATCH (n) WHERE n.tenant = $tenant
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


def tenant_residue(scope: Scope, *, needles: list[str]) -> dict[str, int]:
    """Where the tenant's graph still holds any of `needles` (uids, words): {"Label.property" or
    "TYPE.property": count}, empty when nothing is left. Label-agnostic like `tenant_scan`:
    the proof that an erasure of part of a tenant (a document, a user) left nothing behind."""
    needles = [s for s in needles if s]
    if not needles:
        return {}
    found: dict[str, int] = {}
    for query in (RESIDUE_NODES, RESIDUE_RELATIONSHIPS):
        for row in cypher.read(scope, query, needles=needles):
            found[row["where"]] = found.get(row["where"], 0) + row["n"]
    return found
