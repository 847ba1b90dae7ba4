"""The tenant's graph version and stamp. The version is a number that every write adding,
deleting or moving entities, relations or records raises in the same transaction. A kept answer
(apps/insights/kept_answers.py) is filed under the stamp and the version it was computed at, so
a change committed after it is never answered from before it (the stamp: at the end).

Called as one line from each write path: apps/resolution/entity_writes.py (entities, mentions
and relations of a chunk, a window or a facts request), apps/review/merges.py and unmerges.py,
apps/timeline/write_rule.py, apps/tenant_data/services/tenant_import.py and
apps/lessons/services/episodes.py (episodes ABOUT entities, the records of `groups`).

The version is the sum of a few counters (shards): a write raises one at random, as the last
query of its transaction (`ScopedTx.at_end`), so two writers of one tenant wait on each other
only when they pick the same shard, and then only while the first commits. (Taken where it was
asked, a window write held the one counter through its mentions and relations, and another
writer of the tenant waited for that commit: tests/insights/test_services.py.) The sum still
rises with every committed write.

It is the graph's (every memory app writes it, and the algorithms read it), so it lives in the
ground layer, below every app that raises it (docs/concepts/layers.md).
"""

from __future__ import annotations

import random

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope

SHARDS = 8
# The (tenant, shard) key is unique (apps/graph/nodes/entities.py), so racing MERGEs meet on one
# node. Nodes of the one-counter version before shards (no `shard`) still count in the sum.
VERSION_BUMP = """
MERGE (v:GraphVersion {tenant: $tenant, shard: $shard})
SET v.n = coalesce(v.n, 0) + 1
"""
VERSION = """
OPTIONAL MATCH (v:GraphVersion {tenant: $tenant})
RETURN coalesce(sum(v.n), 0) AS version
"""


def do_graph_version_bump(stx: ScopedTx) -> None:
    """Raise the tenant's graph version inside the caller's write transaction (commits or rolls
    back with it), after all of that transaction's other writes; once however often it is
    called in one transaction."""
    stx.at_end(VERSION_BUMP, shard=random.randrange(SHARDS))


def graph_version(scope: Scope) -> int:
    """The tenant's graph version now (0 before its first write)."""
    return cypher.read(scope, VERSION)[0]["version"]


# The graph's stamp (seed 001): one node per tenant with a random id, made with the tenant's
# graph. A kept answer is filed under the stamp and the version together. The version only
# rises while the stamp stays, so a graph deleted and made again (its counters start at 0 again)
# and a write that deletes (a late row replacing a NEXT link, forgetting a session) get a new
# id, and no answer filed before is given again.
STAMP_MAKE = """
MERGE (s:GraphStamp {tenant: $tenant})
ON CREATE SET s.id = randomUUID(), s.made_at = datetime()
RETURN s.id AS stamp
"""
STAMP_RENEW = """
MERGE (s:GraphStamp {tenant: $tenant})
ON CREATE SET s.made_at = datetime()
SET s.id = randomUUID(), s.renewed_at = datetime()
"""
STAMP_AND_VERSION = """
OPTIONAL MATCH (s:GraphStamp {tenant: $tenant})
WITH s.id AS stamp
OPTIONAL MATCH (v:GraphVersion {tenant: $tenant})
RETURN stamp, coalesce(sum(v.n), 0) AS version
"""


def graph_stamp_make(scope: Scope) -> str:
    """The tenant's stamp, made now if its graph has none (at the tenant's creation)."""
    return cypher.write(scope, STAMP_MAKE)[0]["stamp"]


def do_graph_stamp_renew(stx: ScopedTx) -> None:
    """Give the tenant's graph a new stamp in the caller's write transaction, after its other
    writes (for a query that deletes); once however often it is called in one transaction."""
    stx.at_end(STAMP_RENEW)


def graph_stamp_renew(scope: Scope) -> None:
    cypher.write_unit(scope, do_graph_stamp_renew)


def graph_stamp_and_version(scope: Scope) -> tuple[str, int]:
    """(stamp, version) of the tenant's graph in one read. A graph without a stamp (made before
    stamps, or emptied behind the application's back) gets one now: a new random id, so no
    answer kept for the graph that was there before is taken for this one."""
    stamp, version = graph_stamp_read(scope)
    return stamp or graph_stamp_make(scope), version


def graph_stamp_read(scope: Scope) -> tuple[str | None, int]:
    """(stamp or None, version), never writing."""
    row = cypher.read(scope, STAMP_AND_VERSION)[0]
    return row["stamp"], row["version"]


def graph_stamp(scope: Scope) -> str:
    return graph_stamp_and_version(scope)[0]
