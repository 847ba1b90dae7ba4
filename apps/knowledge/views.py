"""Pages of promoted knowledge: the users with facts, and one user's knowledge graph."""

from __future__ import annotations

from collections import defaultdict

from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.knowledge.selectors import knowledge_graph, knowledge_users
from apps.tenants.models import Role
from apps.tenants.roles import role_required


@require_GET
@role_required(Role.VIEWER)
def knowledge_users_page(request):
    return render(request, "knowledge/users.html", {"users": knowledge_users(request.scope)})


@require_GET
@role_required(Role.VIEWER)
def knowledge_page(request, user: str):
    facts = knowledge_graph(request.scope, user=user[:200])
    nodes: dict[str, set] = defaultdict(set)
    for fact in facts:
        nodes[fact["from_label"]].add(fact["from"])
        nodes[fact["to_label"]].add(fact["to"])
    context = {
        "user_name": user,
        "facts": facts,
        "nodes": {label: sorted(keys) for label, keys in sorted(nodes.items())},
    }
    return render(request, "knowledge/knowledge.html", context)
