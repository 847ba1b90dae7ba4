"""`{{ value|when }}`: a time as people read it ("5 minutes ago"), the exact time on hover.

A builtin of every template (settings.TEMPLATES), so each page shows times the same way. Values
come as datetimes from the ORM, as ISO strings from the graph, or as the driver's own DateTime.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.timesince import timesince, timeuntil

register = template.Library()
JUST_NOW = timedelta(seconds=60)  # timesince says "0 minutes" below a minute


def as_datetime(value) -> datetime | None:
    if value is None or value == "":
        return None
    if hasattr(value, "to_native"):  # neo4j.time.DateTime
        value = value.to_native()
    if isinstance(value, (int, float)):  # epoch seconds
        return datetime.fromtimestamp(value, tz=UTC)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    if not isinstance(value, datetime):
        return None
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def relative(moment: datetime, now: datetime) -> str:
    gap = now - moment
    if abs(gap) < JUST_NOW:
        return "just now"
    if gap > timedelta(0):
        return f"{timesince(moment, now, depth=1)} ago"
    return f"in {timeuntil(moment, now, depth=1)}"


@register.filter(name="when")
def when(value):
    """A <time> element: relative text, the ISO instant in `datetime`, the exact UTC in `title`."""
    moment = as_datetime(value)
    if moment is None:
        return value if value not in (None, "") else "—"
    moment = moment.astimezone(UTC)
    exact = moment.strftime("%Y-%m-%d %H:%M:%S UTC")
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        moment.isoformat(),
        exact,
        relative(moment, timezone.now()),
    )
