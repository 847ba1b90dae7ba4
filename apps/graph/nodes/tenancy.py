"""What every graph node carries: a stable uid and the tenant it belongs to."""

from neomodel import DateTimeProperty, StringProperty, StructuredNode, UniqueIdProperty


class TenantNode(StructuredNode):
    """Abstract: every node of the graph belongs to exactly one tenant (Neo4j community has one
    database, so tenancy is a property on every node and a filter in every query)."""

    __abstract_node__ = True

    uid = UniqueIdProperty()
    tenant = StringProperty(required=True, index=True)
    created_at = DateTimeProperty(default_now=True)
