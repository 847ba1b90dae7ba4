"""Pages of the ingestion app: recent ingestion jobs with progress bars (refreshed by htmx); the
documents list, a document read with its mentions linked, and its deletion with progress."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_POST

from apps.ingestion import document_deletion, selectors
from apps.ingestion.filters import DocumentListQuery
from apps.tenants import selectors as tenant_selectors
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import MAX_UID_CHARS, filters_from

PAGE_DOCUMENTS = 25


@require_GET
@role_required(Role.VIEWER)
def ingestion_jobs(request):
    context = {"ingestion_jobs": selectors.ingestion_jobs_recent(request.scope)}
    return render_page_or_fragment(
        request, "ingestion/jobs.html", "ingestion/partials/jobs.html", context
    )


@require_GET
@role_required(Role.VIEWER)
def documents_page(request):
    filters = filters_from(DocumentListQuery, request.GET)
    asked = filters["limit"] if "limit" in request.GET else PAGE_DOCUMENTS
    filters["limit"] = min(asked, PAGE_DOCUMENTS)
    found = selectors.documents_list(request.scope, **filters)
    shown = {k: request.GET.get(k, "") for k in ("source", "title", "agent", "created_after",
                                                   "created_before")}  # fmt: skip
    query = urlencode({k: v for k, v in shown.items() if v})
    context = {"found": found, "filters": shown, "query": query,
               "previous_offset": max(0, found["offset"] - filters["limit"])
               if found["offset"] else None}  # fmt: skip
    return render_page_or_fragment(
        request, "ingestion/documents.html", "ingestion/partials/documents_rows.html", context
    )


def mention_segments(content: str, mentions: list[dict]) -> list[dict]:
    """The text cut into plain and mentioned parts (each mention at its offset in the document,
    checked against the text; overlapping ones keep the first), for the page to link."""
    spans = []
    for m in mentions:
        start, end = (m["chunk_start"] or 0) + m["start"], (m["chunk_start"] or 0) + m["end"]
        if m["start"] >= 0 and content[start:end] == m["surface"]:
            spans.append((start, end, m))
    segments, at = [], 0
    for start, end, m in sorted(spans, key=lambda s: (s[0], -s[1])):
        if start < at:
            continue
        if start > at:
            segments.append({"text": content[at:start]})
        segments.append({"text": content[start:end], "entity": m["entity"], "type": m["type"],
                         "url": reverse("entity-page", args=[m["entity"]])})  # fmt: skip
        at = end
    if at < len(content):
        segments.append({"text": content[at:]})
    return segments


@require_GET
@role_required(Role.VIEWER)
def document_page(request, uid: str):
    found = selectors.document_detail(request.scope, uid=uid[:MAX_UID_CHARS])
    if found is None:
        raise Http404("No such document.")
    for entity in found["entities"]:
        entity["url"] = reverse("entity-page", args=[entity["uid"]])
    context = {
        "doc": found,
        "segments": mention_segments(found["content"] or "", found["mentions"]),
        "deletion": document_deletion.deletion_running(request.scope, uid=found["uid"]),
        "confirming": request.GET.get("confirm") == "delete",
    }
    return render(request, "ingestion/document.html", context)


@require_POST
@role_required(Role.REVIEWER)
def document_delete(request, uid: str):
    try:
        job = document_deletion.check_document_delete(request.scope, uid=uid)
    except ApplicationError as refusal:
        if refusal.status == 404:
            raise Http404("No such document.") from None
        return render(request, "ingestion/deletion.html", {"error": refusal.message},
                      status=refusal.status)  # fmt: skip
    return redirect("document-deletion", uid=job.uid)


@require_GET
@role_required(Role.VIEWER)
def deletion_page(request, uid: str):
    job = tenant_selectors.job_get(request.scope, uid=uid[:MAX_UID_CHARS])
    if job is None or job.kind != document_deletion.JOB_KIND:
        raise Http404("No such deletion.")
    total, done = job.progress.get("total") or 0, job.progress.get("done") or 0
    context = {
        "job": job, "done": done, "total": total,
        "percent": 100 if job.status == "done" else int(100 * done / total) if total else 0,
        "finished": job.status in ("done", "failed"),
    }  # fmt: skip
    return render_page_or_fragment(
        request, "ingestion/deletion.html", "ingestion/partials/deletion_progress.html", context
    )
