"""Pages for reviewers: episode timelines, lessons with evidence, playbooks with versions, runs and
the switch, and handoffs per agent."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.lessons import selectors
from apps.lessons.filters import EpisodeFilters, HandoffFilters
from apps.lessons.services import playbooks
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import filters_from


@require_GET
@role_required(Role.VIEWER)
def episodes_page(request):
    status = filters_from(EpisodeFilters, request.GET)["status"]
    rows = selectors.episodes_list(request.scope, status=status, limit=200)
    return render(request, "lessons/episodes.html", {"episodes": rows, "status": status})


@require_GET
@role_required(Role.VIEWER)
def episode_page(request, uid: str):
    episode = selectors.episode_get(request.scope, episode=uid)
    if episode is None:
        raise Http404
    return render(request, "lessons/episode.html", {"episode": episode})


@require_GET
@role_required(Role.VIEWER)
def lessons_page(request):
    show_all = request.GET.get("all") == "1"
    rows = selectors.lessons_list(
        request.scope, at_least=-1_000_000 if show_all else None, limit=200
    )
    threshold = request.scope.setting("lesson_threshold")
    context = {"lessons": rows, "show_all": show_all, "threshold": threshold}
    return render(request, "lessons/lessons.html", context)


@require_GET
@role_required(Role.VIEWER)
def lesson_page(request, key: str):
    lesson = selectors.lesson_get(request.scope, key=key)
    if lesson is None:
        raise Http404
    return render(request, "lessons/lesson.html", {"lesson": lesson})


@require_GET
@role_required(Role.VIEWER)
def playbooks_page(request):
    rows = selectors.playbooks_list(request.scope, limit=200)
    return render(request, "lessons/playbooks.html", {"playbooks": rows})


def _playbook_context(request, key: str) -> dict:
    playbook = selectors.playbook_get(request.scope, key=key)
    if playbook is None:
        raise Http404
    can_switch = request.membership.at_least(Role.REVIEWER)
    return {"playbook": playbook, "can_switch": can_switch}


@require_GET
@role_required(Role.VIEWER)
def playbook_page(request, key: str):
    return render(request, "lessons/playbook.html", _playbook_context(request, key))


@require_POST
@role_required(Role.REVIEWER)
def playbook_switch(request, key: str):
    enabled = request.POST.get("enabled") == "on"
    reason = request.POST.get("reason", "")[:500]
    status = 200
    try:
        playbooks.check_playbook_switch(request.scope, key=key, enabled=enabled, reason=reason)
    except ApplicationError as refusal:
        if not request.htmx:
            messages.error(request, refusal.message)
            return redirect("playbook", key=key)
        status = refusal.status
    if not request.htmx:
        return redirect("playbook", key=key)
    context = _playbook_context(request, key)
    return render_page_or_fragment(
        request, "lessons/playbook.html", "lessons/partials/switch.html", context, status=status
    )


@require_GET
@role_required(Role.VIEWER)
def handoffs_page(request):
    agent = filters_from(HandoffFilters, request.GET)["agent"]
    rows = selectors.handoffs_for(request.scope, agent=agent, limit=300)
    by_receiver: dict[str, list] = defaultdict(list)
    for row in rows:
        by_receiver[row["receiver"]].append(row)
    context = {"by_receiver": dict(sorted(by_receiver.items())), "agent": agent}
    return render(request, "lessons/handoffs.html", context)
