"""Handoffs: work passed from one agent to another, pointing at records, never copying them.

A handoff must point at something that exists. Giving it again under the same id changes nothing;
its receiver and what it points at cannot be replaced. Only the receiver accepts it, once: the
receiver is read and the handoff marked in one query.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.lessons.services.references import find_references, validate_key, validate_references
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

MAX_NOTE_CHARS = 2000

GIVE = """
MERGE (h:Handoff {tenant: $tenant, key: $key})
ON CREATE SET h.uid = randomUUID(), h.giver = $actor, h.receiver = $to, h.note = $note,
              h.status = 'given', h.created_at = datetime(), h._new = true
WITH h, coalesce(h._new, false) AS created
REMOVE h._new
RETURN created, h.giver AS giver, h.receiver AS receiver,
       [(h)-[:POINTS_TO]->(n) | n.uid] AS pointing
"""

LINK = """
MATCH (h:Handoff {tenant: $tenant, key: $key})
MERGE (g:Agent {tenant: $tenant, name: $actor})
ON CREATE SET g.uid = randomUUID(), g.created_at = datetime()
MERGE (r:Agent {tenant: $tenant, name: $to})
ON CREATE SET r.uid = randomUUID(), r.created_at = datetime()
CREATE (g)-[:GAVE]->(h), (h)-[:TO]->(r)
WITH h
CALL {
  WITH h
  UNWIND $targets AS t
  CALL {
    WITH t
    MATCH (n:Entry {tenant: $tenant, uid: t}) RETURN n
    UNION WITH t
    MATCH (n:Episode {tenant: $tenant, uid: t}) RETURN n
    UNION WITH t
    MATCH (n:Entity {tenant: $tenant, uid: t}) RETURN n
    UNION WITH t
    MATCH (n:Lesson {tenant: $tenant, uid: t}) RETURN n
    UNION WITH t
    MATCH (n:PlaybookVersion {tenant: $tenant, uid: t}) RETURN n
  }
  CREATE (h)-[:POINTS_TO {as_of: h.created_at}]->(n)
}
RETURN h.uid AS uid
"""

ACCEPT = """
MATCH (h:Handoff {tenant: $tenant, key: $key})
WITH h, h.receiver = $actor AND h.status = 'given' AS accepting
FOREACH (_ IN CASE WHEN accepting THEN [1] ELSE [] END |
  SET h.status = 'accepted', h.accepted_at = datetime(), h.accepted_by = $actor)
RETURN accepting, h.receiver AS receiver, h.status AS status
"""


@refusal_recorded("handoff")
def check_handoff_give(scope: Scope, *, key: str, to: str, points_to: list, note: str = "") -> dict:
    """Give work to agent `to`, pointing at entries, episodes, entities, lessons or playbooks."""
    validate_key(key, field="key")
    if not isinstance(to, str) or not 0 < len(to) <= 200:
        raise ApplicationError("to names the receiving agent.", field="to", limit=200)
    if not isinstance(note, str) or len(note) > MAX_NOTE_CHARS:
        raise ApplicationError("note is too long.", field="note", limit=MAX_NOTE_CHARS)
    refs = validate_references(points_to, field="points_to")
    if not refs:
        raise ApplicationError(
            "A handoff points at something that exists; text alone is refused.",
            field="points_to",
            limit=1,
        )

    def work(stx):
        found = find_references(stx, refs, field="points_to")
        targets = sorted({r["uid"] for r in found})
        row = stx.run(GIVE, key=key, actor=scope.actor, to=to, note=note)[0]
        if row["created"]:
            stx.run(LINK, key=key, actor=scope.actor, to=to, targets=targets)
            return {"id": key, "status": "given"}
        if row["receiver"] != to or sorted(row["pointing"]) != targets:
            raise ConflictError(
                "A handoff with this id exists; its receiver and pointers cannot be replaced.",
                field="key",
            )
        return {"id": key, "status": "unchanged"}

    return cypher.write_unit(scope, work)


@refusal_recorded("handoff_accept")
def check_handoff_accept(scope: Scope, *, key: str) -> dict:
    """Accept as the calling agent; another agent's handoff or a second accept is refused."""
    rows = cypher.write(scope, ACCEPT, key=key, actor=scope.actor)
    if not rows:
        raise NotFoundError("No such handoff.", field="handoff")
    row = rows[0]
    if row["accepting"]:
        return {"id": key, "status": "accepted"}
    if row["receiver"] != scope.actor:
        raise ApplicationError(
            "Only the receiver of a handoff can accept it.", code="not_receiver", status=403
        )
    raise ConflictError("This handoff was accepted already.")
