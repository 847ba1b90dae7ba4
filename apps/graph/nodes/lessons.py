"""Episodes, entries, lessons, playbooks, handoffs and promoted knowledge.

(:Agent)-[:WROTE]->(:Entry)<-[:HAS]-(:Episode)-[:ABOUT]->(:Entity)
(:Entry)-[:NEXT]->(:Entry), (:Entry)-[:CITES {as_of}]->(:Entry|:Entity|:Lesson|:PlaybookVersion)
(:Lesson)-[:SUPPORTED_BY|CONTRADICTED_BY]->(:Episode), (:Lesson)-[:USED_IN {helped}]->(:Episode)
(:PlaybookVersion)-[:VERSION_OF]->(:Playbook), (:PlaybookVersion)-[:DRAWN_FROM]->(:Episode),
(:Playbook)-[:RAN_IN {succeeded, version}]->(:Episode)
(:Agent)-[:GAVE]->(:Handoff)-[:TO]->(:Agent), (:Handoff)-[:POINTS_TO {as_of}]->(anything above)
(:PromotionCandidate)-[:SHOWN_BY {agrees}]->(:Episode): what a rule saw, each episode once.
(:PromotionRule {name, version, spec, active}): a rule a tenant declared, every version kept;
(:PromotionRuleHead {name, last}) numbers them.
(:Knowledge)-[:FACT {relation, weight, confidence, nuance, heat, obs}]->(:Knowledge): seed 002.
(:KnowledgeChain {user, sid, promoted_no}): how far each conversation chain was promoted.
(:EntrySerial {tenant, last}): the tenant's last entry serial; every Entry takes the next one in
the query that stores it. (:ExtractionMark {tenant, kind, serial}): how far rows of a kind were
read from entries (apps/timeline/entry_rows.py), (:Entry)-[:READ_FOR {kind, at, rows}]->(mark).
(:EntryToEmbed): extra label of an entry with text still without a vector (a worker embeds it).
"""

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateTimeProperty,
    FloatProperty,
    IntegerProperty,
    StringProperty,
)

from apps.graph.nodes.tenancy import TenantNode


class Agent(TenantNode):
    name = StringProperty(required=True)


class Episode(TenantNode):
    key = StringProperty()
    title = StringProperty(default="")
    status = StringProperty(default="open", index=True)  # open | closed
    last_seq = IntegerProperty(default=0)
    opened_by = StringProperty()
    closed_at = DateTimeProperty()


class Entry(TenantNode):
    episode = StringProperty(required=True)
    seq = IntegerProperty(required=True)
    serial = IntegerProperty()  # the tenant's order of entries (EntrySerial)
    type = StringProperty(required=True)
    text = StringProperty(default="")
    values = StringProperty(default="{}")  # JSON
    by = StringProperty()


class Lesson(TenantNode):
    key = StringProperty(required=True)
    statement = StringProperty(required=True)
    support = IntegerProperty(default=0)
    against = IntegerProperty(default=0)
    helped = IntegerProperty(default=0)
    failed = IntegerProperty(default=0)
    weight = IntegerProperty(default=0, index=True)
    touched_at = DateTimeProperty(index=True)


class Playbook(TenantNode):
    key = StringProperty(required=True)
    version = IntegerProperty(default=0)
    enabled = BooleanProperty(default=True, index=True)
    failures_in_row = IntegerProperty(default=0)
    switched_by = StringProperty()
    switched_at = DateTimeProperty()


class PlaybookVersion(TenantNode):
    key = StringProperty(required=True)
    version = IntegerProperty(required=True)
    trigger = StringProperty(required=True)  # JSON
    trigger_terms = ArrayProperty(StringProperty())
    steps = StringProperty(required=True)  # JSON


class Handoff(TenantNode):
    key = StringProperty(required=True)
    giver = StringProperty(required=True)
    receiver = StringProperty(required=True, index=True)
    status = StringProperty(default="given")  # given | accepted
    accepted_at = DateTimeProperty()


class PromotionCandidate(TenantNode):
    rule = StringProperty(required=True)
    claim = StringProperty(required=True)  # lesson:<key> | playbook:<key>:<signature>


class PromotionRule(TenantNode):
    name = StringProperty(required=True)
    version = IntegerProperty(required=True)
    spec = StringProperty(required=True)  # the rule as JSON (apps/lessons/services/declared_rules)
    active = BooleanProperty(default=False)
    by = StringProperty()


class PromotionRuleHead(TenantNode):
    name = StringProperty(required=True)
    last = IntegerProperty(default=0)


class Knowledge(TenantNode):
    user = StringProperty(required=True)
    label = StringProperty(required=True)  # Identities | Tools | Projects | Concepts
    key = StringProperty(required=True)
    name = StringProperty()
    last_seen = DateTimeProperty()


class KnowledgeChain(TenantNode):
    user = StringProperty(required=True)
    sid = StringProperty(required=True)
    promoted_no = IntegerProperty(default=0)
    heat = FloatProperty(default=0.0)


SCHEMA_PROPERTIES = {"knowledge_names": ["name", "tenant", "user"]}

SCHEMA = [
    "CREATE CONSTRAINT agent_name IF NOT EXISTS FOR (a:Agent) REQUIRE (a.tenant, a.name) IS UNIQUE",
    "CREATE CONSTRAINT episode_key IF NOT EXISTS FOR (e:Episode) REQUIRE (e.tenant, e.key) IS UNIQUE",
    "CREATE CONSTRAINT entry_seq IF NOT EXISTS "
    "FOR (e:Entry) REQUIRE (e.tenant, e.episode, e.seq) IS UNIQUE",
    "CREATE CONSTRAINT entry_serial IF NOT EXISTS "
    "FOR (e:Entry) REQUIRE (e.tenant, e.serial) IS UNIQUE",
    "CREATE CONSTRAINT entry_serial_counter IF NOT EXISTS "
    "FOR (c:EntrySerial) REQUIRE c.tenant IS UNIQUE",
    "CREATE CONSTRAINT extraction_mark IF NOT EXISTS "
    "FOR (m:ExtractionMark) REQUIRE (m.tenant, m.kind) IS UNIQUE",
    "CREATE CONSTRAINT lesson_key IF NOT EXISTS FOR (l:Lesson) REQUIRE (l.tenant, l.key) IS UNIQUE",
    "CREATE CONSTRAINT playbook_key IF NOT EXISTS "
    "FOR (p:Playbook) REQUIRE (p.tenant, p.key) IS UNIQUE",
    "CREATE CONSTRAINT playbook_version_key IF NOT EXISTS "
    "FOR (v:PlaybookVersion) REQUIRE (v.tenant, v.key, v.version) IS UNIQUE",
    "CREATE CONSTRAINT handoff_key IF NOT EXISTS FOR (h:Handoff) REQUIRE (h.tenant, h.key) IS UNIQUE",
    "CREATE CONSTRAINT promotion_candidate_key IF NOT EXISTS "
    "FOR (c:PromotionCandidate) REQUIRE (c.tenant, c.rule, c.claim) IS UNIQUE",
    "CREATE CONSTRAINT promotion_rule_version IF NOT EXISTS "
    "FOR (r:PromotionRule) REQUIRE (r.tenant, r.name, r.version) IS UNIQUE",
    "CREATE CONSTRAINT promotion_rule_head IF NOT EXISTS "
    "FOR (h:PromotionRuleHead) REQUIRE (h.tenant, h.name) IS UNIQUE",
    "CREATE CONSTRAINT knowledge_key IF NOT EXISTS "
    "FOR (k:Knowledge) REQUIRE (k.tenant, k.user, k.label, k.key) IS UNIQUE",
    "CREATE CONSTRAINT knowledge_chain_key IF NOT EXISTS "
    "FOR (c:KnowledgeChain) REQUIRE (c.tenant, c.user, c.sid) IS UNIQUE",
    # The tenant and user are required clauses of its queries (fulltext.scoped_query): Lucene
    # keeps to one user's nodes before it ranks and cuts, so other tenants cannot crowd them out.
    "CREATE FULLTEXT INDEX knowledge_names IF NOT EXISTS FOR (k:Knowledge) "
    "ON EACH [k.name, k.tenant, k.user]",
    # One search (apps/search) finds entries by words; the tenant is a required clause.
    "CREATE FULLTEXT INDEX entry_text IF NOT EXISTS FOR (e:Entry) ON EACH [e.text, e.tenant]",
    "CREATE INDEX knowledge_user IF NOT EXISTS FOR (k:Knowledge) ON (k.tenant, k.user)",
    "CREATE INDEX entry_to_embed IF NOT EXISTS FOR (e:EntryToEmbed) ON (e.tenant)",
    # Entries by meaning, filtered by tenant inside the index (apps/lessons/entry_selectors.py).
    "CYPHER 25 CREATE VECTOR INDEX entry_embedding IF NOT EXISTS FOR (e:Entry) ON e.embedding "
    "WITH [e.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
]
