"""Pages of versioned entities: the timeline on the entity page (with an "as of" date, htmx),
the difference between two dates, and an episode entry with what relied on it (reviewers and
admins may mark it wrong)."""

from __future__ import annotations

import datetime as dt

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.tenants.models import Role
from apps.tenants.roles import role_required
from apps.timeline.entry_rows import rows_from_entries_queue
from apps.timeline.impact import check_entry_invalidate, impact_of_entry
from apps.timeline.kinds import check_kind_declare, kinds_list
from apps.timeline.page_selectors import entity_timeline, entry_row_jobs
from apps.timeline.rows import parse_time
from apps.timeline.time_diff import diff_between
from apps.timeline.value_plots import value_plots
from memoryproject.api_errors import ApplicationError
from memoryproject.json_values import FREE_FORM, json_loads
from memoryproject.request_inputs import MAX_UID_CHARS

MAX_KIND_JSON = 20_000


@require_http_methods(["GET", "POST"])
@role_required(Role.VIEWER)
def kinds_page(request):
    """The tenant's kinds; admins declare one (or add to one) as JSON, as the API takes it, and
    start the job that reads a kind's rows from entries (its progress shows below, htmx)."""
    error, text = "", ""
    if request.method == "POST":
        if not request.scope.allows("admin"):
            return render(request, "tenants/forbidden.html", {"role": "admin"}, status=403)
        text = request.POST.get("kind", "")[:MAX_KIND_JSON]
        try:
            check_kind_declare(request.scope, kind=json_loads(text, field="kind",
                                                              limits=FREE_FORM))  # fmt: skip
            return redirect("kinds")
        except ApplicationError as exc:
            error = exc.message
    return _kinds_render(request, error=error, text=text, status=400 if error else 200)


def _kinds_render(request, *, error: str = "", text: str = "", status: int = 200):
    jobs = entry_row_jobs(request.scope)
    context = {"kinds": kinds_list(request.scope), "error": error, "text": text,
               "can_declare": request.scope.allows("admin"), "jobs": jobs,
               "running": any(j.status in ("queued", "running") for j in jobs)}  # fmt: skip
    return render(request, "timeline/kinds.html", context, status=status)


@require_POST
@role_required(Role.ADMIN)
def kind_rows_from_entries(request, kind: str):
    try:
        rows_from_entries_queue(request.scope, kind=kind[:40])
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404("No such kind.") from None
        return _kinds_render(request, error=exc.message, status=exc.status)
    return redirect("kinds")


@require_GET
@role_required(Role.VIEWER)
def entry_row_jobs_part(request):
    jobs = entry_row_jobs(request.scope)
    running = any(j.status in ("queued", "running") for j in jobs)
    return render(request, "timeline/partials/entry_row_jobs.html",
                  {"jobs": jobs, "running": running})  # fmt: skip


def _moment(raw: str | None) -> dt.datetime | None:
    """A date from a form (YYYY-MM-DD, or a full time); None when empty or not a time."""
    if not raw:
        return None
    text = raw.strip()[:40]
    if len(text) == 10:
        text += "T23:59:59Z"  # as of a day: at its end
    try:
        return parse_time(text, field="at")
    except ApplicationError:
        return None


@require_GET
@role_required(Role.VIEWER)
def entity_timeline_part(request, uid: str):
    at = _moment(request.GET.get("at"))
    timeline = entity_timeline(request.scope, uid=uid[:MAX_UID_CHARS], at=at)
    if timeline is None:
        raise Http404("No such entity.")
    plots = value_plots(timeline["states"])
    return render(request, "timeline/partials/entity_timeline.html", {"tl": timeline,
                  "value_plots": plots})  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def diff_page(request):
    since, until = _moment(request.GET.get("since")), _moment(request.GET.get("until"))
    diff, error = None, ""
    if since and until:
        if since < until:
            diff = diff_between(request.scope, since=since, until=until)
        else:
            error = "The first date comes before the second."
    context = {"diff": diff, "error": error, "since": request.GET.get("since", "")[:40],
               "until": request.GET.get("until", "")[:40]}  # fmt: skip
    return render(request, "timeline/diff.html", context)


@require_GET
@role_required(Role.VIEWER)
def entry_page(request, uid: str):
    try:
        impact = impact_of_entry(request.scope, entry=uid[:MAX_UID_CHARS])
    except ApplicationError:
        raise Http404("No such entry.") from None
    can_mark = request.scope.allows("review")
    return render(request, "timeline/entry.html", {"impact": impact, "can_mark": can_mark})


@require_POST
@role_required(Role.REVIEWER)
def entry_invalidate(request, uid: str):
    reason = request.POST.get("reason", "")[:500]
    try:
        check_entry_invalidate(request.scope, entry=uid[:MAX_UID_CHARS], reason=reason)
    except ApplicationError:
        raise Http404("No such entry.") from None
    return redirect("entry-page", uid=uid[:MAX_UID_CHARS])
