"""The page "Communities": the stored communities with their summaries, the last refresh and
a reviewer's button to refresh, a broad question answered from the summaries; and one
community's page (members, quoted passages, documents, fusion candidates)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from apps.insights import community_selectors
from apps.insights.communities import communities_refresh_start
from apps.tenants.auth import role_at_least
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.request_inputs import MAX_UID_CHARS

PAGE_SIZE = 50


@require_GET
@role_required(Role.VIEWER)
def communities_page(request):
    q = request.GET.get("q", "").strip()[: community_selectors.MAX_QUESTION_CHARS]
    context = {
        "q": q,
        "listed": community_selectors.communities_list(request.scope, limit=PAGE_SIZE),
        "job": community_selectors.communities_last_job(request.scope),
        "can_refresh": role_at_least(request.membership, Role.REVIEWER),
        "error": request.GET.get("error", "")[:300],
    }
    if q:
        context["answer"] = community_selectors.communities_answer(request.scope, q=q)
    return render(request, "insights/communities.html", context)


@require_POST
@role_required(Role.REVIEWER)
def communities_refresh(request):
    try:
        communities_refresh_start(request.scope)
    except ApplicationError as exc:
        return redirect(f"{reverse('graph-communities')}?{urlencode({'error': exc.message})}")
    return redirect("graph-communities")


@require_GET
@role_required(Role.VIEWER)
def community_page(request, uid: str):
    found = community_selectors.community_detail(request.scope, uid=uid[:MAX_UID_CHARS])
    if found is None:
        raise Http404("No such community.")
    return render(request, "insights/community.html", {"community": found})
