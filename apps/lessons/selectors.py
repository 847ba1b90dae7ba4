"""Reads of episodes, lessons, playbooks and handoffs: one Cypher round trip each, the tenant's
only. The writes are in `apps.lessons.services`, one module per family."""

from __future__ import annotations

from datetime import datetime

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.lessons.services.playbooks import trigger_terms
from memoryproject.json_values import stored_json_loads, validate_json_object

# --- episodes ---------------------------------------------------------------------------------

EPISODE = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
OPTIONAL MATCH (ep)-[:ABOUT]->(e:Entity)
WITH ep, collect({id: e.uid, name: e.name, type: e.type}) AS about
OPTIONAL MATCH (ep)-[:HAS]->(en:Entry)
OPTIONAL MATCH (en)-[c:CITES]->(n)
WITH ep, about, en, collect(CASE WHEN n IS NULL THEN null ELSE {
  kind: CASE WHEN n:Entry THEN 'entry' WHEN n:Entity THEN 'entity'
             WHEN n:Lesson THEN 'lesson' ELSE 'playbook' END,
  id: CASE WHEN n:Lesson THEN n.key WHEN n:PlaybookVersion THEN n.key + '#' + toString(n.version)
           ELSE n.uid END,
  label: coalesce(n.name, n.statement, n.type + ' #' + toString(n.seq), n.key),
  as_of: toString(c.as_of)} END) AS cites
ORDER BY en.seq
WITH ep, about, collect(CASE WHEN en IS NULL THEN null ELSE {
  id: en.uid, seq: en.seq, type: en.type, text: en.text, values: en.values, by: en.by,
  at: toString(en.created_at), cites: cites} END) AS entries
RETURN ep.uid AS id, ep.key AS key, ep.title AS title, ep.status AS status,
       ep.opened_by AS opened_by, toString(ep.created_at) AS opened_at,
       toString(ep.closed_at) AS closed_at, ep.outcome AS outcome,
       [a IN about WHERE a.id IS NOT NULL] AS about, entries
"""

EPISODES_ABOUT = """
MATCH (e:Entity {tenant: $tenant, uid: $entity})<-[:ABOUT]-(ep:Episode)
RETURN ep.uid AS id, ep.key AS key, ep.title AS title, ep.status AS status,
       toString(ep.created_at) AS opened_at, toString(ep.closed_at) AS closed_at,
       ep.outcome AS outcome
ORDER BY ep.created_at DESC LIMIT $limit
"""

EPISODE_LIST = """
MATCH (ep:Episode {tenant: $tenant})
WHERE $status IS NULL OR ep.status = $status
RETURN ep.uid AS id, ep.key AS key, ep.title AS title, ep.status AS status,
       ep.last_seq AS entries, toString(ep.created_at) AS opened_at,
       toString(ep.closed_at) AS closed_at, ep.outcome AS outcome
ORDER BY ep.created_at DESC LIMIT $limit
"""


def _outcome(row: dict) -> dict:
    row["outcome"] = stored_json_loads(row["outcome"]) if row.get("outcome") else None
    return row


def episode_get(scope: Scope, *, episode: str) -> dict | None:
    """The episode with its entries in order, each with what it cites."""
    rows = cypher.read(scope, EPISODE, episode=episode)
    if not rows:
        return None
    row = _outcome(rows[0])
    for entry in row["entries"]:
        entry["values"] = stored_json_loads(entry["values"] or "{}")
        entry["cites"] = [c for c in entry["cites"] if c is not None]
    return row


def episodes_about(scope: Scope, *, entity: str, limit: int = 50) -> list[dict]:
    """Episodes about one entity, the newest first, with their outcome once closed."""
    return [_outcome(r) for r in cypher.read(scope, EPISODES_ABOUT, entity=entity, limit=limit)]


def episodes_list(scope: Scope, *, status: str | None = None, limit: int = 50) -> list[dict]:
    return [_outcome(r) for r in cypher.read(scope, EPISODE_LIST, status=status, limit=limit)]


# --- lessons ----------------------------------------------------------------------------------

LESSON_LIST = """
MATCH (l:Lesson {tenant: $tenant})
WHERE l.weight >= $at_least AND ($since IS NULL OR l.touched_at >= datetime($since))
  AND ($about IS NULL OR EXISTS { (l)-[:ABOUT]->(:Entity {tenant: $tenant, uid: $about}) })
RETURN l.key AS id, l.statement AS statement, l.weight AS weight, l.support AS support,
       l.against AS against, l.helped AS helped, l.failed AS failed,
       toString(l.touched_at) AS touched_at
ORDER BY l.weight DESC, l.touched_at DESC LIMIT $limit
"""

LESSON = """
MATCH (l:Lesson {tenant: $tenant, key: $key})
OPTIONAL MATCH (l)-[r:SUPPORTED_BY|CONTRADICTED_BY|USED_IN]->(ep:Episode)
WITH l, r, ep ORDER BY r.at
WITH l, collect(CASE WHEN ep IS NULL THEN null ELSE {
  episode: ep.uid, title: ep.title, at: toString(r.at), by: r.by,
  side: CASE type(r) WHEN 'SUPPORTED_BY' THEN 'for' WHEN 'CONTRADICTED_BY' THEN 'against'
        ELSE CASE WHEN r.helped THEN 'helped' ELSE 'failed' END END} END) AS evidence
OPTIONAL MATCH (l)-[:ABOUT]->(e:Entity)
RETURN l.key AS id, l.statement AS statement, l.weight AS weight, l.support AS support,
       l.against AS against, l.helped AS helped, l.failed AS failed, l.by AS by,
       toString(l.created_at) AS created_at, toString(l.touched_at) AS touched_at,
       evidence, collect({id: e.uid, name: e.name}) AS about
"""


def lessons_list(
    scope: Scope,
    *,
    about: str | None = None,
    at_least: int | None = None,
    since: datetime | None = None,
    limit: int = 50,
) -> list[dict]:
    """Lessons at or above the threshold (tenant setting `lesson_threshold`), heaviest first;
    `since` leaves out lessons that no episode supported, contradicted or used since then."""
    threshold = at_least if at_least is not None else scope.setting("lesson_threshold")
    return cypher.read(
        scope,
        LESSON_LIST,
        at_least=threshold,
        since=since.isoformat() if since else None,
        about=about,
        limit=limit,
    )


def lesson_get(scope: Scope, *, key: str) -> dict | None:
    rows = cypher.read(scope, LESSON, key=key)
    if not rows:
        return None
    row = rows[0]
    row["about"] = [a for a in row["about"] if a["id"]]
    return row


# --- playbooks --------------------------------------------------------------------------------

PLAYBOOKS_FOR = """
MATCH (p:Playbook {tenant: $tenant, enabled: true})
MATCH (v:PlaybookVersion {tenant: $tenant, key: p.key, version: p.version})
WHERE all(t IN v.trigger_terms WHERE t IN $terms)
RETURN p.key AS key, v.version AS version, v.trigger AS trigger, v.steps AS steps
ORDER BY size(v.trigger_terms) DESC, p.key LIMIT $limit
"""

PLAYBOOK_LIST = """
MATCH (p:Playbook {tenant: $tenant})
OPTIONAL MATCH (v:PlaybookVersion {tenant: $tenant, key: p.key, version: p.version})
RETURN p.key AS key, p.version AS version, p.enabled AS enabled,
       p.failures_in_row AS failures_in_row, p.switched_by AS switched_by,
       toString(p.switched_at) AS switched_at, v.trigger AS trigger, v.steps AS steps,
       COUNT { (p)-[:RAN_IN]->() } AS runs
ORDER BY p.key LIMIT $limit
"""

PLAYBOOK = """
MATCH (p:Playbook {tenant: $tenant, key: $key})
CALL {
  WITH p
  MATCH (v:PlaybookVersion)-[:VERSION_OF]->(p)
  OPTIONAL MATCH (v)-[:DRAWN_FROM]->(ep:Episode)
  WITH v, collect(ep.uid) AS episodes ORDER BY v.version DESC
  RETURN collect({version: v.version, trigger: v.trigger, steps: v.steps, by: v.by,
                  at: toString(v.created_at), episodes: episodes}) AS versions
}
CALL {
  WITH p
  OPTIONAL MATCH (p)-[r:RAN_IN]->(ep:Episode)
  WITH r, ep ORDER BY r.at DESC
  RETURN collect(CASE WHEN ep IS NULL THEN null ELSE {episode: ep.uid, title: ep.title,
         succeeded: r.succeeded, version: r.version, by: r.by, at: toString(r.at)} END) AS runs
}
RETURN p.key AS key, p.version AS version, p.enabled AS enabled,
       p.failures_in_row AS failures_in_row, p.switched_by AS switched_by,
       toString(p.switched_at) AS switched_at, p.switch_reason AS switch_reason,
       versions, runs
"""


def _decoded(row: dict) -> dict:
    for name in ("trigger", "steps"):
        if row.get(name):
            row[name] = stored_json_loads(row[name])
    return row


def playbooks_for(scope: Scope, *, situation: dict, limit: int = 20) -> list[dict]:
    """Switched-on playbooks whose every trigger value is in the situation, with its type."""
    validate_json_object(situation, field="situation")
    rows = cypher.read(scope, PLAYBOOKS_FOR, terms=trigger_terms(situation), limit=limit)
    return [_decoded(r) | {"id": f"{r['key']}#{r['version']}"} for r in rows]


def playbooks_list(scope: Scope, *, limit: int = 100) -> list[dict]:
    return [_decoded(r) for r in cypher.read(scope, PLAYBOOK_LIST, limit=limit)]


def playbook_get(scope: Scope, *, key: str) -> dict | None:
    rows = cypher.read(scope, PLAYBOOK, key=key)
    if not rows:
        return None
    row = rows[0]
    row["versions"] = [_decoded(v) for v in row["versions"]]
    row["runs"] = [r for r in row["runs"] if r]
    return row


# --- handoffs ---------------------------------------------------------------------------------

HANDOFFS_FOR = """
MATCH (h:Handoff {tenant: $tenant})
WHERE ($agent IS NULL OR h.receiver = $agent OR h.giver = $agent)
  AND ($status IS NULL OR h.status = $status)
OPTIONAL MATCH (h)-[:POINTS_TO]->(n)
WITH h, collect(CASE WHEN n IS NULL THEN null ELSE {
  kind: CASE WHEN n:Entry THEN 'entry' WHEN n:Episode THEN 'episode' WHEN n:Entity THEN 'entity'
             WHEN n:Lesson THEN 'lesson' ELSE 'playbook' END,
  id: CASE WHEN n:Lesson THEN n.key WHEN n:PlaybookVersion THEN n.key + '#' + toString(n.version)
           ELSE n.uid END,
  label: coalesce(n.name, n.title, n.statement, n.type, n.key)} END) AS points_to
RETURN h.key AS id, h.giver AS giver, h.receiver AS receiver, h.note AS note,
       h.status AS status, toString(h.created_at) AS given_at,
       toString(h.accepted_at) AS accepted_at, points_to
ORDER BY h.created_at DESC LIMIT $limit
"""


def handoffs_for(
    scope: Scope, *, agent: str | None = None, status: str | None = None, limit: int = 100
) -> list[dict]:
    """Handoffs given to or by `agent` (all when None), newest first, with references back in
    the form they were given, so what is read can be cited."""
    rows = cypher.read(scope, HANDOFFS_FOR, agent=agent, status=status, limit=limit)
    for row in rows:
        row["points_to"] = sorted(
            (p for p in row["points_to"] if p), key=lambda p: (p["kind"], p["id"])
        )
    return rows


# --- promotion rules a tenant declared (apps/lessons/services/promotion_rules.py) -------------

RULES = """
MATCH (r:PromotionRule {tenant: $tenant, active: true})
RETURN r.name AS name, r.version AS version, r.spec AS spec, r.by AS by,
       toString(r.created_at) AS created_at,
       COUNT { MATCH (v:PromotionRule {tenant: $tenant, name: r.name}) } AS versions
ORDER BY r.name LIMIT $limit
"""

RULE_VERSIONS = """
MATCH (r:PromotionRule {tenant: $tenant, name: $name})
RETURN r.version AS version, r.active AS active, r.spec AS spec, r.by AS by,
       toString(r.created_at) AS created_at
ORDER BY r.version DESC LIMIT $limit
"""


def promotion_rules_list(scope: Scope, *, limit: int = 100) -> list[dict]:
    """The active version of every rule the tenant declared, by name."""
    rows = cypher.read(scope, RULES, limit=limit)
    for row in rows:
        row["rule"] = stored_json_loads(row.pop("spec"))
    return rows


def promotion_rule_versions(scope: Scope, *, name: str, limit: int = 100) -> dict | None:
    """A declared rule with its versions, the newest first; `active` marks the one in use."""
    rows = cypher.read(scope, RULE_VERSIONS, name=name, limit=limit)
    if not rows:
        return None
    for row in rows:
        row["rule"] = stored_json_loads(row.pop("spec"))
    active = next((r["version"] for r in rows if r["active"]), None)
    return {"name": name, "active": active, "versions": rows}
