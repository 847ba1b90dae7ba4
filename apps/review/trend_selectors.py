"""The review queue over time, for the page "Review trends": pairs proposed and decided per day,
and the P(same) of the pairs waiting. One round trip; pairs are found through the SAME_AS
(tenant, status) index and the days through the relations' own times."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from apps.graph import cypher
from apps.graph.scope import Scope

BUCKETS = 10  # P(same) in tenths
MAX_DAYS = 365

TRENDS = """
CALL () {
  MATCH ()-[s:SAME_AS]->() USING INDEX SEEK s:SAME_AS(tenant, status)
  WHERE s.tenant = $tenant AND s.status = 'pending'
  RETURN collect(s.score) AS scores
}
CALL () {
  MATCH ()-[s:SAME_AS]->() USING INDEX SEEK s:SAME_AS(tenant, status)
  WHERE s.tenant = $tenant AND s.status IS NOT NULL
    AND (s.created_at >= $since OR s.decided_at >= $since)
  RETURN collect({created: date(s.created_at), decided: date(s.decided_at),
                  status: s.status}) AS pairs
}
RETURN scores, pairs
"""


def review_trends(scope: Scope, *, days: int = 30, today: date | None = None) -> dict:
    """{days: [{day, proposed, decided, rejected}] for the last `days` days (today last),
    histogram: [{low, high, pairs}] of the pending pairs' P(same), pending}."""
    days = max(1, min(days, MAX_DAYS))
    today = today or datetime.now(UTC).date()
    first = today - timedelta(days=days - 1)
    since = datetime(first.year, first.month, first.day, tzinfo=UTC)
    row = cypher.read(scope, TRENDS, since=since)[0]
    by_day = {first + timedelta(days=i): {"proposed": 0, "decided": 0, "rejected": 0}
              for i in range(days)}  # fmt: skip
    for pair in row["pairs"]:
        created = pair["created"] and pair["created"].to_native()
        decided = pair["decided"] and pair["decided"].to_native()
        if created in by_day:
            by_day[created]["proposed"] += 1
        if decided in by_day and pair["status"] != "pending":
            by_day[decided]["rejected" if pair["status"] == "rejected" else "decided"] += 1
    counts = [0] * BUCKETS
    for score in row["scores"]:
        if score is not None:
            counts[min(int(score * BUCKETS), BUCKETS - 1)] += 1
    return {
        "days": [{"day": d.isoformat(), **c} for d, c in by_day.items()],
        "histogram": [{"low": i / BUCKETS, "high": (i + 1) / BUCKETS, "pairs": n}
                      for i, n in enumerate(counts)],
        "pending": len(row["scores"]),
    }  # fmt: skip
