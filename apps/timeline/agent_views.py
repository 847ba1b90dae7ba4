"""The page of an agent: how far its work held (apps/timeline/trust.py), now and over the last
days, as a server-side SVG bar plot with its numbers in a table (memoryproject/bar_plots.py)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.tenants.models import Role
from apps.tenants.roles import role_required
from apps.timeline.trust import MAX_TRUST_DAYS, agent_trust, agent_trust_over_time
from memoryproject.bar_plots import bar_plot

DAYS = 30
MAX_NAME_CHARS = 200


@require_GET
@role_required(Role.VIEWER)
def agent_page(request, name: str):
    name = name[:MAX_NAME_CHARS]
    text = request.GET.get("days", str(DAYS))
    days = int(text) if text.isdigit() and 1 <= int(text) <= MAX_TRUST_DAYS else DAYS
    trust = agent_trust(request.scope, agent=name)
    over_time = agent_trust_over_time(request.scope, agent=name, days=days)
    plot = bar_plot([d["day"][5:] for d in over_time],
                    {"trust": [round(d["score"] or 0, 3) for d in over_time]})  # fmt: skip
    for row, day in zip(plot["rows"], over_time, strict=True):
        row["values"] = [f"{day['score']:.3f}" if day["score"] is not None else "no evidence yet"]
    context = {"name": name, "trust": trust, "days": days, "plot": plot,
               "has_evidence": any(d["score"] is not None for d in over_time)}  # fmt: skip
    return render(request, "timeline/agent.html", context)
