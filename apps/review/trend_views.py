"""The page "Review trends": the queue over time and the P(same) of the pairs waiting, drawn
as server-side SVG bars with their numbers in tables (memoryproject/bar_plots.py)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.review.trend_selectors import MAX_DAYS, review_trends
from apps.tenants.models import Role
from apps.tenants.roles import role_required
from memoryproject.bar_plots import bar_plot

DAYS = 30


@require_GET
@role_required(Role.VIEWER)
def trends_page(request):
    text = request.GET.get("days", str(DAYS))
    days = int(text) if text.isdigit() and 1 <= int(text) <= MAX_DAYS else DAYS
    trends = review_trends(request.scope, days=days)
    over_time = bar_plot(
        [d["day"][5:] for d in trends["days"]],
        {"proposed": [d["proposed"] for d in trends["days"]],
         "confirmed": [d["decided"] for d in trends["days"]],
         "rejected": [d["rejected"] for d in trends["days"]]},
    )  # fmt: skip
    histogram = bar_plot(
        [f"{b['low']:.1f}–{b['high']:.1f}" for b in trends["histogram"]],
        {"pending pairs": [b["pairs"] for b in trends["histogram"]]},
    )  # fmt: skip
    return render(request, "review/trends.html", {"trends": trends, "days": days,
                  "over_time": over_time, "histogram": histogram})  # fmt: skip
