"""Reads of a tenant's audit trail (who did what, when) and of its erasure requests with their
jobs. What a page shows of an event's details is limited: the console's own actions (roles,
keys, settings) in full, anything else only as numbers, so no personal content (names, texts)
that another app put in its details is ever displayed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from apps.tenants.memory_parts import erasure_job_kinds
from apps.tenants.models import AuditEvent, Job, Tenant
from apps.tenants.settings_labels import LABELS

CONSOLE_ACTIONS = ("member.", "key.", "settings.")
MAX_FILTER_CHARS = 200
PAGE_SIZE = 100
PERIODS = {"1h": timedelta(hours=1), "24h": timedelta(days=1), "7d": timedelta(days=7)}


@dataclass(frozen=True)
class AuditFilter:
    actor: str = ""
    action: str = ""
    period: str = ""  # one of PERIODS, or everything

    @classmethod
    def from_query(cls, query) -> AuditFilter:
        period = query.get("period", "")
        return cls(
            actor=query.get("actor", "").strip()[:MAX_FILTER_CHARS],
            action=query.get("action", "").strip()[:MAX_FILTER_CHARS],
            period=period if period in PERIODS else "",
        )


def shown_details(event: AuditEvent) -> dict:
    details = event.details if isinstance(event.details, dict) else {}
    if event.action.startswith(CONSOLE_ACTIONS):
        return details
    return {
        k: v for k, v in details.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
    }


def plain_value(value) -> str:
    """A detail as a person reads it: a list as "a, b", not Python's "['a', 'b']"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain_value(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {plain_value(v)}" for k, v in value.items())
    return str(value)


def target_shown(event: AuditEvent) -> dict:
    """What the console's audit links the target to: a member (`user:`), an API key (`key:`),
    or a setting (by its label)."""
    target = event.target or ""
    if target.startswith("user:"):
        return {"target_user": target[5:]}
    if target.startswith("key:"):
        return {"target_key": target[4:]}
    if event.action.startswith("settings.") and target in LABELS:
        return {"target_setting": LABELS[target].label}
    return {}


def audit_events(
    *, tenant: Tenant, where: AuditFilter, now: datetime | None = None, limit: int = PAGE_SIZE
) -> list[dict]:
    events = AuditEvent.objects.filter(tenant=tenant)
    if where.actor:
        events = events.filter(actor__icontains=where.actor)
    if where.action:
        events = events.filter(action=where.action)
    if where.period:
        events = events.filter(at__gte=(now or timezone.now()) - PERIODS[where.period])
    return [
        {
            "at": e.at,
            "actor": e.actor,
            "actor_kind": e.actor_kind,
            "action": e.action,
            "target": e.target,
            **target_shown(e),
            "details": {k: plain_value(v) for k, v in shown_details(e).items()},
        }
        for e in events.order_by("-at")[:limit]
    ]


def audit_actions(*, tenant: Tenant) -> list[str]:
    return list(
        AuditEvent.objects.filter(tenant=tenant)
        .order_by("action")
        .values_list("action", flat=True)
        .distinct()
    )


def erasure_requests(*, tenant: Tenant, limit: int = PAGE_SIZE) -> list[dict]:
    """Each erasure job with who asked, when, its progress and outcome (never whom it erased)."""
    jobs = list(
        Job.objects.filter(tenant=tenant, kind__in=erasure_job_kinds()).order_by("-created_at")[
            :limit
        ]
    )
    return [
        {
            "uid": job.uid,
            "requested_by": job.actor,
            "requested_at": job.created_at,
            "scope": job.subject,
            "status": job.status,
            "done": job.progress.get("done", 0),
            "total": job.progress.get("total", 0),
            "finished_at": job.finished_at,
            "result": {k: v for k, v in job.result.items() if isinstance(v, (int, float))},
        }
        for job in jobs
    ]
