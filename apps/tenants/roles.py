"""Page access by role: login, a membership in the current tenant, and a role at least as high."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import render

from apps.tenants.auth import role_at_least


def role_required(role: str):
    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not role_at_least(request.membership, role):
                return render(request, "tenants/forbidden.html", {"role": role}, status=403)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def console_tenant_required(view):
    """The tenant console: site staff for every tenant, a tenant's admins for theirs; anyone else
    (reviewers, viewers, other tenants' admins) is refused with 403, whether the tenant exists
    or not. The view gets `request.console` (tenant, scope of the acting person)."""
    from apps.tenants.console_access import console_context

    @wraps(view)
    def wrapper(request, slug: str, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        console = console_context(request.user, slug=slug)
        if console is None:
            return render(request, "tenants/forbidden.html", {"role": "admin"}, status=403)
        request.console = console
        return view(request, *args, **kwargs)

    return wrapper
