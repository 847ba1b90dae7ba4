"""What relied on an entry that turned out wrong. An entry is never changed: it is marked wrong
(`invalid`, by whom, when, why), and the answer lists what rested on it: the States that came
from it, the lessons whose episodes left would no longer carry them (support left no more than
the episodes against), and the playbooks whose newest version would be drawn from fewer episodes
than the tenant's `playbook_needs`. An episode is left out once any of its entries is marked.

Only this module and agent trust read the mark; recall, lessons and playbooks still use a marked
entry: what to do about it is the application's (or a reviewer's) decision.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.timeline.rows import time_text
from memoryproject.api_errors import ApplicationError, NotFoundError, PermissionDeniedError
from memoryproject.json_values import stored_json_loads
from memoryproject.refusals import refusal_recorded

MAX_LISTED = 200
MAX_REASON_CHARS = 500

MARK = """
MATCH (n:Entry {tenant: $tenant, uid: $entry}) USING INDEX SEEK n:Entry(uid)
WITH n, n.invalid IS NOT NULL AS before
SET n.invalid = coalesce(n.invalid, true), n.invalidated_by = coalesce(n.invalidated_by, $actor),
    n.invalidated_at = coalesce(n.invalidated_at, datetime()),
    n.invalid_reason = coalesce(n.invalid_reason, $reason)
RETURN before
"""

STATES_FROM = """
MATCH (s:State {tenant: $tenant, entry: $entry})
RETURN s.uid AS state, s.kind AS kind, s.key AS key, s.valid_from AS valid_from,
       s.valid_to AS valid_to, s.by AS by
ORDER BY s.valid_from LIMIT $limit
"""

# Episodes with a marked entry no longer count for a lesson or a playbook.
LESSONS_AT_RISK = """
MATCH (n:Entry {tenant: $tenant, uid: $entry})<-[:HAS]-(ep:Episode)<-[:SUPPORTED_BY]-(l:Lesson)
WITH DISTINCT l
CALL (l) {
  MATCH (l)-[:SUPPORTED_BY]->(e:Episode)
  WHERE NOT EXISTS { (e)-[:HAS]->(:Entry {invalid: true}) }
  RETURN count(e) AS left
}
RETURN l.key AS key, l.statement AS statement, l.support AS support, l.against AS against,
       left, left <= l.against AS at_risk
ORDER BY l.key LIMIT $limit
"""

PLAYBOOKS_AT_RISK = """
MATCH (n:Entry {tenant: $tenant, uid: $entry})<-[:HAS]-(ep:Episode)
      <-[:DRAWN_FROM]-(v:PlaybookVersion)-[:VERSION_OF]->(p:Playbook)
WHERE v.version = p.version
WITH DISTINCT p, v
CALL (v) {
  MATCH (v)-[:DRAWN_FROM]->(e:Episode)
  WHERE NOT EXISTS { (e)-[:HAS]->(:Entry {invalid: true}) }
  RETURN count(e) AS left
}
RETURN p.key AS key, v.version AS version, left, left < $needs AS at_risk
ORDER BY p.key LIMIT $limit
"""

ENTRY = """
MATCH (n:Entry {tenant: $tenant, uid: $entry}) USING INDEX SEEK n:Entry(uid)
RETURN n.uid AS id, n.episode AS episode, n.seq AS seq, n.type AS type, n.by AS by,
       n.text AS text, n.values AS values, n.invalid IS NOT NULL AS invalid, n.invalidated_by AS invalidated_by,
       n.invalidated_at AS invalidated_at, n.invalid_reason AS reason
"""


def impact_of_entry(scope: Scope, *, entry: str) -> dict:
    """What rests on an entry: {entry, states, lessons, playbooks}; lessons and playbooks carry
    `at_risk` as if the entry (and every entry marked before) were wrong."""
    found = cypher.read(scope, ENTRY, entry=entry)
    if not found:
        raise NotFoundError("No such entry.", field="entry")
    head = found[0]
    head["values"] = stored_json_loads(head["values"] or "{}")
    if head["invalidated_at"] is not None:
        head["invalidated_at"] = time_text(head["invalidated_at"].to_native())
    states = cypher.read(scope, STATES_FROM, entry=entry, limit=MAX_LISTED)
    for state in states:
        for name in ("valid_from", "valid_to"):
            state[name] = state[name] and time_text(state[name].to_native())
    needs = int(scope.setting("playbook_needs"))
    lessons = cypher.read(scope, _as_if_marked(LESSONS_AT_RISK), entry=entry, limit=MAX_LISTED)
    playbooks = cypher.read(scope, _as_if_marked(PLAYBOOKS_AT_RISK), entry=entry, needs=needs,
                            limit=MAX_LISTED)  # fmt: skip
    return {"entry": head, "states": states, "lessons": lessons, "playbooks": playbooks}


def _as_if_marked(query: str) -> str:
    # The entry asked about counts as marked, whether it is yet or not.
    return query.replace(
        "NOT EXISTS { (e)-[:HAS]->(:Entry {invalid: true}) }",
        "NOT EXISTS { (e)-[:HAS]->(x:Entry) WHERE x.invalid = true OR x.uid = $entry }",
    )


STATE = """
MATCH (s:State {tenant: $tenant, uid: $state}) USING INDEX SEEK s:State(uid)
RETURN s.uid AS state, s.kind AS kind, s.key AS key, s.entity AS entity, s.valid_from AS valid_from,
       s.valid_to AS valid_to, s.by AS by, s.entry AS entry
"""

# The relation windows a State opened: its entity's kind relations that begin at its time.
OPENED_BY = """
MATCH (s:State {tenant: $tenant, uid: $state}) USING INDEX SEEK s:State(uid)
MATCH (e:Entity {tenant: $tenant, uid: s.entity})-[r:RELATED_TO]->(x:Entity {tenant: $tenant})
WHERE r.kind_relation AND r.valid_from.epochSeconds = s.valid_from.epochSeconds AND (r.valid_to IS NULL OR r.valid_to > r.valid_from)
RETURN r.predicate AS rel, coalesce(x.key, x.name) AS target, r.valid_to AS valid_to
ORDER BY rel, target LIMIT $limit
"""


def impact_of_state(scope: Scope, *, state: str) -> dict:
    """What rests on a State, examined like an entry: {state, relations, entry}: the relation
    windows it opened, and what rests on the entry it came from (None without one)."""
    found = cypher.read(scope, STATE, state=state)
    if not found:
        raise NotFoundError("No such State.", field="state")
    head = found[0]
    head.pop("entity")
    relations = cypher.read(scope, OPENED_BY, state=state, limit=MAX_LISTED)
    for item in [head, *relations]:
        for name in ("valid_from", "valid_to"):
            item[name] = item.get(name) and time_text(item[name].to_native())
    relations = [{k: v for k, v in r.items() if k != "valid_from"} for r in relations]
    entry = impact_of_entry(scope, entry=head["entry"]) if head["entry"] else None
    return {"state": head, "relations": relations, "entry": entry}


@refusal_recorded("invalidate")
def check_entry_invalidate(scope: Scope, *, entry: str, reason: str = "") -> dict:
    """Mark an entry wrong (reviewers and admins: the `review` permission). Marking it again
    changes nothing (`exists`). Returns {id, status, impact}."""
    if not scope.allows("review"):
        raise PermissionDeniedError("Marking an entry wrong needs the review permission.")
    if not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS:
        raise ApplicationError("reason is too long.", field="reason", limit=MAX_REASON_CHARS)
    rows = cypher.write(scope, MARK, entry=entry, actor=scope.actor, reason=reason or None)
    if not rows:
        raise NotFoundError("No such entry.", field="entry")
    status = "exists" if rows[0]["before"] else "invalidated"
    return {"id": entry, "status": status, "impact": impact_of_entry(scope, entry=entry)}
