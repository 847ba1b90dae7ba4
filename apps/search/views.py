"""The search page: one box in the top bar, results grouped by kind and linked, the query's
words highlighted (the text is escaped by the template; only the marks are ours)."""

from __future__ import annotations

import re

from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_GET

from apps.search import services
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment

GROUPS = [("passage", "Passages"), ("entity", "Entities"), ("message", "Messages"),
          ("entry", "Episode entries"), ("fact", "Facts"), ("argument", "Arguments")]  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def search_page(request):
    q = request.GET.get("q", "")[: services.MAX_QUERY_CHARS]
    user = request.GET.get("user") or None
    context = {"q": q, "user_filter": user or "", "groups": [], "error": None}
    if q.strip():
        try:
            found = services.check_search(request.scope, q=q, user=user,
                                          limit=services.MAX_LIMIT)  # fmt: skip
        except ApplicationError as refusal:
            context["error"] = refusal.message
        else:
            words = highlight_words(q)
            for kind, title in GROUPS:
                rows = [{**r, "parts": marked(r["snippet"], words), "link": link(r)}
                        for r in found["results"] if r["kind"] == kind]  # fmt: skip
                if rows:
                    context["groups"].append({"kind": kind, "title": title, "rows": rows})
            context["omitted"] = found["omitted"]
    return render_page_or_fragment(request, "search/search.html",
                                   "search/partials/results.html", context)  # fmt: skip


def highlight_words(q: str) -> list[str]:
    return sorted({w for w in re.findall(r"\w+", q.lower()) if len(w) > 1}, key=len, reverse=True)


def marked(text: str, words: list[str]) -> list[tuple[str, bool]]:
    """`text` as (part, is a query word) pairs, for the template to escape and mark."""
    if not words:
        return [(text, False)]
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")", re.IGNORECASE)
    parts, at = [], 0
    for match in pattern.finditer(text):
        if match.start() > at:
            parts.append((text[at : match.start()], False))
        parts.append((match.group(0), True))
        at = match.end()
    if at < len(text):
        parts.append((text[at:], False))
    return parts


def link(result: dict) -> str | None:
    source = result["source"]
    try:
        if result["kind"] == "entity":
            return reverse("entity-page", args=[result["uid"]])
        if result["kind"] == "message":
            return reverse("conversation-session", args=[source["user"], source["sid"]])
        if result["kind"] == "entry" and source.get("uid"):
            return reverse("episode", args=[source["uid"]])
        if result["kind"] == "fact":
            return reverse("knowledge-user", args=[source["user"]])
        if result["kind"] in ("passage", "argument") and source.get("uid"):
            return reverse("document-page", args=[source["uid"]])
    except NoReverseMatch:  # the documents' pages come with the documents' part of issue 33
        return None
    return None
