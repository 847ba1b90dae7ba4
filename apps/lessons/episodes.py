"""Episodes: what happened in one event, as entries numbered in write order.

An entry takes its number with one query that holds the episode's lock, so concurrent writers get
one order and no gaps; a refused entry rolls back and uses no number. The entry of type `outcome`
closes the episode; nothing reopens it and no entry is ever changed (there is no write for that).
"""

from __future__ import annotations

import json
import re
import uuid

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.lessons.references import check_key, check_references, check_values, find_references
from apps.lessons.refusals import refusal_recorded
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError

OUTCOME = "outcome"
TYPE_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_TEXT_CHARS = 10_000
MAX_TITLE_CHARS = 300
CITABLE = ("entry", "entity", "lesson", "playbook")

OPEN = """
MERGE (ep:Episode {tenant: $tenant, key: $key})
ON CREATE SET ep.uid = randomUUID(), ep.title = $title, ep.status = 'open', ep.last_seq = 0,
              ep.opened_by = $actor, ep.created_at = datetime(), ep._new = true
WITH ep, coalesce(ep._new, false) AS created
REMOVE ep._new
RETURN ep.uid AS uid, ep.status AS status, created
"""

ABOUT = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode})
UNWIND $entities AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid})
MERGE (ep)-[:ABOUT]->(e)
"""

# Writing a property first takes the episode's write lock, so the status and the number read
# after it are the committed ones of the writer before.
LOCK = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode})
SET ep._lock = true
RETURN ep.status AS status
"""

APPEND = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode})
SET ep.last_seq = ep.last_seq + 1
REMOVE ep._lock
MERGE (a:Agent {tenant: $tenant, name: $actor})
ON CREATE SET a.uid = randomUUID(), a.created_at = datetime()
CREATE (en:Entry {uid: randomUUID(), tenant: $tenant, episode: ep.uid, seq: ep.last_seq,
                  type: $type, text: $text, values: $values, by: $actor, created_at: datetime()})
CREATE (ep)-[:HAS]->(en), (a)-[:WROTE]->(en)
FOREACH (_ IN CASE WHEN $type = 'outcome' THEN [1] ELSE [] END |
  SET ep.status = 'closed', ep.closed_at = en.created_at, ep.outcome = $values)
WITH ep, en
CALL {
  WITH en
  MATCH (prev:Entry {tenant: $tenant, episode: en.episode, seq: en.seq - 1})
  CREATE (prev)-[:NEXT]->(en)
}
CALL {
  WITH en
  UNWIND $cite_entries AS uid
  MATCH (n:Entry {tenant: $tenant, uid: uid})
  CREATE (en)-[:CITES {as_of: en.created_at}]->(n)
}
CALL {
  WITH en
  UNWIND $cite_entities AS uid
  MATCH (n:Entity {tenant: $tenant, uid: uid})
  CREATE (en)-[:CITES {as_of: en.created_at, seen_updated_at: n.updated_at}]->(n)
}
CALL {
  WITH en
  UNWIND $cite_lessons AS uid
  MATCH (n:Lesson {tenant: $tenant, uid: uid})
  CREATE (en)-[:CITES {as_of: en.created_at, weight: n.weight}]->(n)
}
CALL {
  WITH en
  UNWIND $cite_playbooks AS uid
  MATCH (n:PlaybookVersion {tenant: $tenant, uid: uid})
  CREATE (en)-[:CITES {as_of: en.created_at}]->(n)
}
RETURN en.uid AS id, en.seq AS seq, ep.status AS episode_status
"""


@refusal_recorded("episode")
def check_episode_open(
    scope: Scope, *, key: str | None = None, title: str = "", about: list | None = None
) -> dict:
    """Open an episode about existing entities. With `key`, opening again is idempotent while the
    episode is open and refused once it is closed (an episode is never reopened)."""
    key = check_key(key, field="key") if key is not None else uuid.uuid4().hex
    if not isinstance(title, str) or len(title) > MAX_TITLE_CHARS:
        raise ApplicationError("title is too long.", field="title", limit=MAX_TITLE_CHARS)
    refs = check_references(
        [{"kind": "entity", "id": uid} for uid in (about or [])], field="about", kinds=("entity",)
    )

    def work(stx):
        found = find_references(stx, refs, field="about")
        row = stx.run(OPEN, key=key, title=title, actor=scope.actor)[0]
        if not row["created"]:
            if row["status"] != "open":
                raise ConflictError("This episode is closed; it cannot be reopened.", field="key")
            return {"id": row["uid"], "key": key, "status": "exists"}
        stx.run(ABOUT, episode=row["uid"], entities=[r["uid"] for r in found])
        return {"id": row["uid"], "key": key, "status": "opened"}

    return cypher.write_unit(scope, work)


@refusal_recorded("entry")
def check_entry_record(
    scope: Scope,
    *,
    episode: str,
    type: str,
    text: str = "",
    values: dict | None = None,
    cites: list | None = None,
) -> dict:
    """Append one entry; its citations (earlier entries, entities, lessons, playbooks) must exist.
    Type `outcome` closes the episode. Returns {id, seq, status}."""
    if not isinstance(type, str) or not TYPE_PATTERN.match(type):
        raise ApplicationError("type is a lowercase word of at most 40.", field="type", limit=40)
    if not isinstance(text, str) or len(text) > MAX_TEXT_CHARS:
        raise ApplicationError("text is too long.", field="text", limit=MAX_TEXT_CHARS)
    values_json = check_values(values)
    refs = check_references(cites or [], field="cites", kinds=CITABLE)

    def work(stx):
        rows = stx.run(LOCK, episode=episode)
        if not rows:
            raise NotFoundError("No such episode.", field="episode")
        if rows[0]["status"] != "open":
            raise ConflictError("This episode is closed; no entry can be added.", field="episode")
        found = find_references(stx, refs, field="cites")
        by_kind = {k: [r["uid"] for r in found if r["kind"] == k] for k in CITABLE}
        row = stx.run(
            APPEND,
            episode=episode,
            actor=scope.actor,
            type=type,
            text=text,
            values=values_json,
            cite_entries=by_kind["entry"],
            cite_entities=by_kind["entity"],
            cite_lessons=by_kind["lesson"],
            cite_playbooks=by_kind["playbook"],
        )[0]
        status = "closed" if row["episode_status"] == "closed" else "recorded"
        return {"id": row["id"], "seq": row["seq"], "status": status}

    return cypher.write_unit(scope, work)


def check_episode_close(
    scope: Scope, *, episode: str, outcome: dict, text: str = "", cites: list | None = None
) -> dict:
    """Close with the outcome entry (the last entry the episode will ever have)."""
    check_values(outcome, field="outcome")
    return check_entry_record(
        scope, episode=episode, type=OUTCOME, text=text, values=outcome, cites=cites
    )


# --- reads ------------------------------------------------------------------------------------

EPISODE = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode})
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

ABOUT_ENTITY = """
MATCH (e:Entity {tenant: $tenant, uid: $entity})<-[:ABOUT]-(ep:Episode)
RETURN ep.uid AS id, ep.key AS key, ep.title AS title, ep.status AS status,
       toString(ep.created_at) AS opened_at, toString(ep.closed_at) AS closed_at,
       ep.outcome AS outcome
ORDER BY ep.created_at DESC LIMIT $limit
"""

LIST = """
MATCH (ep:Episode {tenant: $tenant})
WHERE $status IS NULL OR ep.status = $status
RETURN ep.uid AS id, ep.key AS key, ep.title AS title, ep.status AS status,
       ep.last_seq AS entries, toString(ep.created_at) AS opened_at,
       toString(ep.closed_at) AS closed_at, ep.outcome AS outcome
ORDER BY ep.created_at DESC LIMIT $limit
"""


def _outcome(row: dict) -> dict:
    row["outcome"] = json.loads(row["outcome"]) if row.get("outcome") else None
    return row


def episode_get(scope: Scope, *, episode: str) -> dict | None:
    """The episode with its entries in order, each with what it cites."""
    rows = cypher.read(scope, EPISODE, episode=episode)
    if not rows:
        return None
    row = _outcome(rows[0])
    for entry in row["entries"]:
        entry["values"] = json.loads(entry["values"] or "{}")
        entry["cites"] = [c for c in entry["cites"] if c is not None]
    return row


def episodes_about(scope: Scope, *, entity: str, limit: int = 50) -> list[dict]:
    """Episodes about one entity, the newest first, with their outcome once closed."""
    return [_outcome(r) for r in cypher.read(scope, ABOUT_ENTITY, entity=entity, limit=limit)]


def episodes_list(scope: Scope, *, status: str | None = None, limit: int = 50) -> list[dict]:
    return [_outcome(r) for r in cypher.read(scope, LIST, status=status, limit=limit)]
