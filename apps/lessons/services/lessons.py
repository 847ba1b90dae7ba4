"""Lessons: what was learned from episodes that ended, weighed by the evidence.

weight = support - against + helped - failed. Each count is recomputed from the edges in the query
that MERGEs the edge, while the lesson's lock is held: concurrent agents lose no count, and an
episode given twice (or by eight agents at once) is one edge, so it counts once.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.lessons.services.references import find_references, validate_key, validate_references
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_recorded

MAX_STATEMENT_CHARS = 2000
MAX_EVIDENCE = 100

EPISODES = """
UNWIND $episodes AS uid
OPTIONAL MATCH (ep:Episode {tenant: $tenant, uid: uid}) USING INDEX SEEK ep:Episode(uid)
RETURN uid, ep.status AS status
"""

CREATE = """
MERGE (l:Lesson {tenant: $tenant, key: $key})
ON CREATE SET l.uid = randomUUID(), l.statement = $statement, l.by = $actor,
              l.created_at = datetime(), l.touched_at = datetime(),
              l.support = 0, l.against = 0, l.helped = 0, l.failed = 0, l.weight = 0, l._new = true
SET l._lock = true
WITH l, coalesce(l._new, false) AS created
REMOVE l._new
RETURN l.statement AS statement, created
"""

LOCK = """
MATCH (l:Lesson {tenant: $tenant, key: $key})
SET l._lock = true
WITH l
OPTIONAL MATCH (l)-[r:SUPPORTED_BY|CONTRADICTED_BY|USED_IN]->(ep:Episode)
WHERE ep.uid IN $episodes
RETURN l.uid AS uid, collect({episode: ep.uid, type: type(r)}) AS known
"""

# The edges and the counts in one query: a count is never changed without its edge.
EVIDENCE = """
MATCH (l:Lesson {tenant: $tenant, key: $key})
WITH l, l.support - l.against + l.helped - l.failed AS before,
     l.support + l.against + l.helped + l.failed AS seen
CALL {
  WITH l
  UNWIND $agree AS uid
  MATCH (ep:Episode {tenant: $tenant, uid: uid}) USING INDEX SEEK ep:Episode(uid)
  MERGE (l)-[r:SUPPORTED_BY]->(ep) ON CREATE SET r.at = datetime(), r.by = $actor
}
CALL {
  WITH l
  UNWIND $disagree AS uid
  MATCH (ep:Episode {tenant: $tenant, uid: uid}) USING INDEX SEEK ep:Episode(uid)
  MERGE (l)-[r:CONTRADICTED_BY]->(ep) ON CREATE SET r.at = datetime(), r.by = $actor
}
CALL {
  WITH l
  UNWIND $used AS use
  MATCH (ep:Episode {tenant: $tenant, uid: use.episode}) USING INDEX SEEK ep:Episode(uid)
  MERGE (l)-[r:USED_IN]->(ep) ON CREATE SET r.at = datetime(), r.by = $actor, r.helped = use.helped
}
SET l.support = COUNT { (l)-[:SUPPORTED_BY]->() },
    l.against = COUNT { (l)-[:CONTRADICTED_BY]->() },
    l.helped = COUNT { (l)-[:USED_IN {helped: true}]->() },
    l.failed = COUNT { (l)-[:USED_IN {helped: false}]->() }
SET l.weight = l.support - l.against + l.helped - l.failed
WITH l, before, seen, l.support + l.against + l.helped + l.failed AS now_seen
FOREACH (_ IN CASE WHEN now_seen > seen THEN [1] ELSE [] END | SET l.touched_at = datetime())
REMOVE l._lock
RETURN l.weight AS weight, now_seen > seen AS changed
"""


def _closed_episodes(stx: ScopedTx, episodes: list[str], *, field: str) -> None:
    rows = stx.run(EPISODES, episodes=episodes)
    missing = [r["uid"] for r in rows if r["status"] is None]
    if missing:
        raise ApplicationError(
            f"{field} names episodes that do not exist: {', '.join(missing[:10])}.",
            code="missing_reference",
            field=field,
        )
    still_open = [r["uid"] for r in rows if r["status"] != "closed"]
    if still_open:
        raise ApplicationError(
            f"Only an episode that ended is evidence; still open: {', '.join(still_open[:10])}.",
            code="episode_open",
            field=field,
        )


def _episode_ids(value, *, field: str, at_least: int) -> list[str]:
    refs = validate_references(
        [{"kind": "episode", "id": v} for v in (value or [])], field=field, kinds=("episode",)
    )
    if len(refs) < at_least:
        raise ApplicationError(
            f"{field} needs at least {at_least} episode(s) that ended.", field=field, limit=at_least
        )
    if len(refs) > MAX_EVIDENCE:
        raise ApplicationError(f"At most {MAX_EVIDENCE}.", field=field, limit=MAX_EVIDENCE)
    return [r["id"] for r in refs]


def do_lesson_evidence(
    stx: ScopedTx,
    scope: Scope,
    *,
    key: str,
    agree: list[str] = (),
    disagree: list[str] = (),
    used: list[dict] = (),
) -> dict:
    """Add evidence to a lesson whose lock the caller's transaction may take; refuses an episode
    that would count on both sides. Caller checked that the episodes exist and ended."""
    episodes = [*agree, *disagree, *(u["episode"] for u in used)]
    rows = stx.run(LOCK, key=key, episodes=episodes)
    if not rows:
        raise NotFoundError("No such lesson.", field="lesson")
    known = {(k["episode"], k["type"]) for k in rows[0]["known"] if k["episode"]}
    clash = [e for e in agree if (e, "CONTRADICTED_BY") in known] + [
        e for e in disagree if (e, "SUPPORTED_BY") in known
    ]
    if clash:
        raise ConflictError(
            f"An episode counts on one side only: {', '.join(clash[:10])}.", field="episode"
        )
    return stx.run(
        EVIDENCE,
        key=key,
        agree=list(agree),
        disagree=list(disagree),
        used=list(used),
        actor=scope.actor,
    )[0]


@refusal_recorded("lesson")
def check_lesson_learn(
    scope: Scope,
    *,
    key: str,
    statement: str,
    supported_by: list[str],
    about: list[str] | None = None,
) -> dict:
    """Learn a lesson from at least one episode that ended. Learning the same key again adds the
    episodes as support (each once); another statement under the same key is refused."""
    validate_key(key, field="key")
    if not isinstance(statement, str) or not statement.strip():
        raise ApplicationError("statement is required.", field="statement")
    if len(statement) > MAX_STATEMENT_CHARS:
        raise ApplicationError(
            "statement is too long.", field="statement", limit=MAX_STATEMENT_CHARS
        )
    episodes = _episode_ids(supported_by, field="supported_by", at_least=1)
    about_refs = validate_references(
        [{"kind": "entity", "id": u} for u in (about or [])], field="about", kinds=("entity",)
    )

    def work(stx):
        _closed_episodes(stx, episodes, field="supported_by")
        entities = find_references(stx, about_refs, field="about")
        row = stx.run(CREATE, key=key, statement=statement, actor=scope.actor)[0]
        if not row["created"] and row["statement"] != statement:
            raise ConflictError("A lesson with this key says something else.", field="key")
        stx.run(
            "MATCH (l:Lesson {tenant: $tenant, key: $key}) UNWIND $entities AS uid "
            "MATCH (e:Entity {tenant: $tenant, uid: uid}) MERGE (l)-[:ABOUT]->(e)",
            key=key,
            entities=[e["uid"] for e in entities],
        )
        result = do_lesson_evidence(stx, scope, key=key, agree=episodes)
        status = "learned" if row["created"] else ("weighed" if result["changed"] else "unchanged")
        return {"id": key, "status": status, "weight": result["weight"]}

    return cypher.write_unit(scope, work)


@refusal_recorded("lesson")
def check_lesson_weigh(
    scope: Scope,
    *,
    key: str,
    episode: str,
    agrees: bool | None = None,
    helped: bool | None = None,
) -> dict:
    """One episode for or against the lesson (`agrees`), or a use of it that helped or failed
    (`helped`). The episode must have ended; it counts once however often it is given."""
    if (agrees is None) == (helped is None):
        raise ApplicationError("Give either agrees or helped.", field="agrees")
    episodes = _episode_ids([episode], field="episode", at_least=1)

    def work(stx):
        _closed_episodes(stx, episodes, field="episode")
        if agrees is not None:
            kw = {"agree": episodes} if agrees else {"disagree": episodes}
        else:
            kw = {"used": [{"episode": episodes[0], "helped": bool(helped)}]}
        result = do_lesson_evidence(stx, scope, key=key, **kw)
        status = "weighed" if result["changed"] else "unchanged"
        return {"id": key, "status": status, "weight": result["weight"]}

    return cypher.write_unit(scope, work)
