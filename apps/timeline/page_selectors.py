"""Reads for the pages: an entity's timeline (States and relation windows) and its neighbourhood
as of a time. Each is a bounded read in one or two round trips."""

from __future__ import annotations

import datetime as dt

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.tenants.models import Job
from apps.timeline import selectors
from apps.timeline.entry_rows import JOB_KIND
from apps.timeline.rows import time_text

MAX_WINDOWS = 200
TIMELINE_STATES = 50

ENTITY = """
MATCH (e:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK e:Entity(uid)
RETURN e.kind AS kind, e.key AS key, e.name AS name
"""

# Every relation window of the entity, both ways, with whether it holds at $at.
WINDOWS = """
MATCH (e:Entity {tenant: $tenant, uid: $uid})-[r:RELATED_TO]-(x:Entity {tenant: $tenant})
WHERE r.valid_from IS NOT NULL AND (r.valid_to IS NULL OR r.valid_to > r.valid_from)
RETURN r.predicate AS relation, startNode(r) = e AS out, x.uid AS other_uid,
       coalesce(x.key, x.name) AS other, r.valid_from AS valid_from, r.valid_to AS valid_to,
       r.by AS by,
       (r.valid_from <= $at AND (r.valid_to IS NULL OR r.valid_to > $at)) AS holds
ORDER BY r.valid_from, relation, other LIMIT $limit
"""


def entity_timeline(scope: Scope, *, uid: str, at: dt.datetime | None) -> dict | None:
    """{kind, key, at, state (as of `at`), states (the last 50), windows}, or None for no entity.
    A text entity has no kind and no States; its relation windows are still shown."""
    found = cypher.read(scope, ENTITY, uid=uid)
    if not found:
        return None
    head = found[0]
    moment = at or dt.datetime.now(dt.UTC).replace(microsecond=0)
    windows = cypher.read(scope, WINDOWS, uid=uid, at=moment, limit=MAX_WINDOWS)
    for w in windows:
        w["valid_from"] = time_text(w["valid_from"].to_native())
        w["valid_to"] = w["valid_to"] and time_text(w["valid_to"].to_native())
    out = {"uid": uid, "kind": head["kind"], "key": head["key"], "at": time_text(moment),
           "asked": at is not None, "windows": windows, "states": [], "state": None}  # fmt: skip
    if head["kind"]:
        out["states"] = selectors.history(scope, kind=head["kind"], key=head["key"],
                                          last=TIMELINE_STATES)  # fmt: skip
        out["state"] = selectors.as_of(scope, kind=head["kind"], key=head["key"], at=moment)
    return out


def entry_row_jobs(scope: Scope, *, limit: int = 10) -> list[Job]:
    """The tenant's latest jobs of rows from entries, newest first."""
    jobs = Job.objects.filter(tenant__uid=scope.tenant, kind=JOB_KIND)
    return list(jobs.order_by("-created_at")[:limit])
