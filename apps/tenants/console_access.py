"""Who may open a tenant's console: site staff (every tenant) and the tenant's admins."""

from __future__ import annotations

from dataclasses import dataclass

from apps.graph.scope import Scope
from apps.tenants.auth import ROLE_PERMISSIONS, scope_for_membership
from apps.tenants.models import Membership, Role, Tenant


@dataclass(frozen=True)
class Console:
    tenant: Tenant
    scope: Scope  # the acting person, for the audit and the tenant's graph reads
    as_staff: bool  # staff without an admin role here


def console_context(user, *, slug: str) -> Console | None:
    membership = (
        Membership.objects.select_related("tenant", "user")
        .filter(user=user, tenant__slug=slug)
        .first()
    )
    if membership is not None and membership.role == Role.ADMIN:
        return Console(membership.tenant, scope_for_membership(membership), as_staff=False)
    if not user.is_staff:
        return None
    tenant = Tenant.objects.filter(slug=slug).first()
    if tenant is None:
        return None
    scope = Scope(
        tenant=tenant.uid,
        actor=f"user:{user.get_username()}",
        actor_kind="person",
        permissions=ROLE_PERMISSIONS[Role.ADMIN],
        settings=tenant.effective_settings(),
    )
    return Console(tenant, scope, as_staff=True)


def consoles_for(user) -> list[Tenant]:
    """The tenants whose console this person may open."""
    if user.is_staff:
        return list(Tenant.objects.order_by("slug"))
    return [
        m.tenant
        for m in Membership.objects.select_related("tenant")
        .filter(user=user, role=Role.ADMIN)
        .order_by("tenant__slug")
    ]
