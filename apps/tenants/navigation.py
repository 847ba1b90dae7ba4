"""The top menu of every page: groups of links (memory, review, work, graph, admin), each link
once, only those the person's role opens, and the one the current page belongs to marked.

The current link is the one whose path is the longest prefix of the request's path, so a
detail page (/memory/lessons/<key>) marks its list (Lessons) and /review/audit/ marks Audit,
not the queue at /review/."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from apps.tenants.models import ROLE_RANK, Role

# (group, [(label, url name, least role)]).
GROUPS = [
    (
        "Memory",
        [
            ("Entities", "entity-search", Role.VIEWER),
            ("Documents", "documents", Role.VIEWER),
            ("Conversations", "conversations", Role.REVIEWER),
            ("Episodes", "episodes", Role.VIEWER),
            ("Lessons", "lessons", Role.VIEWER),
            ("Playbooks", "playbooks", Role.VIEWER),
            ("Handoffs", "handoffs", Role.VIEWER),
            ("Knowledge", "knowledge", Role.VIEWER),
            ("Kinds", "kinds", Role.VIEWER),
            ("Changes", "timeline-diff", Role.VIEWER),
            ("Promotion rules", "promotions", Role.ADMIN),
        ],
    ),
    (
        "Review",
        [
            ("Review queue", "review-queue", Role.VIEWER),
            ("Clusters", "review-clusters", Role.VIEWER),
            ("Suspect merges", "review-suspects", Role.VIEWER),
            ("Decisions", "review-audit", Role.VIEWER),
            ("Trends", "review-trends", Role.VIEWER),
        ],
    ),
    (
        "Work",
        [
            ("Tasks", "work-tasks", Role.VIEWER),
            ("Ready set", "work-ready", Role.VIEWER),
            ("Ingestion jobs", "ingestion-jobs", Role.VIEWER),
        ],
    ),
    (
        "Graph",
        [
            ("Graph", "graph-page", Role.VIEWER),
            ("Communities", "graph-communities", Role.VIEWER),
        ],
    ),
]


@dataclass
class NavLink:
    label: str
    href: str
    current: bool = False


@dataclass
class NavGroup:
    label: str
    links: list[NavLink] = field(default_factory=list)

    @property
    def current(self) -> bool:
        return any(link.current for link in self.links)


def _admin_links(request, rank: int) -> list[NavLink]:
    tenant = getattr(request, "tenant", None)
    links = []
    if rank >= ROLE_RANK[Role.ADMIN] and tenant is not None:
        links.append(NavLink("Console", reverse("console-usage", args=[tenant.slug])))
    elif request.user.is_staff:
        links.append(NavLink("Console", reverse("console")))
    if rank >= ROLE_RANK[Role.ADMIN]:
        links.append(NavLink("Erasure", reverse("erasure")))
    links.append(NavLink("API docs", reverse("api-docs")))
    if request.user.is_staff:
        links.append(NavLink("Django admin", reverse("admin:index")))
    return links


def _mark_current(groups: list[NavGroup], path: str) -> None:
    links = [link for group in groups for link in group.links]
    # The console's own pages live under /console/<slug>/...; its link is /console/<slug>/.
    matching = [link for link in links if path.startswith(link.href)]
    if matching:
        max(matching, key=lambda link: len(link.href)).current = True


def main_navigation(request) -> dict:
    """Context processor: `nav_groups` for templates/base.html (empty when logged out)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    membership = getattr(request, "membership", None)
    rank = ROLE_RANK.get(getattr(membership, "role", ""), 0)
    groups = [
        NavGroup(label, [NavLink(text, reverse(name)) for text, name, least in items
                         if rank >= ROLE_RANK[least]])
        for label, items in GROUPS
    ]  # fmt: skip
    groups.append(NavGroup("Admin", _admin_links(request, rank)))
    groups = [group for group in groups if group.links]
    _mark_current(groups, request.path)
    return {"nav_groups": groups}
