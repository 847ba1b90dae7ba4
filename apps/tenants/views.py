"""Pages of the foundation: log in (with a bound on guesses), dashboard with live stats, tenant
switcher."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.tenants import selectors
from apps.tenants.memory_parts import dashboard_card_job_kinds, dashboard_cards
from apps.tenants.middleware import SESSION_KEY
from apps.tenants.models import Membership, Role
from apps.tenants.roles import role_required
from apps.tenants.throttles import attempt_failed, attempts_exhausted, client_address
from memoryproject.page_render import render_page_or_fragment


class LoginView(auth_views.LoginView):
    """Django's login, refused (429) for a while after too many failures of one username from
    one address (THROTTLE_RATES["login"])."""

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")[:150].casefold()
        ident = f"{client_address(request)}|{username}"
        if attempts_exhausted("login", ident):
            form = self.get_form()
            form.errors.clear()
            context = self.get_context_data(form=form, throttled=True)
            return self.render_to_response(context, status=429)
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form came back: the password did not match
            attempt_failed("login", ident)
        return response


class SetPasswordView(auth_views.PasswordResetConfirmView):
    """The one-time link of an invitation (apps/tenants/invitations.py): Django's reset-confirm
    view and token; the new password logs its owner in. A used or expired link says so."""

    template_name = "registration/set_password.html"
    post_reset_login = True
    success_url = "/"

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Your password is set; you are logged in.")
        return response


@require_GET
@role_required(Role.VIEWER)
def dashboard(request):
    context = {"stats": selectors.tenant_stats(request.scope), "dashboard_cards": dashboard_cards(),
               **_jobs(request.scope)}  # fmt: skip
    return render_page_or_fragment(
        request, "tenants/dashboard.html", "tenants/partials/stats.html", context
    )


@require_GET
@role_required(Role.VIEWER)
def dashboard_jobs(request):
    """The dashboard's other background work, refreshed by htmx while the page is open."""
    return render(request, "tenants/partials/jobs.html", _jobs(request.scope))


def _jobs(scope) -> dict:
    # An app with a card of its own on the dashboard shows its jobs there (ingestion's).
    jobs = selectors.recent_jobs(scope, exclude_kinds=dashboard_card_job_kinds())
    return {"jobs": jobs, "jobs_unfinished": any(row["unfinished"] for row in jobs)}


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
