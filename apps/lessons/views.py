"""Pages for reviewers: episode timelines, lessons with evidence, playbooks with versions, runs and
the switch, handoffs per agent, and the promotion rules (tried, saved and run)."""

from __future__ import annotations

import json
from collections import defaultdict

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.lessons import selectors
from apps.lessons.filters import EpisodeFilters, HandoffFilters
from apps.lessons.services import playbooks, promotion, promotion_rules
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import filters_from

MAX_RULE_FORM_CHARS = 40_000


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


# --- promotion rules: declared, tried, saved and run from the console ----------------------


def _rules_context(request, *, text: str = "", result=None, error: str = "") -> dict:
    rules = selectors.promotion_rules_list(request.scope)
    if not text and request.GET.get("edit"):
        chosen = next((r for r in rules if r["name"] == request.GET["edit"]), None)
        text = json.dumps(chosen["rule"], indent=2) if chosen else ""
    return {
        "rules": rules,
        "text": text or json.dumps(EXAMPLE_RULE, indent=2),
        "result": result,
        "error": error,
        "can_write": request.membership.at_least(Role.ADMIN),
    }


EXAMPLE_RULE = {
    "name": "my-rule",
    "episodes": {"having": ["outcome.fixed"]},
    "lessons": [{"id": "it-gets-fixed", "statement": "It gets fixed",
                 "agrees": {"field": "outcome.fixed", "equals": True}}],
}  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def promotions_page(request):
    return render(request, "lessons/promotions.html", _rules_context(request))


@require_POST
@role_required(Role.ADMIN)
def promotion_action(request, action: str):
    """`try` and `save` take the rule's JSON from the form; `run` a saved rule's name."""
    if action not in ("try", "save", "run"):
        raise Http404
    text = request.POST.get("rule", "")[:MAX_RULE_FORM_CHARS]
    result, error, status = None, "", 200
    try:
        if action == "run":
            result = promotion.check_promote(request.scope, rule=request.POST.get("name", ""))
        else:
            try:
                rule = json.loads(text)
            except ValueError as exc:
                raise ApplicationError(f"The rule is not JSON: {exc}", field="rule") from exc
            if action == "try":
                result = promotion.check_promotion_try(request.scope, rule=rule)
            else:
                saved = promotion_rules.check_promotion_rule_save(request.scope, rule=rule)
                messages.success(request, f"Rule {saved['name']} v{saved['version']}: "
                                 f"{saved['status']}.")  # fmt: skip
                if not request.htmx:
                    return redirect("promotions")
    except ApplicationError as refusal:
        error = f"{refusal.field}: {refusal.message}" if refusal.field else refusal.message
        status = refusal.status
    context = _rules_context(request, text=text, result=result, error=error)
    return render_page_or_fragment(request, "lessons/promotions.html",
                                   "lessons/partials/promotion_result.html", context,
                                   status=status)  # fmt: skip
