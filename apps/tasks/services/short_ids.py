"""Short ids of the work graph (`t-a3f1` for tasks, `e-7c0b` for evidence), unique per tenant
across both labels, and the one way task and evidence writes run with them.

A short id is the shortest free prefix of the node's uid (like git's short hashes), the whole
uid at last. Two writers may pick the same free one at once: the constraints `task_short_id` and
`evidence_short_id` refuse the second, whose whole transaction then runs again and finds it
taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from neo4j.exceptions import ConstraintError

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope

RETRIES = 3
T = TypeVar("T")

SHORT_ID_FREE = """
UNWIND range(0, size($candidates) - 1) AS i
WITH i, $candidates[i] AS c
WHERE NOT EXISTS { MATCH (x:Task {tenant: $tenant, short_id: c}) }
  AND NOT EXISTS { MATCH (x:Evidence {tenant: $tenant, short_id: c}) }
RETURN c ORDER BY i LIMIT 1
"""


def short_id_candidates(prefix: str, uid: str) -> list[str]:
    """`t-a3f1`, longer when taken, the whole uid at last."""
    return [f"{prefix}-{uid[:n]}" for n in (4, 5, 6, 7, 8, 10, 12, 16)] + [f"{prefix}-{uid}"]


def do_short_id_pick(stx: ScopedTx, *, prefix: str, uid: str) -> str:
    """The first free short id of `uid` in the tenant, inside the caller's transaction."""
    return stx.run(SHORT_ID_FREE, candidates=short_id_candidates(prefix, uid))[0]["c"]


def short_id_write(scope: Scope, work: Callable[[ScopedTx], T]) -> T:
    """`work` in one write transaction, run again (fresh uids are its own to make) when a
    short id it picked was taken by a writer that committed first."""
    for _ in range(RETRIES):
        try:
            return cypher.write_unit(scope, work)
        except ConstraintError:
            continue
    return cypher.write_unit(scope, work)
