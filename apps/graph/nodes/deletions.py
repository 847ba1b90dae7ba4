"""What deletions of a tenant share: the lock that serialises them where they meet."""

from neomodel import StringProperty

from apps.graph.nodes.tenancy import TenantNode


class DeletionLock(TenantNode):
    """One per tenant (apps/graph/deletion_lock.py): every step of a deletion takes its write
    lock first. `lock_key` is the tenant uid under a uniqueness constraint, so MERGE cannot make
    two."""

    lock_key = StringProperty(unique_index=True)
