"""Reviewer pages: the queue with the pair in view, decisions by buttons or keys (htmx, no
reload), bulk confirm with a preview, undo, the audit, an entity's merges, and
the suspect merges (keep or undo)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_GET, require_POST

from apps.graph.nodes import ENTITY_TYPES
from apps.review import audit, selectors, services, suspect_merges
from apps.review.filters import QueueFilters
from apps.tenants.models import KeyScope, Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import MAX_UID_CHARS, filters_from

SKIPPED = "review_skipped"
LAST = "review_last"
MAX_SKIPPED = 500
MAX_BULK = 50
QUEUE_ROWS = 50


def _filters(source) -> dict:
    return filters_from(QueueFilters, source)


def _document_url(uid: str | None) -> str | None:
    if not uid:
        return None
    try:
        return reverse("document-page", args=[uid])
    except NoReverseMatch:  # the documents pages are another app's; link when they exist
        return None


def _pair(request, uid: str | None) -> dict | None:
    pair = selectors.pair_detail(request.scope, uid=uid) if uid else None
    if pair:
        for side in (pair["merged"], pair["survivor"]):
            for m in side["mentions"]:
                m["document_url"] = _document_url(m["document_uid"])
            # Links and numbers made here, not by template tags: a page shows dozens of them.
            for r in side["relations"]:
                r["other_url"] = reverse("entity-page", args=[r["other"]["uid"]])
                r["confidence_text"] = _two_places(r["confidence"])
    return pair


def _two_places(value) -> str:
    return "" if value is None else f"{value:.2f}"


def _queue_rows(queue: dict) -> dict:
    page = reverse("review-queue")
    for p in queue["pairs"]:
        p["page_url"] = f"{page}?pair={p['uid']}"
        p["pair_url"] = reverse("review-pair", args=[p["uid"]])
        p["score_text"] = _two_places(p["score"])
    return queue


def _context(request, filters: dict, current: str | None = None, **extra) -> dict:
    queue = _queue_rows(
        selectors.pending_queue(
            request.scope, **filters, skipped=request.session.get(SKIPPED, []), limit=QUEUE_ROWS
        )
    )
    uids = [p["uid"] for p in queue["pairs"]]
    if current not in uids and (after := extra.pop("after", None)) in uids:
        current = after  # the pair below the one just decided (review.js sends it)
    if current is None and uids:
        current = uids[0]
    return {
        "queue": queue,
        "filters": filters,
        "types": ENTITY_TYPES,
        "pair": _pair(request, current),
        "can_decide": request.scope.allows(KeyScope.REVIEW),
        "last": request.session.get(LAST),
        "skipped": len(request.session.get(SKIPPED, [])),
        **extra,
    }


@require_GET
@role_required(Role.VIEWER)
def review_queue_page(request):
    filters = _filters(request.GET)
    current = request.GET.get("pair", "")[:MAX_UID_CHARS] or None
    context = _context(request, filters, current)
    return render_page_or_fragment(
        request, "review/queue.html", "review/partials/workspace.html",
        context,
    )  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def pair_page(request, uid: str):
    pair = _pair(request, uid[:MAX_UID_CHARS])
    if pair is None:
        raise Http404("No such review.")
    context = {"pair": pair, "can_decide": request.scope.allows(KeyScope.REVIEW),
               "filters": _filters(request.GET)}  # fmt: skip
    return render_page_or_fragment(
        request, "review/pair.html", "review/partials/pair.html", context
    )


def _after(request, message: str, *, error: bool = False, current: str | None = None):
    """What every decision answers: the next pair, and the queue and count out of band."""
    after = request.POST.get("after", "")[:MAX_UID_CHARS] or None
    context = _context(
        request, _filters(request.POST), current, flash=message, error=error, after=after
    )
    if not getattr(request, "htmx", False):
        return redirect("review-queue")
    return render(request, "review/partials/decided.html", context)


def _decide(request, action):
    try:
        return action()
    except ApplicationError as exc:
        return exc


@require_POST
@role_required(Role.REVIEWER)
def pair_confirm(request, uid: str):
    uid = uid[:MAX_UID_CHARS]
    result = _decide(request, lambda: services.check_review_confirm(
        request.scope, review_uid=uid, survivor_uid=request.POST.get("survivor") or None))  # fmt: skip
    if isinstance(result, ApplicationError):
        return _after(request, result.message, error=True)
    request.session[LAST] = {"kind": "confirm", "uid": result["merge_uid"],
                             "label": f"merge of {result['merged_name']}"}  # fmt: skip
    return _after(
        request,
        f"Merged “{result['merged_name']}” into “{result['survivor_name']}”: "
        f"{result['moved']} edge{pluralize(result['moved'])} moved, "
        f"{result['combined']} relation{pluralize(result['combined'])} combined.",
    )


@require_POST
@role_required(Role.REVIEWER)
def pair_reject(request, uid: str):
    uid = uid[:MAX_UID_CHARS]
    result = _decide(request, lambda: services.check_review_reject(
        request.scope, review_uid=uid, reason=request.POST.get("reason", "")))  # fmt: skip
    if isinstance(result, ApplicationError):
        return _after(request, result.message, error=True)
    request.session[LAST] = {"kind": "reject", "uid": uid,
                             "label": f"rejection of {result['left_name']}"}  # fmt: skip
    return _after(
        request, f"“{result['left_name']}” and “{result['right_name']}” are not the same."
    )


@require_POST
@role_required(Role.REVIEWER)
def pair_skip(request, uid: str):
    skipped = [u for u in request.session.get(SKIPPED, []) if u != uid][-MAX_SKIPPED + 1 :]
    request.session[SKIPPED] = [*skipped, uid[:MAX_UID_CHARS]]
    return _after(request, "Skipped for now.")


@require_POST
@role_required(Role.REVIEWER)
def skipped_clear(request):
    request.session[SKIPPED] = []
    return _after(request, "Skipped pairs are back in the queue.")


@require_POST
@role_required(Role.REVIEWER)
def undo_last(request):
    last = request.session.get(LAST)
    if not last:
        return _after(request, "Nothing to undo.", error=True)
    if last["kind"] == "confirm":
        result = _decide(request, lambda: services.check_merge_undo(
            request.scope, merge_uid=last["uid"]))  # fmt: skip
        current = None if isinstance(result, ApplicationError) else result["review_uid"]
    else:
        result = _decide(request, lambda: services.check_rejection_undo(
            request.scope, review_uid=last["uid"]))  # fmt: skip
        current = last["uid"]
    if isinstance(result, ApplicationError):
        return _after(request, result.message, error=True)
    request.session[LAST] = None
    return _after(request, f"Undid the {last['label']}: the pair is back.", current=current)


@require_POST
@role_required(Role.REVIEWER)
def bulk_confirm(request):
    uids = [u[:MAX_UID_CHARS] for u in request.POST.getlist("pairs")][:MAX_BULK]
    if request.POST.get("step") != "confirm":
        pairs = [p for p in (_pair(request, u) for u in uids) if p]
        return render(request, "review/partials/bulk_preview.html",
                      {"pairs": pairs, "filters": _filters(request.POST)})  # fmt: skip
    done, refused = [], []
    for uid in uids:
        result = _decide(request, lambda uid=uid: services.check_review_confirm(
            request.scope, review_uid=uid))  # fmt: skip
        (refused if isinstance(result, ApplicationError) else done).append(result)
    message = f"Merged {len(done)} pairs."
    if refused:
        message += " Refused: " + "; ".join(r.message for r in refused)
    return _after(request, message, error=bool(refused))


@require_POST
@role_required(Role.REVIEWER)
def merge_undo(request, uid: str):
    result = _decide(request, lambda: services.check_merge_undo(
        request.scope, merge_uid=uid[:MAX_UID_CHARS]))  # fmt: skip
    entity = request.POST.get("entity", "")[:MAX_UID_CHARS]
    message = result.message if isinstance(result, ApplicationError) else "Merge undone."
    return _extras(request, entity, message=message, error=isinstance(result, ApplicationError))


def _extras(request, uid: str, **extra):
    data = selectors.neighbourhood(request.scope, uid=uid)
    if data is None:
        raise Http404("No such entity.")
    context = {
        "entity_uid": uid,
        "history": selectors.merge_history(request.scope, uid=uid),
        "can_decide": request.scope.allows(KeyScope.REVIEW),
        **extra,
    }
    return render(request, "review/partials/entity_extras.html", context)


@require_GET
@role_required(Role.VIEWER)
def entity_extras(request, uid: str):
    return _extras(request, uid[:MAX_UID_CHARS])


@require_GET
@role_required(Role.VIEWER)
def audit_page(request):
    action = request.GET.get("action", "")[:60]
    actor = request.GET.get("actor", "")[:200]
    target = request.GET.get("target", "")[:200]
    context = {
        "events": audit.audit_events(request.tenant, action=action, actor=actor,
                                            target=target),
        "actions": audit.audit_actions(request.tenant),
        "action": action, "actor": actor, "target": target,
    }  # fmt: skip
    return render_page_or_fragment(
        request, "review/audit.html", "review/partials/audit_rows.html",
        context,
    )  # fmt: skip


def _suspects_context(request, current: str | None = None, **extra) -> dict:
    queue = suspect_merges.suspect_queue(request.scope, limit=QUEUE_ROWS)
    page = reverse("review-suspects")
    for row in queue["results"]:
        row["page_url"] = f"{page}?suspect={row['uid']}"
        row["detail_url"] = reverse("review-suspect", args=[row["uid"]])
        row["score_text"] = _two_places(row["rescored_probability"])
    if current is None and queue["results"]:
        current = queue["results"][0]["uid"]
    suspect = suspect_merges.suspect_detail(request.scope, uid=current) if current else None
    return {"queue": queue, "suspect": suspect,
            "can_decide": request.scope.allows(KeyScope.REVIEW), **extra}  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def suspects_page(request):
    current = request.GET.get("suspect", "")[:MAX_UID_CHARS] or None
    return render(request, "review/suspects.html", _suspects_context(request, current))


@require_GET
@role_required(Role.VIEWER)
def suspect_fragment(request, uid: str):
    suspect = suspect_merges.suspect_detail(request.scope, uid=uid[:MAX_UID_CHARS])
    if suspect is None:
        raise Http404("No such suspect merge.")
    context = {"suspect": suspect, "can_decide": request.scope.allows(KeyScope.REVIEW)}
    return render(request, "review/partials/suspect.html", context)


def _suspect_decided(request, decide, done: str):
    result = _decide(request, decide)
    error = isinstance(result, ApplicationError)
    message = result.message if error else done.format(**result)
    if not getattr(request, "htmx", False):
        return redirect("review-suspects")
    context = _suspects_context(request, flash=message, error=error)
    return render(request, "review/partials/suspect_decided.html", context)


@require_POST
@role_required(Role.REVIEWER)
def suspect_keep(request, uid: str):
    return _suspect_decided(
        request, lambda: services.check_suspect_keep(request.scope, uid=uid[:MAX_UID_CHARS]),
        "Kept: “{name}” stays merged into “{entity_name}”.",
    )  # fmt: skip


@require_POST
@role_required(Role.REVIEWER)
def suspect_undo(request, uid: str):
    return _suspect_decided(
        request, lambda: services.check_suspect_undo(request.scope, uid=uid[:MAX_UID_CHARS]),
        "Undone: “{name}” is an entity of its own again, not the same as “{entity_name}”.",
    )  # fmt: skip
