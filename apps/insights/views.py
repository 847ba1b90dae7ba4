"""The page "Graph": the most important entities and the communities at a chosen date, and a
connection finder with two entity pickers; the entity page's community fragment."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.insights import selectors
from apps.insights.connection import graph_connection
from apps.resolution.selectors import entities_search
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.request_inputs import MAX_UID_CHARS

PAGE_TOP = 15
PICKER_RESULTS = 20
MAX_QUERY_CHARS = 200
SIDES = ("source", "target")


def _at(request) -> tuple[str, datetime | None]:
    """The chosen date (YYYY-MM-DD) and the end of that day in UTC; none (now) when absent or
    not a date."""
    text = request.GET.get("date", "")[:10]
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return "", None
    if not 1900 <= day.year <= 9000:
        return "", None
    return text, datetime.combine(day, time.max, tzinfo=UTC)


@require_GET
@role_required(Role.VIEWER)
def graph_page(request):
    day, at = _at(request)
    context = {"date": day, "error": "", "sides": SIDES}
    try:
        context["important"] = selectors.graph_important(request.scope, at=at, limit=PAGE_TOP)
        context["communities"] = selectors.graph_communities(request.scope, at=at,
                                                             limit=PAGE_TOP)  # fmt: skip
    except ApplicationError as exc:
        context["error"] = exc.message
    return render(request, "insights/graph.html", context)


@require_GET
@role_required(Role.VIEWER)
def entity_picker(request, side: str):
    if side not in SIDES:
        raise Http404("No such picker.")
    q = request.GET.get(f"{side}_q", "")[:MAX_QUERY_CHARS]
    found = entities_search(request.scope, q=q, limit=PICKER_RESULTS) if q.strip() else []
    return render(request, "insights/partials/picker.html",
                  {"side": side, "found": found, "q": q})  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def connection_fragment(request):
    day, at = _at(request)
    source = request.GET.get("source", "")[:MAX_UID_CHARS]
    target = request.GET.get("target", "")[:MAX_UID_CHARS]
    context = {"date": day, "error": "", "answer": None}
    if not source or not target:
        context["error"] = "Choose two entities."
    else:
        try:
            answer = graph_connection(request.scope, source=source, target=target, at=at)
            ends = answer["entities"]
            context["answer"] = answer
            context["steps"] = [
                {
                    **step,
                    "source": ends[i],
                    "target": ends[i + 1],
                    "forward": step["direction"] == "forward",
                }  # fmt: skip
                for i, step in enumerate(answer["steps"])
            ]
        except ApplicationError as exc:
            context["error"] = exc.message
    return render(request, "insights/partials/connection.html", context)


@require_GET
@role_required(Role.VIEWER)
def community_fragment(request, uid: str):
    context = {"community": None, "error": "", "uid": uid}
    try:
        context["community"] = selectors.entity_community(request.scope, uid=uid[:MAX_UID_CHARS])
    except ApplicationError as exc:
        context["error"] = exc.message
    return render(request, "insights/partials/community.html", context)
