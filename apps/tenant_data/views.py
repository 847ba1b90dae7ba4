"""The console's Data section: export the tenant to an archive and download it, import an
archive into an empty tenant, delete the tenant wholly (the typed slug confirms). Thin: the
rules are in tenant_export, tenant_import and tenant_deletion."""

from django.http import FileResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.tenant_data.selectors import import_blockers
from apps.tenant_data.services import tenant_deletion, tenant_export, tenant_import
from apps.tenants.models import Job
from apps.tenants.roles import console_tenant_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment

DATA_JOB_KINDS = (tenant_export.JOB_KIND, tenant_import.JOB_KIND)


def _data_page(request, *, error: ApplicationError | None = None, status: int = 200):
    tenant = request.console.tenant
    jobs = list(Job.objects.filter(tenant=tenant, kind__in=DATA_JOB_KINDS)
                .order_by("-created_at")[:20])  # fmt: skip
    context = {
        "console": request.console, "tenant": tenant, "section": "data", "jobs": jobs,
        "running": any(j.status in ("queued", "running") for j in jobs), "error": error,
        "export_kind": tenant_export.JOB_KIND,
        "import_blockers": import_blockers(request.console.scope),
    }  # fmt: skip
    return render_page_or_fragment(
        request, "tenants/console/data.html", "tenants/console/partials/data_jobs.html",
        context, status=status,
    )  # fmt: skip


@require_GET
@console_tenant_required
def console_data(request):
    return _data_page(request)


@require_POST
@console_tenant_required
def export_start(request):
    try:
        tenant_export.check_export_start(request.console.scope)
    except ApplicationError as refusal:
        return _data_page(request, error=refusal, status=refusal.status)
    return redirect("console-data", slug=request.console.tenant.slug)


@require_GET
@console_tenant_required
def export_download(request, uid: str):
    try:
        path = tenant_export.export_archive(request.console.scope, job_uid=uid)
    except ApplicationError as refusal:
        return _data_page(request, error=refusal, status=refusal.status)
    name = f"{request.console.tenant.slug}-{uid}.ndjson.gz"
    response = FileResponse(open(path, "rb"), as_attachment=True, filename=name,  # noqa: SIM115
                            content_type="application/gzip")  # fmt: skip
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@console_tenant_required
def import_start(request):
    try:
        tenant_import.check_import_start(request.console.scope,
                                         upload=request.FILES.get("archive"))  # fmt: skip
    except ApplicationError as refusal:
        return _data_page(request, error=refusal, status=refusal.status)
    return redirect("console-data", slug=request.console.tenant.slug)


@require_POST
@console_tenant_required
def tenant_delete(request):
    try:
        deletion = tenant_deletion.check_tenant_delete(
            actor=request.console.scope.actor, tenant=request.console.tenant,
            confirm=request.POST.get("confirm", ""),
        )  # fmt: skip
    except ApplicationError as refusal:
        return _data_page(request, error=refusal, status=refusal.status)
    return redirect("console-deletion", uid=deletion.uid)


@require_GET
def deletion_status(request, uid: str):
    """Who asked for a deletion (their tenant may be gone, and their role in it) and site staff
    may follow it; anyone else gets 403, whether it exists or not."""
    if not request.user.is_authenticated:
        from django.contrib.auth.views import redirect_to_login

        return redirect_to_login(request.get_full_path())
    deletion = tenant_deletion.deletion_get(uid=uid)
    mine = deletion is not None and deletion.requested_by == f"user:{request.user.get_username()}"
    if deletion is None or not (request.user.is_staff or mine):
        return render(request, "tenants/forbidden.html", {"role": "admin"}, status=403)
    return render_page_or_fragment(
        request, "tenants/console/deletion.html", "tenants/console/partials/deletion.html",
        {"deletion": deletion, "finished": deletion.status in ("done", "failed")},
    )  # fmt: skip
