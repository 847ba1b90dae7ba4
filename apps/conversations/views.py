"""Pages: the conversation browser (reviewers and admins) and the erasure page (admins)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from apps.conversations import erasure, selectors, traces
from apps.conversations import input_limits as limits
from apps.conversations.forms import ErasureForm
from apps.tenants import selectors as tenant_selectors
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment

PAGE_MESSAGES = 50


@require_GET
@role_required(Role.REVIEWER)
def users_page(request):
    wanted = request.GET.get("user", "").strip()
    error = None
    if wanted:
        try:
            return redirect("conversation-user", user=limits.validate_user(wanted))
        except ApplicationError as refusal:
            error = refusal.message
    users = selectors.conversation_users(request.scope)
    context = {"users": users, "error": error, "wanted": wanted}
    return render(request, "conversations/users.html", context, status=400 if error else 200)


@require_GET
@role_required(Role.REVIEWER)
def user_page(request, user: str):
    try:
        sessions = selectors.sessions_list(request.scope, user=user)
    except ApplicationError as refusal:
        raise Http404(refusal.message) from None
    return render(request, "conversations/user.html", {"user_id": user, "sessions": sessions})


@require_GET
@role_required(Role.REVIEWER)
def session_page(request, user: str, sid: str):
    before = request.GET.get("before")
    try:
        before = int(before) if before else None
        messages = selectors.messages_read(
            request.scope, user=user, sid=sid, last=PAGE_MESSAGES, before=before
        )
        found = selectors.session_context(request.scope, user=user, sid=sid, last=0)
    except (ApplicationError, ValueError):
        raise Http404("No such session.") from None
    context = {
        "user_id": user,
        "sid": sid,
        # Not "messages": base.html shows Django's flash messages under that name.
        "session_messages": messages,
        "summary": found["summary"],
        "last_no": found["last_no"],
        "earlier": messages[0]["no"] if messages and messages[0]["no"] > 1 else None,
        "traces": traces.session_traces(request.scope, user=user, sid=sid),
    }
    return render(request, "conversations/session.html", context)


@require_http_methods(["GET", "POST"])
@role_required(Role.ADMIN)
def erasure_page(request):
    form = ErasureForm(request.POST or None)
    context = {"form": form, "preview": None, "error": None}
    if request.method == "POST" and form.is_valid():
        user, sid = form.cleaned_data["user"], form.cleaned_data["session"] or None
        try:
            if request.POST.get("confirm") == "yes":
                job = erasure.check_erasure_start(request.scope, user=user, sid=sid)
                return redirect("erasure-job", uid=job.uid)
            context["preview"] = erasure.erasure_preview(request.scope, user=user, sid=sid)
        except ApplicationError as refusal:
            context["error"] = refusal.message
    return render(request, "conversations/erasure.html", context)


@require_GET
@role_required(Role.ADMIN)
def erasure_job_page(request, uid: str):
    job = tenant_selectors.job_get(request.scope, uid=uid)
    if job is None or job.kind != erasure.JOB_KIND:
        raise Http404("No such erasure.")
    total = job.progress.get("total") or 0
    done = job.progress.get("done") or 0
    context = {
        "job": job,
        "done": done,
        "total": total,
        "percent": 100 if job.status == "done" else int(100 * done / total) if total else 0,
        "finished": job.status in ("done", "failed"),
    }
    return render_page_or_fragment(
        request, "conversations/erasure_job.html", "conversations/partials/erasure_progress.html",
        context,
    )  # fmt: skip
