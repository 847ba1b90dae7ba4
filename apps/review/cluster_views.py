"""Reviewer pages of cluster review: the clusters beside the one in view, its members side by
side, and one decision for all of them (accept, split by groups, reject), undone in one click.
The keys are the pair view's (review.js): y accept, g split, n reject, j / k, u undo, ?."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from apps.review import cluster_decisions, cluster_selectors
from apps.review.cluster_finding import MAX_CLUSTER_ID_CHARS, MAX_MEMBERS
from apps.tenants.models import KeyScope, Role
from apps.tenants.roles import role_required
from memoryproject.api_errors import ApplicationError
from memoryproject.page_render import render_page_or_fragment
from memoryproject.request_inputs import MAX_UID_CHARS

LIST_ROWS = 50
DONE = {
    "accept": "Merged {n} members into “{survivor}”.",
    "split": "Split into {groups} groups: merged within each, not the same across.",
    "reject": "Not the same: {pairs} pair{s} closed, never proposed again.",
}


def _cluster(request, cluster_id: str | None) -> dict | None:
    cluster = None
    if cluster_id:
        cluster = cluster_selectors.cluster_detail(request.scope, cluster_id=cluster_id)
    if cluster:
        cluster["groups"] = range(1, len(cluster["members"]) + 1)
        for m in cluster["members"]:
            m["page_url"] = reverse("entity-page", args=[m["uid"]])
    return cluster


def _context(request, current: str | None = None, **extra) -> dict:
    listing = cluster_selectors.pending_clusters(request.scope, limit=LIST_ROWS)
    page = reverse("review-clusters")
    for c in listing["results"]:
        c["page_url"] = f"{page}?cluster={c['id']}"
        c["detail_url"] = reverse("review-cluster", args=[c["id"]])
        c["names"] = ", ".join(m["name"] or "?" for m in c["members"])
    ids = [c["id"] for c in listing["results"]]
    if current not in ids and (after := extra.pop("after", None)) in ids:
        current = after  # the cluster below the one just decided (review.js sends it)
    cluster = _cluster(request, current or (ids[0] if ids else None))
    if cluster is None and ids and current != ids[0]:
        cluster = _cluster(request, ids[0])  # the one asked for changed or was decided
    return {"listing": listing, "cluster": cluster,
            "can_decide": request.scope.allows(KeyScope.REVIEW), **extra}  # fmt: skip


@require_GET
@role_required(Role.VIEWER)
def clusters_page(request):
    current = request.GET.get("cluster", "")[:MAX_CLUSTER_ID_CHARS] or None
    return render(request, "review/clusters.html", _context(request, current))


@require_GET
@role_required(Role.VIEWER)
def cluster_page(request, cluster_id: str):
    cluster = _cluster(request, cluster_id[:MAX_CLUSTER_ID_CHARS])
    if cluster is None:
        raise Http404("No such cluster (it may have been decided or changed).")
    context = {"cluster": cluster, "can_decide": request.scope.allows(KeyScope.REVIEW)}
    return render_page_or_fragment(
        request, "review/cluster.html", "review/partials/cluster.html", context
    )


def _groups(post, members: list[str]) -> list[list[str]]:
    """The split's groups from each member's group number (1..MAX_MEMBERS), in number order."""
    numbered: dict[int, list[str]] = {}
    for uid in members:
        value = post.get(f"group-{uid}", "1")
        number = int(value) if value.isdigit() and 1 <= int(value) <= MAX_MEMBERS else 1
        numbered.setdefault(number, []).append(uid)
    return [numbered[n] for n in sorted(numbered)]


def _answer(request, message: str, *, error: bool, current: str | None, undo: str | None = None):
    if not getattr(request, "htmx", False):
        return redirect("review-clusters")
    after = request.POST.get("after", "")[:MAX_CLUSTER_ID_CHARS] or None
    context = _context(request, current, flash=message, error=error, undo=undo, after=after)
    return render(request, "review/partials/cluster_decided.html", context)


@require_POST
@role_required(Role.REVIEWER)
def cluster_decide(request, cluster_id: str):
    cluster_id = cluster_id[:MAX_CLUSTER_ID_CHARS]
    members = [u[:MAX_UID_CHARS] for u in request.POST.getlist("members")][:MAX_MEMBERS]
    decision = request.POST.get("decision", "")[:10]
    try:
        result = cluster_decisions.check_cluster_decide(
            request.scope, cluster_id=cluster_id, decision=decision,
            groups=_groups(request.POST, members) if decision == "split" else None,
            expected=members or None,
        )  # fmt: skip
    except ApplicationError as exc:
        return _answer(request, exc.message, error=True, current=cluster_id)
    n = len(result["rejected"])
    survivor = next((m["survivor_name"] for m in result["merges"]), "")
    message = DONE[decision].format(n=len(result["members"]), survivor=survivor,
                                    groups=len(result["groups"]), pairs=n, s="" if n == 1 else "s")  # fmt: skip
    return _answer(request, message, error=False, current=None, undo=cluster_id)


@require_POST
@role_required(Role.REVIEWER)
def cluster_undo(request, cluster_id: str):
    cluster_id = cluster_id[:MAX_CLUSTER_ID_CHARS]
    try:
        cluster_decisions.check_cluster_undo(request.scope, cluster_id=cluster_id)
    except ApplicationError as exc:
        return _answer(request, exc.message, error=True, current=None)
    return _answer(request, "Undone: the cluster is back as it was.", error=False,
                   current=cluster_id)  # fmt: skip
