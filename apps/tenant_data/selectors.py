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
# The graph version counts writes, the stamp names the graph and the deletion lock serialises
# deletions; none is memory (an emptied tenant keeps them).
MEMORY_PRESENT = """
MATCH (n) WHERE n.tenant = $tenant AND NOT n:GraphVersion AND NOT n:GraphStamp
  AND NOT n:DeletionLock
RETURN labels(n) AS labels LIMIT 1
"""


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
    from apps.tenant_data.services.tenant_archive import archive_dir

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


def import_blockers(scope: Scope) -> list[str]:
    """Why the tenant cannot take an import, for the refusal and the data page (none: it is
    empty). Memory in its graph, or a job that is not housekeeping (a job another app runs for
    every tenant on a clock, such as the promotion ticker's, puts no memory in a tenant)."""
    from apps.tenants.memory_parts import housekeeping_job_kinds, job_label
    from apps.tenants.models import Job

    reasons = []
    if found := cypher.read(scope, MEMORY_PRESENT):
        label = (found[0]["labels"] or ["unlabelled"])[0]
        reasons.append(f"its graph holds memory (a {label} node at least)")
    jobs = Job.objects.filter(tenant__uid=scope.tenant).exclude(kind__in=housekeeping_job_kinds())
    if n := jobs.count():
        kinds = sorted({job_label(k) for k in jobs.values_list("kind", flat=True).distinct()[:5]})
        reasons.append(f"{n} job{'s' if n > 1 else ''} ran or wait{'' if n > 1 else 's'} here "
                       f"({', '.join(kinds)})")  # fmt: skip
    return reasons
