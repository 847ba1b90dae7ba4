"""Entities: the graph's identities, with aliases and typed relations.

(:Entity)-[:RELATED_TO {predicate, confidence, weight, first_seen, last_seen, chunks}]->(:Entity)
(:Entity)-[:SAME_AS {status: pending|confirmed|rejected, score, signals, reason}]->(:Entity)
(:Entity)-[:NOT_SAME]->(:Entity) (both directions): a rejected pair, never proposed again.
(:EntityKey {tenant, type, norm})-[:KEY_OF]->(:Entity): which entity a normalized name of a type
names in a tenant. Unique per (tenant, type, norm); MERGE on it serializes concurrent writers
resolving the same new name. A merge by a reviewer moves KEY_OF to the surviving entity.
"""

from neomodel import ArrayProperty, DateTimeProperty, FloatProperty, StringProperty

from apps.graph.nodes.tenancy import TenantNode

# POLE+O: the entity types the resolution gate compares within.
ENTITY_TYPES = ("Person", "Organization", "Location", "Event", "Object")


class Entity(TenantNode):
    name = StringProperty(required=True)
    norm_name = StringProperty(index=True)
    type = StringProperty(required=True, choices={t: t for t in ENTITY_TYPES}, index=True)
    aliases = ArrayProperty(StringProperty(), default=list)
    norm_aliases = ArrayProperty(StringProperty(), default=list)
    description = StringProperty(default="")
    absorbed_descriptions = ArrayProperty(StringProperty())  # other sources' descriptions
    # Blocking keys (apps/resolution/blocking_keys.py): phonetic, acronym, identifier digests.
    name_keys = ArrayProperty(StringProperty())
    embedding = ArrayProperty(FloatProperty())  # name and description: blocking, search
    description_embedding = ArrayProperty(FloatProperty())  # the semantic signal
    status = StringProperty(default="active", index=True)  # active | merged
    updated_at = DateTimeProperty(default_now=True)


class EntityKey(TenantNode):
    type = StringProperty(required=True)
    norm = StringProperty(required=True)


# Vector and full-text searches filter inside the index (Neo4j 2026's filtered vector search,
# Lucene's required clauses), so a large tenant never crowds a small one out of its own hits.
FILTERED_BY = ["tenant", "type", "status"]
_VECTOR_OPTIONS = {"vector.quantization.enabled": False}
SCHEMA_OPTIONS = {
    "entity_embedding": _VECTOR_OPTIONS,
    "entity_description_embedding": _VECTOR_OPTIONS,
}
SCHEMA_PROPERTIES = {
    "entity_names": ["name", "aliases", "name_keys", *FILTERED_BY],
    "entity_embedding": ["embedding", *FILTERED_BY],
    "entity_description_embedding": ["description_embedding", *FILTERED_BY],
}

SCHEMA = [
    "CREATE CONSTRAINT entity_key_unique IF NOT EXISTS "
    "FOR (k:EntityKey) REQUIRE (k.tenant, k.type, k.norm) IS UNIQUE",
    # The shards of a tenant's graph version (apps/graph/graph_version.py).
    "CREATE CONSTRAINT graph_version_shard IF NOT EXISTS "
    "FOR (v:GraphVersion) REQUIRE (v.tenant, v.shard) IS UNIQUE",
    # The tenant's graph stamp, one a tenant (apps/graph/graph_version.py).
    "CREATE CONSTRAINT graph_stamp_tenant IF NOT EXISTS "
    "FOR (s:GraphStamp) REQUIRE s.tenant IS UNIQUE",
    "CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (e:Entity) "
    "ON EACH [e.name, e.aliases, e.name_keys, e.tenant, e.type, e.status]",
    "CYPHER 25 CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON e.embedding "
    "WITH [e.tenant, e.type, e.status] "
    "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
    "CYPHER 25 CREATE VECTOR INDEX entity_description_embedding IF NOT EXISTS "
    "FOR (e:Entity) ON e.description_embedding WITH [e.tenant, e.type, e.status] "
    "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
    "CREATE INDEX entity_tenant_norm IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.norm_name)",
    # A small tenant's entities of a type, ranked exactly (apps/resolution/meaning_search.py).
    "CREATE INDEX entity_tenant_type IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.type, e.status)",
]
