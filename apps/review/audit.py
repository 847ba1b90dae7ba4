"""The audit of human (and review-agent) decisions, for the audit page: newest first, filtered."""

from __future__ import annotations

from apps.tenants.models import AuditEvent

AUDIT_PAGE = 200


def audit_events(tenant, *, action: str = "", actor: str = "", target: str = ""):
    events = AuditEvent.objects.filter(tenant=tenant)
    if action:
        events = events.filter(action=action)
    if actor:
        events = events.filter(actor__icontains=actor)
    if target:
        events = events.filter(target__icontains=target)
    return list(events.order_by("-at")[:AUDIT_PAGE])


def audit_actions(tenant) -> list[str]:
    return list(
        AuditEvent.objects.filter(tenant=tenant)
        .order_by("action")
        .values_list("action", flat=True)
        .distinct()
    )
