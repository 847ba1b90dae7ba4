"""Versioned entities (seed 001, the write rule): kinds a tenant declares, and States.

(:Kind {tenant, name, spec}): a declared kind; `spec` is its JSON (key, values, relations).
(:Entity {kind, key, values_json, last_state})-[:HAS_STATE]->(:State): an entity of a kind holds
its current values; each State is one version, with `valid_from`, `valid_to` once replaced and
`seen_last` when a row repeated it later. (:State)-[:NEXT]->(:State) in time order;
(:State)-[:FROM]->(:Entry) the episode entry the row came from.
(:Entity)-[:RELATED_TO {predicate, valid_from, valid_to, by, recorded_at, kind_relation}]->(:Entity)
a relation of a kind, open while `valid_to` is null. Times are Neo4j DateTime in UTC, whole seconds.
"""

from neomodel import DateTimeProperty, StringProperty

from apps.graph.nodes.tenancy import TenantNode


class Kind(TenantNode):
    name = StringProperty(required=True)
    spec = StringProperty(required=True)  # JSON


class State(TenantNode):
    entity = StringProperty(required=True)  # the entity's uid
    kind = StringProperty(required=True)
    key = StringProperty(required=True)
    valid_from = DateTimeProperty(required=True)
    valid_to = DateTimeProperty()
    seen_last = DateTimeProperty()
    values_json = StringProperty(default="{}")
    relations_json = StringProperty(default="{}")
    by = StringProperty()
    entry = StringProperty()  # uid of the entry it came from
    words = StringProperty(default="")  # letters and digits of its text values, for the index
    recorded_at = DateTimeProperty()


SCHEMA = [
    "CREATE CONSTRAINT kind_name IF NOT EXISTS FOR (k:Kind) REQUIRE (k.tenant, k.name) IS UNIQUE",
    "CREATE CONSTRAINT entity_kind_key IF NOT EXISTS "
    "FOR (e:Entity) REQUIRE (e.tenant, e.kind, e.key) IS UNIQUE",
    # as_of and history(last=n) seek on this index: their cost does not grow with the history.
    "CREATE INDEX state_entity_from IF NOT EXISTS FOR (s:State) ON (s.tenant, s.entity, s.valid_from)",
    "CREATE INDEX state_from IF NOT EXISTS FOR (s:State) ON (s.tenant, s.valid_from)",
    "CREATE INDEX state_by IF NOT EXISTS FOR (s:State) ON (s.tenant, s.by)",
    "CREATE INDEX state_entry IF NOT EXISTS FOR (s:State) ON (s.tenant, s.entry)",
    # Windows of relations, for the difference between two times.
    "CREATE INDEX related_valid_from IF NOT EXISTS FOR ()-[r:RELATED_TO]-() ON (r.valid_from)",
    "CREATE INDEX related_valid_to IF NOT EXISTS FOR ()-[r:RELATED_TO]-() ON (r.valid_to)",
    "CREATE FULLTEXT INDEX state_words IF NOT EXISTS FOR (s:State) ON EACH [s.words, s.tenant]",
    # Meaning search over kinds' text values (apps/timeline/meaning.py): the entities whose text
    # waits for a vector carry the label KindTextToEmbed; the vector keeps its model's name and
    # the search filters by tenant, kind and model inside the index.
    "CREATE INDEX kind_text_waiting IF NOT EXISTS FOR (e:KindTextToEmbed) ON (e.tenant, e.kind)",
    "CYPHER 25 CREATE VECTOR INDEX kind_text_embedding IF NOT EXISTS FOR (e:Entity) "
    "ON e.text_vector WITH [e.tenant, e.kind, e.text_vector_model] "
    "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
]
