"""Pages of the foundation: dashboard with live stats, tenant switcher."""

from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from apps.tenants import selectors
from apps.tenants.middleware import SESSION_KEY
from apps.tenants.models import Membership, Role
from apps.tenants.roles import role_required
from memoryproject.page_render import render_page_or_fragment


@require_GET
@role_required(Role.VIEWER)
def dashboard(request):
    context = {
        "stats": selectors.tenant_stats(request.scope),
        "jobs": selectors.recent_jobs(request.scope),
    }
    return render_page_or_fragment(
        request, "tenants/dashboard.html", "tenants/partials/stats.html", context
    )


@require_POST
@role_required(Role.VIEWER)
def tenant_switch(request):
    wanted = request.POST.get("tenant", "")
    if Membership.objects.filter(user=request.user, tenant__slug=wanted).exists():
        membership = Membership.objects.select_related("tenant").get(
            user=request.user, tenant__slug=wanted
        )
        request.session[SESSION_KEY] = membership.tenant.uid
    return redirect("dashboard")
