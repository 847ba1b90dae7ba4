"""How far the work of an agent held, from what the graph records (seed 001, trust in an agent):
the entries it wrote against those marked wrong; the closed episodes it wrote in that a lesson
rests on against those that contradict one; the playbook runs it recorded that succeeded against
those that failed; the versions it wrote that held at least a minute against those replaced
sooner. Each rate is smoothed as (for + 1) / (for + against + 2); the score is their mean over
the kinds of evidence the agent has (so a busy writer's many versions do not drown the rest),
or None without evidence."""

from __future__ import annotations

import datetime as dt

from apps.graph import cypher
from apps.graph.scope import Scope

HELD_SECONDS = 60

COUNTS = """
CALL () {
  OPTIONAL MATCH (:Agent {tenant: $tenant, name: $agent})-[:WROTE]->(n:Entry)
  RETURN count(n) - count(n.invalid) AS entries_for, count(n.invalid) AS entries_against
}
CALL () {
  OPTIONAL MATCH (:Agent {tenant: $tenant, name: $agent})-[:WROTE]->(:Entry)<-[:HAS]-
                 (ep:Episode {status: 'closed'})
  WITH DISTINCT ep
  RETURN count(CASE WHEN EXISTS { (ep)<-[:SUPPORTED_BY]-(:Lesson) } THEN 1 END) AS episodes_for,
         count(CASE WHEN EXISTS { (ep)<-[:CONTRADICTED_BY]-(:Lesson) } THEN 1 END)
           AS episodes_against
}
CALL () {
  OPTIONAL MATCH (:Playbook {tenant: $tenant})-[r:RAN_IN {by: $agent}]->(:Episode)
  RETURN count(CASE WHEN r.succeeded THEN 1 END) AS runs_for,
         count(CASE WHEN r.succeeded = false THEN 1 END) AS runs_against
}
CALL () {
  OPTIONAL MATCH (s:State {tenant: $tenant, by: $agent})
  RETURN count(CASE WHEN s IS NOT NULL AND s.valid_to IS NULL
                      OR s.valid_to >= s.valid_from + duration({seconds: $held}) THEN 1 END)
           AS versions_for,
         count(CASE WHEN s.valid_to < s.valid_from + duration({seconds: $held}) THEN 1 END)
           AS versions_against
}
RETURN entries_for, entries_against, episodes_for, episodes_against, runs_for, runs_against,
       versions_for, versions_against
"""

EVIDENCE = ("entries", "episodes", "runs", "versions")


def agent_trust(scope: Scope, *, agent: str) -> dict:
    """{agent, score (None without evidence), rates: {kind: {for, against, rate}}}."""
    row = cypher.read(scope, COUNTS, agent=agent, held=HELD_SECONDS)[0]
    rates = {}
    for kind in EVIDENCE:
        pro, con = row[f"{kind}_for"], row[f"{kind}_against"]
        if pro + con:
            rates[kind] = {"for": pro, "against": con, "rate": (pro + 1) / (pro + con + 2)}
    score = sum(r["rate"] for r in rates.values()) / len(rates) if rates else None
    return {"agent": agent, "score": score, "rates": rates}


# Each kind of evidence: the items of the window one by one (their time and whether they held),
# and the items before it counted: [held, did not hold].
EVENTS = """
CALL () {
  OPTIONAL MATCH (:Agent {tenant: $tenant, name: $agent})-[:WROTE]->(n:Entry)
  WITH n, n.created_at AS at, n.invalid IS NULL AS held
  RETURN collect(CASE WHEN at >= $since THEN {kind: 'entries', at: at, held: held} END) AS e,
         [count(CASE WHEN at < $since AND held THEN 1 END),
          count(CASE WHEN at < $since AND NOT held THEN 1 END)] AS e0
}
CALL () {
  OPTIONAL MATCH (:Agent {tenant: $tenant, name: $agent})-[:WROTE]->(:Entry)<-[:HAS]-
                 (ep:Episode {status: 'closed'})
  WITH DISTINCT ep
  WITH ep.closed_at AS at, EXISTS { (ep)<-[:SUPPORTED_BY]-(:Lesson) } AS pro,
       EXISTS { (ep)<-[:CONTRADICTED_BY]-(:Lesson) } AS con
  RETURN collect(CASE WHEN at >= $since AND pro THEN {kind: 'episodes', at: at, held: true} END) +
         collect(CASE WHEN at >= $since AND con THEN {kind: 'episodes', at: at, held: false} END)
           AS p,
         [count(CASE WHEN at < $since AND pro THEN 1 END),
          count(CASE WHEN at < $since AND con THEN 1 END)] AS p0
}
CALL () {
  OPTIONAL MATCH (:Playbook {tenant: $tenant})-[r:RAN_IN {by: $agent}]->(:Episode)
  WHERE r.succeeded IS NOT NULL
  WITH r.at AS at, r.succeeded AS held
  RETURN collect(CASE WHEN at >= $since THEN {kind: 'runs', at: at, held: held} END) AS r,
         [count(CASE WHEN at < $since AND held THEN 1 END),
          count(CASE WHEN at < $since AND NOT held THEN 1 END)] AS r0
}
CALL () {
  OPTIONAL MATCH (s:State {tenant: $tenant, by: $agent})
  WITH s.valid_from AS at,
       s.valid_to IS NULL OR s.valid_to >= s.valid_from + duration({seconds: $held}) AS held
  RETURN collect(CASE WHEN at >= $since THEN {kind: 'versions', at: at, held: held} END) AS v,
         [count(CASE WHEN at < $since AND held THEN 1 END),
          count(CASE WHEN at < $since AND NOT held THEN 1 END)] AS v0
}
RETURN e + p + r + v AS events,
       {entries: e0, episodes: p0, runs: r0, versions: v0} AS before
"""
MAX_TRUST_DAYS = 365


def agent_trust_over_time(scope: Scope, *, agent: str, days: int = 30,
                          today: dt.date | None = None) -> list[dict]:  # fmt: skip
    """The agent's score at the end of each of the last `days` days (today last, equal to
    `agent_trust` now), from the evidence dated by when it was made (an entry by when it was
    written, an episode by when it closed, a run and a version by their own times), judged as
    the graph holds it now: an entry marked wrong today counts against on the day it was
    written. [{day, score, evidence}]; score None before the first evidence. One round trip:
    evidence older than the window comes counted, the window's one by one."""
    days = max(1, min(days, MAX_TRUST_DAYS))
    today = today or dt.datetime.now(dt.UTC).date()
    first = today - dt.timedelta(days=days - 1)
    since = dt.datetime(first.year, first.month, first.day, tzinfo=dt.UTC)
    found = cypher.read(scope, EVENTS, agent=agent, held=HELD_SECONDS, since=since)[0]
    events = found["events"]
    by_day: dict[dt.date, list[dict]] = {}
    for event in events:
        if event.get("at") is not None:
            day = event["at"].to_native().astimezone(dt.UTC).date()
            by_day.setdefault(day, []).append(event)
    counts = {kind: list(found["before"][kind]) for kind in EVIDENCE}
    out = []
    for i in range(days):
        day = first + dt.timedelta(days=i)
        for event in by_day.get(day, []):
            counts[event["kind"]][0 if event["held"] else 1] += 1
        rates = [(pro + 1) / (pro + con + 2) for pro, con in counts.values() if pro + con]
        out.append({"day": day.isoformat(), "evidence": sum(map(sum, counts.values())),
                    "score": sum(rates) / len(rates) if rates else None})  # fmt: skip
    return out
