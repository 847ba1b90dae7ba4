"""Pages of identity resolution: search the entities, read one of them."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.graph.nodes import ENTITY_TYPES
from apps.resolution import selectors
from apps.resolution.api import MAX_QUERY_CHARS
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import MAX_UID_CHARS

PAGE_RESULTS = 50


@require_GET
@role_required(Role.VIEWER)
def entity_search(request):
    q = request.GET.get("q", "")[:MAX_QUERY_CHARS]
    wanted = request.GET.get("type", "")
    entity_type = wanted if wanted in ENTITY_TYPES else None
    results = selectors.entities_search(request.scope, q=q, type=entity_type, limit=PAGE_RESULTS)
    context = {"q": q, "type": entity_type or "", "types": ENTITY_TYPES, "results": results}
    return render_page_or_fragment(
        request, "resolution/entity_search.html", "resolution/partials/results.html", context
    )


@require_GET
@role_required(Role.VIEWER)
def entity_page(request, uid: str):
    entity = selectors.entity_detail(request.scope, uid=uid[:MAX_UID_CHARS])
    if entity is None:
        raise Http404("No such entity.")
    return render(request, "resolution/entity_detail.html", {"e": entity})
