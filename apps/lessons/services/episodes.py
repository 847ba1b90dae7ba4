"""Episodes: what happened in one event, as entries numbered in write order.

An entry takes its number with one query that holds the episode's lock, so concurrent writers get
one order and no gaps; a refused entry rolls back and uses no number. The entry of type `outcome`
closes the episode; nothing reopens it and no entry is ever changed (there is no write for that).
"""

from __future__ import annotations

import re
import uuid

from apps.graph import cypher
from apps.graph.graph_version import do_graph_version_bump
from apps.graph.scope import Scope
from apps.lessons.services.entry_embedding import entries_embedding_queue
from apps.lessons.services.references import (
    find_references,
    validate_key,
    validate_references,
    validate_values,
)
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

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
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
UNWIND $entities AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid}) USING INDEX SEEK e:Entity(uid)
MERGE (ep)-[:ABOUT]->(e)
"""

# Writing a property first takes the episode's write lock, so the status and the number read
# after it are the committed ones of the writer before.
LOCK = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
SET ep._lock = true
RETURN ep.status AS status
"""

APPEND = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
SET ep.last_seq = ep.last_seq + 1
REMOVE ep._lock
MERGE (a:Agent {tenant: $tenant, name: $actor})
ON CREATE SET a.uid = randomUUID(), a.created_at = datetime()
CREATE (en:Entry {uid: randomUUID(), tenant: $tenant, episode: ep.uid, seq: ep.last_seq,
                  type: $type, text: $text, values: $values, by: $actor, created_at: datetime()})
CREATE (ep)-[:HAS]->(en), (a)-[:WROTE]->(en)
// An entry with text waits for its vector (apps/lessons/services/entry_embedding.py).
FOREACH (_ IN CASE WHEN trim($text) <> '' THEN [1] ELSE [] END | SET en:EntryToEmbed)
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
  MATCH (n:Entry {tenant: $tenant, uid: uid}) USING INDEX SEEK n:Entry(uid)
  CREATE (en)-[:CITES {as_of: en.created_at}]->(n)
}
CALL {
  WITH en
  UNWIND $cite_entities AS uid
  MATCH (n:Entity {tenant: $tenant, uid: uid}) USING INDEX SEEK n:Entity(uid)
  CREATE (en)-[:CITES {as_of: en.created_at, seen_updated_at: n.updated_at}]->(n)
}
CALL {
  WITH en
  UNWIND $cite_lessons AS uid
  MATCH (n:Lesson {tenant: $tenant, uid: uid}) USING INDEX SEEK n:Lesson(uid)
  CREATE (en)-[:CITES {as_of: en.created_at, weight: n.weight}]->(n)
}
CALL {
  WITH en
  UNWIND $cite_playbooks AS uid
  MATCH (n:PlaybookVersion {tenant: $tenant, uid: uid}) USING INDEX SEEK n:PlaybookVersion(uid)
  CREATE (en)-[:CITES {as_of: en.created_at}]->(n)
}
WITH ep, en
// The tenant's serial, taken last so its lock is held only while the commit lasts (see
// apps/lessons/services/entry_serials.py).
MERGE (c:EntrySerial {tenant: $tenant})
ON CREATE SET c.last = 0
SET c.last = c.last + 1
SET en.serial = c.last
RETURN en.uid AS id, en.seq AS seq, en.serial AS serial, ep.status AS episode_status
"""


@refusal_recorded("episode")
def check_episode_open(
    scope: Scope, *, key: str | None = None, title: str = "", about: list | None = None
) -> dict:
    """Open an episode about existing entities. With `key`, opening again is idempotent while the
    episode is open and refused once it is closed (an episode is never reopened)."""
    key = validate_key(key, field="key") if key is not None else uuid.uuid4().hex
    if not isinstance(title, str) or len(title) > MAX_TITLE_CHARS:
        raise ApplicationError("title is too long.", field="title", limit=MAX_TITLE_CHARS)
    refs = validate_references(
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
        do_graph_version_bump(stx)  # kept groups through records see it
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
    values_json = validate_values(values)
    refs = validate_references(cites or [], field="cites", kinds=CITABLE)

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

    receipt = cypher.write_unit(scope, work)
    if text.strip():
        entries_embedding_queue(scope.tenant)  # a worker embeds it, as messages are
    return receipt


def check_episode_close(
    scope: Scope, *, episode: str, outcome: dict, text: str = "", cites: list | None = None
) -> dict:
    """Close with the outcome entry (the last entry the episode will ever have)."""
    validate_values(outcome, field="outcome")
    return check_entry_record(
        scope, episode=episode, type=OUTCOME, text=text, values=outcome, cites=cites
    )
