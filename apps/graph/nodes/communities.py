"""Communities of the entity graph written by a refresh (apps/insights/communities.py):
(:Entity)-[:IN_COMMUNITY {rank, score}]->(:Community)-[:DRAWS_FROM {chunks}]->(:Document),
(:Community)-[:SUMMARISES]->(:Chunk) for the passages its summary quotes. Derived data: a
refresh replaces them, a document's deletion removes those drawing from it."""

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    FloatProperty,
    IntegerProperty,
    StringProperty,
)

from apps.graph.nodes.tenancy import TenantNode


class Community(TenantNode):
    run = StringProperty(required=True)  # the refresh that wrote it
    level = IntegerProperty(default=0)  # Leiden's final level (no intermediate levels kept)
    position = IntegerProperty()  # largest first
    size = IntegerProperty()
    name = StringProperty()
    summary = StringProperty()
    summary_source = StringProperty()  # "extractive" or "llm"
    relation_types = ArrayProperty(StringProperty())
    passages = IntegerProperty()
    complete = BooleanProperty(default=False)  # the refresh that wrote it finished
    embedding = ArrayProperty(FloatProperty())  # of the summary, for the global answer


SCHEMA = [
    "CREATE INDEX community_run IF NOT EXISTS FOR (c:Community) ON (c.tenant, c.run)",
]
