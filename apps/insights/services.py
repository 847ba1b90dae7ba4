"""The one write of this app: the tenant's graph version, a number that every write adding,
deleting or moving entities, relations or records raises in the same transaction. A kept answer
(apps/insights/kept_answers.py) is filed under the version it was computed at, so a change
committed after it is never answered from before it.

Called as one line from each write path: apps/resolution/entity_writes.py (entities, mentions
and relations of a chunk or a facts request), apps/review/merges.py and unmerges.py, and
apps/lessons/services/episodes.py (episodes ABOUT entities, the records of `groups`).
"""

from __future__ import annotations

from apps.graph.cypher import ScopedTx

# A MERGE racing another may make two nodes; every one of them is raised and the version is
# their sum, so it still only grows. Raised last in its transaction: held the shortest time.
VERSION_BUMP = """
MERGE (v:GraphVersion {tenant: $tenant})
SET v.n = coalesce(v.n, 0) + 1
"""


def do_graph_version_bump(stx: ScopedTx) -> None:
    """Raise the tenant's graph version inside the caller's write transaction (commits or rolls
    back with it). Call it after the graph writes of that transaction."""
    stx.run(VERSION_BUMP)
