"""Pages of the ingestion app: recent ingestion jobs with progress bars (refreshed by htmx)."""

from django.views.decorators.http import require_GET

from apps.ingestion import selectors
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.page_render import render_page_or_fragment


@require_GET
@role_required(Role.VIEWER)
def ingestion_jobs(request):
    context = {"ingestion_jobs": selectors.ingestion_jobs_recent(request.scope)}
    return render_page_or_fragment(
        request, "ingestion/jobs.html", "ingestion/partials/jobs.html", context
    )
