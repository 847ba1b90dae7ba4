"""The work graph (seed 000): tasks an agent plans and claims, and the evidence they produce.

(:Task)-[:SUBTASK_OF]->(:Task)       child -> parent
(:Task)-[:DEPENDS_ON]->(:Task)       dependent -> dependency
(:Task)-[:PRODUCED]->(:Evidence)     provenance
(:Task)-[:CLAIMED_BY {at, until, released_at}]->(:Agent)   every claim, kept
(:Evidence)-[:SUPERSEDES]->(:Evidence)                     synthesis -> sources
(:Evidence)-[:MENTIONS]->(:Entity)
(:PageStage {job, task_uid, seq, url, content})   a found page its ingest job has still to do
(:EvidenceUrl {url, claim})                        a page URL some ingest took
(:Task)-[:SIMILAR_TO {score}]->(:Task), (:Evidence)-[:SIMILAR_TO {score}]->(:Evidence):
    one edge per pair, from the smaller uid, read both ways.

Ready and claimable tasks are found through indexes, not scans: `ready_at` is set only while a
task is PENDING with every dependency DONE (`waiting` counts those that are not), and
`lease_until` only while it is ACTIVE under a claim.
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

TASK_STATUSES = ("PENDING", "ACTIVE", "DONE", "FAILED")
TERMINAL_STATUSES = ("DONE", "FAILED")


class Task(TenantNode):
    short_id = StringProperty(required=True)
    kind = StringProperty(default="default")
    description = StringProperty(required=True)
    embed_text = StringProperty()
    status = StringProperty(default="PENDING")
    result_summary = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    result_embedding = ArrayProperty(FloatProperty())
    waiting = IntegerProperty(default=0)
    ready_at = DateTimeProperty()
    lease_until = DateTimeProperty()
    owner = StringProperty()
    created_by = StringProperty()
    finished_at = DateTimeProperty()


class Evidence(TenantNode):
    short_id = StringProperty(required=True)
    task_uid = StringProperty(required=True)
    content = StringProperty(required=True)
    embed_text = StringProperty()
    source = StringProperty(required=True)
    url = StringProperty()
    content_hash = StringProperty()
    strength = FloatProperty(required=True)
    embedding = ArrayProperty(FloatProperty())
    page_embedding = ArrayProperty(FloatProperty())  # on a page's first chunk: the page's vector
    superseded = BooleanProperty(default=False)
    # True from the write until a SIMILAR_TO sync has seen it (a context call works out its
    # edges itself meanwhile: apps/tasks/context.py); bookkeeping, not the finding.
    similar_pending = BooleanProperty()
    created_by = StringProperty()


class PageStage(TenantNode):
    """A found page waiting for its ingest job (apps/tasks/services/page_ingest.py)."""

    job = StringProperty(required=True)
    task_uid = StringProperty(required=True)
    seq = IntegerProperty(required=True)
    url = StringProperty()
    source = StringProperty()
    content = StringProperty(required=True)


class EvidenceUrl(TenantNode):
    """A page URL taken by a page ingest, one per tenant and URL: two ingests of one URL at
    once meet on it (constraint `evidence_url_claim`) and the second skips the page."""

    url = StringProperty(required=True)
    claim = StringProperty()


SCHEMA_OPTIONS = {"evidence_embedding": {"vector.quantization.enabled": False}}
SCHEMA_PROPERTIES = {"evidence_embedding": ["embedding", "tenant"]}
SCHEMA = [
    "CREATE CONSTRAINT task_short_id IF NOT EXISTS "
    "FOR (t:Task) REQUIRE (t.tenant, t.short_id) IS UNIQUE",
    "CREATE CONSTRAINT evidence_short_id IF NOT EXISTS "
    "FOR (e:Evidence) REQUIRE (e.tenant, e.short_id) IS UNIQUE",
    # The ready set in age order, and the claim's two ways in: ready, or a lease run out.
    "CREATE INDEX task_ready IF NOT EXISTS FOR (t:Task) ON (t.tenant, t.ready_at)",
    "CREATE INDEX task_ready_kind IF NOT EXISTS FOR (t:Task) ON (t.tenant, t.kind, t.ready_at)",
    "CREATE INDEX task_lease_kind IF NOT EXISTS FOR (t:Task) ON (t.tenant, t.kind, t.lease_until)",
    "CREATE INDEX task_created IF NOT EXISTS FOR (t:Task) ON (t.tenant, t.created_at)",
    "CREATE CONSTRAINT evidence_url_claim IF NOT EXISTS "
    "FOR (u:EvidenceUrl) REQUIRE (u.tenant, u.url) IS UNIQUE",
    "CREATE INDEX page_stage_job IF NOT EXISTS FOR (s:PageStage) ON (s.tenant, s.job)",
    "CREATE INDEX evidence_url IF NOT EXISTS FOR (e:Evidence) ON (e.tenant, e.url)",
    "CREATE INDEX evidence_hash IF NOT EXISTS FOR (e:Evidence) ON (e.tenant, e.content_hash)",
    "CREATE INDEX evidence_task IF NOT EXISTS FOR (e:Evidence) ON (e.tenant, e.task_uid)",
    "CREATE INDEX evidence_similar_pending IF NOT EXISTS "
    "FOR (e:Evidence) ON (e.tenant, e.similar_pending)",
    "CYPHER 25 CREATE VECTOR INDEX evidence_embedding IF NOT EXISTS FOR (e:Evidence) "
    "ON e.embedding WITH [e.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
]
