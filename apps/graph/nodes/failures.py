"""Refused writes, recorded and bounded: the same refusal is counted on one node."""

from neomodel import DateTimeProperty, IntegerProperty, StringProperty

from apps.graph.nodes.tenancy import TenantNode


class WriteFailure(TenantNode):
    kind = StringProperty(required=True)
    reason = StringProperty(required=True)  # at most 2,000 characters
    fingerprint = StringProperty(required=True)  # tenant-scoped key of the refusal
    actor = StringProperty()
    count = IntegerProperty(default=1)
    last_at = DateTimeProperty(default_now=True)


SCHEMA = [
    "CREATE CONSTRAINT write_failure_key IF NOT EXISTS "
    "FOR (f:WriteFailure) REQUIRE (f.tenant, f.fingerprint) IS UNIQUE",
]
