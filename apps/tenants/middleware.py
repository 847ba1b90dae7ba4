"""The current tenant of a logged-in person: chosen in the switcher, kept in the session."""

from apps.tenants.auth import scope_for_membership
from apps.tenants.models import Membership

SESSION_KEY = "tenant_uid"


class CurrentTenantMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.membership = None
        request.tenant = None
        request.scope = None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            memberships = Membership.objects.filter(user=user).select_related("tenant", "user")
            wanted = request.session.get(SESSION_KEY)
            chosen = next((m for m in memberships if m.tenant.uid == wanted), None)
            chosen = chosen or next(iter(memberships.order_by("tenant__slug")), None)
            if chosen is not None:
                request.membership = chosen
                request.tenant = chosen.tenant
                request.scope = scope_for_membership(chosen)
        return self.get_response(request)


def tenant_context(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "current_tenant": getattr(request, "tenant", None),
        "current_membership": getattr(request, "membership", None),
        "my_memberships": Membership.objects.filter(user=user)
        .select_related("tenant")
        .order_by("tenant__slug"),
    }
