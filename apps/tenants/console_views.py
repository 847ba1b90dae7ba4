"""The tenant console (pages for a tenant's admins and site staff): usage, members and roles,
API keys, the audit trail, erasure requests, settings. Thin: every rule is in the services;
`console_tenant_required` decides who may come in."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.tenants import audit_trail, invitations, keys, members, tenant_settings
from apps.tenants.console_access import consoles_for
from apps.tenants.models import KeyScope, Role
from apps.tenants.roles import console_tenant_required
from apps.tenants.usage import tenant_usage
from memoryproject.api_errors import ApplicationError
from memoryproject.bar_plots import bar_plot
from memoryproject.page_render import render_page_or_fragment


def _context(request, section: str, **extra) -> dict:
    return {"console": request.console, "tenant": request.console.tenant, "section": section,
            **extra}  # fmt: skip


@require_GET
def console_home(request):
    if not request.user.is_authenticated:
        from django.contrib.auth.views import redirect_to_login

        return redirect_to_login(request.get_full_path())
    tenants = consoles_for(request.user)
    if not tenants:
        return render(request, "tenants/forbidden.html", {"role": "admin"}, status=403)
    return render(request, "tenants/console/home.html", {"tenants": tenants})


@require_GET
@console_tenant_required
def console_usage(request):
    usage = tenant_usage(request.console.scope, tenant=request.console.tenant)
    throughput = bar_plot(
        [d["day"][5:] for d in usage["throughput"]],
        {"ingested": [d["done"] for d in usage["throughput"]],
         "failed": [d["failed"] for d in usage["throughput"]]},
    )  # fmt: skip
    return render_page_or_fragment(
        request, "tenants/console/usage.html", "tenants/console/partials/usage.html",
        _context(request, "usage", usage=usage, throughput=throughput),
    )  # fmt: skip


def _section_page(request, section: str, *, status: int = 200, **extra):
    return render_page_or_fragment(
        request, f"tenants/console/{section}.html", f"tenants/console/partials/{section}.html",
        _context(request, section, **extra), status=status,
    )  # fmt: skip


def _after(page, request, change):
    """Make the change, then show the section again: with the refusal and its status when the
    service refused it."""
    try:
        change()
    except ApplicationError as refusal:
        return page(request, error=refusal, status=refusal.status)
    return page(request)


def _members_page(request, *, error: ApplicationError | None = None, status: int = 200,
                  invited=None):  # fmt: skip
    return _section_page(
        request, "members", status=status, roles=Role.choices, error=error, invited=invited,
        members=members.members_list(tenant=request.console.tenant), default_role=Role.VIEWER,
        mail_configured=invitations.mail_configured(),
    )  # fmt: skip


@require_GET
@console_tenant_required
def console_members(request):
    return _members_page(request)


@require_POST
@console_tenant_required
def member_invite(request):
    tenant = request.console.tenant
    try:
        membership = members.check_member_invite(
            request.console.scope, tenant=tenant,
            username=request.POST.get("username", ""), role=request.POST.get("role", ""),
        )  # fmt: skip
    except ApplicationError as refusal:
        return _members_page(request, error=refusal, status=refusal.status)
    user, invited = membership.user, {"username": membership.user.username, "link": ""}
    if invitations.needs_password(user):  # a new account, or one that never set a password
        link = request.build_absolute_uri(invitations.set_password_path(user))
        invited["link"] = link
        invited["mailed"] = invitations.invite_mail_send(user=user, link=link,
                                                         tenant_name=tenant.name)  # fmt: skip
    response = _members_page(request, invited=invited)
    response["Cache-Control"] = "no-store"  # the one-time link is in this answer only
    return response


@require_POST
@console_tenant_required
def member_role(request, username: str):
    return _after(_members_page, request, lambda: members.check_member_role_change(
        request.console.scope, tenant=request.console.tenant, username=username,
        role=request.POST.get("role", ""),
    ))  # fmt: skip


@require_POST
@console_tenant_required
def member_remove(request, username: str):
    return _after(_members_page, request, lambda: members.check_member_remove(
        request.console.scope, tenant=request.console.tenant, username=username,
    ))  # fmt: skip


def _keys_page(request, *, issued=None, raw_key="", error=None, status: int = 200):
    return _section_page(
        request, "keys", status=status, keys=keys.keys_list(tenant=request.console.tenant),
        scopes=KeyScope.choices, issued=issued, raw_key=raw_key, error=error,
        form=request.POST if error else {},
    )  # fmt: skip


@require_GET
@console_tenant_required
def console_keys(request):
    return _keys_page(request)


@require_POST
@console_tenant_required
def key_issue(request):
    try:
        issued, raw = keys.check_key_issue(
            request.console.scope, tenant=request.console.tenant,
            name=request.POST.get("name", ""), scopes=request.POST.getlist("scopes"),
        )  # fmt: skip
    except ApplicationError as refusal:
        return _keys_page(request, error=refusal, status=refusal.status)
    # The raw key is in this one response only; the page never shows it again.
    response = _keys_page(request, issued=issued, raw_key=raw)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@console_tenant_required
def key_revoke(request, prefix: str):
    return _after(_keys_page, request, lambda: keys.check_key_revoke(
        request.console.scope, tenant=request.console.tenant, prefix=prefix,
    ))  # fmt: skip


@require_GET
@console_tenant_required
def console_audit(request):
    where = audit_trail.AuditFilter.from_query(request.GET)
    tenant = request.console.tenant
    context = _context(
        request, "audit", where=where, periods=list(audit_trail.PERIODS),
        events=audit_trail.audit_events(tenant=tenant, where=where),
        actions=audit_trail.audit_actions(tenant=tenant),
    )  # fmt: skip
    return render_page_or_fragment(
        request, "tenants/console/audit.html", "tenants/console/partials/audit_rows.html", context
    )


@require_GET
@console_tenant_required
def console_erasure(request):
    requests_ = audit_trail.erasure_requests(tenant=request.console.tenant)
    return render_page_or_fragment(
        request, "tenants/console/erasure.html", "tenants/console/partials/erasure_rows.html",
        _context(request, "erasure", requests=requests_),
    )  # fmt: skip


@require_http_methods(["GET", "POST"])
@console_tenant_required
def console_settings(request):
    tenant, errors, status = request.console.tenant, {}, 200
    if request.method == "POST":
        values = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
        try:
            changed = tenant_settings.check_settings_update(
                request.console.scope, tenant=tenant, values=values
            )
        except ApplicationError as refusal:
            errors, status = refusal.extra.get("errors", {refusal.field: refusal.message}), 400
        else:
            count = len(changed)
            messages.success(request, f"{count} setting{'' if count == 1 else 's'} changed.")
            return redirect("console-settings", slug=tenant.slug)
    rows = tenant_settings.settings_rows(tenant=tenant)
    if errors:  # keep what the admin typed beside what was wrong with it
        for row in rows:
            row["value"] = request.POST.get(row["name"], row["value"])
            row["error"] = errors.get(row["name"], "")
    return render(
        request, "tenants/console/settings.html", _context(request, "settings", rows=rows),
        status=status,
    )  # fmt: skip
