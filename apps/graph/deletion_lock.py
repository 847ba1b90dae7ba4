"""The tenant's deletion lock. Every transaction of a deletion that reads what to delete and
deletes it (a document's steps, a conversation erasure's steps, the promoted facts those take
back) takes it first, so two deletions that meet on the same entities never decide on what the
other has not committed yet: their steps run one at a time, each seeing the others' done.
Writers that only add (ingestion, facts, messages) never take it, and no one takes it after
another tenant-wide lock, so it joins no deadlock cycle."""

from __future__ import annotations

from apps.graph.cypher import ScopedTx

# The (tenant) key is unique (apps/graph/nodes/deletions.py), so racing MERGEs meet on one node;
# setting and removing a property takes its write lock and changes nothing.
DELETION_LOCK = """
MERGE (l:DeletionLock {lock_key: $tenant})
ON CREATE SET l.uid = randomUUID(), l.tenant = $tenant, l.created_at = datetime()
SET l._lock = true
REMOVE l._lock
"""


def do_deletion_lock(stx: ScopedTx) -> None:
    """Take the tenant's deletion lock in the caller's write transaction, before it reads what
    to delete; it is held until that transaction commits or rolls back."""
    stx.run(DELETION_LOCK)
