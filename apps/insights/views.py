"""The page "Graph": the most important entities and the communities at a chosen date, a
picture of their neighbourhood (Cytoscape.js, static/js/graph-view.js), and a connection finder
with two entity pickers; the entity page's community and neighbourhood fragments, and the
bounded JSON neighbourhood the picture expands a node with."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.insights import selectors
from apps.insights.connection import graph_connection
from apps.insights.view_selectors import MAX_PER_NODE, MAX_SEEDS, graph_neighbourhood
from apps.resolution.selectors import entities_search
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError, error_body
from memoryproject.request_inputs import MAX_UID_CHARS

PAGE_TOP = 15
PICKER_RESULTS = 20
MAX_QUERY_CHARS = 200
SIDES = ("source", "target")
PAGE_PER_NODE = 12  # the /graph/ picture: PAGE_TOP seeds, each with its heaviest relations
ENTITY_PER_NODE = 40


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
        if at is None:  # the picture is the graph now; at a date the lists above tell
            seeds = [e["uid"] for e in context["important"]["results"]]
            context["picture"] = graph_neighbourhood(request.scope, uids=seeds,
                                                     per_node=PAGE_PER_NODE)  # fmt: skip
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


@require_GET
@role_required(Role.VIEWER)
def neighbourhood_fragment(request, uid: str):
    """The entity page's picture of its neighbourhood, with the same data as a table."""
    picture = graph_neighbourhood(request.scope, uids=[uid[:MAX_UID_CHARS]],
                                  per_node=ENTITY_PER_NODE)  # fmt: skip
    if not picture["nodes"]:
        raise Http404("No such entity.")
    return render(request, "insights/partials/neighbourhood.html",
                  {"picture": picture, "centre": uid})  # fmt: skip


def _bad(field: str, message: str, limit) -> JsonResponse:
    return JsonResponse(error_body("invalid", message, field=field, limit=limit), status=400)


@require_GET
@role_required(Role.VIEWER)
def neighbourhood_json(request):
    """GET /graph/neighbourhood/?uid=..&uid=..&per_node=N: the bounded neighbourhood of the
    tenant's entities `uid` (at most MAX_SEEDS), for expanding a node of the picture."""
    uids = request.GET.getlist("uid")
    if not uids:
        return _bad("uid", "Give at least one entity uid.", MAX_SEEDS)
    if len(uids) > MAX_SEEDS:
        return _bad("uid", f"At most {MAX_SEEDS} entity uids at a time.", MAX_SEEDS)
    if any(len(u) > MAX_UID_CHARS for u in uids):
        return _bad("uid", f"An entity uid has at most {MAX_UID_CHARS} characters.", MAX_UID_CHARS)
    text = request.GET.get("per_node", str(ENTITY_PER_NODE))
    if not text.isdigit() or not 1 <= int(text) <= MAX_PER_NODE:
        return _bad("per_node", f"per_node is a whole number from 1 to {MAX_PER_NODE}.",
                    MAX_PER_NODE)  # fmt: skip
    return JsonResponse(graph_neighbourhood(request.scope, uids=uids, per_node=int(text)))
