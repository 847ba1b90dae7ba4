"""How far the work of an agent held, from what the graph records (seed 001, trust in an agent):
the entries it wrote against those marked wrong; the closed episodes it wrote in that a lesson
rests on against those that contradict one; the playbook runs it recorded that succeeded against
those that failed; the versions it wrote that held at least a minute against those replaced
sooner. Each rate is smoothed as (for + 1) / (for + against + 2); the score is their mean over
the kinds of evidence the agent has (so a busy writer's many versions do not drown the rest),
or None without evidence."""

from __future__ import annotations

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
