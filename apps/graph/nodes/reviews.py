"""Reviewers' decisions on SAME_AS pairs: merges (with what is needed to undo them) and the lock
that serializes decisions within a tenant.

(:Merge {uid, tenant, same_as_uid, survivor_uid, merged_uid, actor, status: done|undone, record})
(:Entity {status: 'merged'})-[:MERGED_INTO {merge_uid}]->(:Entity): the tombstone's forward.
Edges a merge moved carry `moved_by: <merge uid>` until the merge is undone.
(:MatchModel {tenant, model_key, params_json}): the tenant's match model, learned from decisions.
(:AutoMerge {uid, tenant, entity_uid, status: done|suspect|kept|undone, ...}): the gate's automatic
merge of a mention into an entity, with the evidence and model it merged on (suspect_merges).
(:ClusterDecision {uid, tenant, cluster_id, decision, members, status: done|undone, record}): one
decision on a cluster of pending pairs, with the merges and NOT_SAMEs it made (cluster_decisions).
"""

from neomodel import ArrayProperty, DateTimeProperty, FloatProperty, StringProperty

from apps.graph.nodes.tenancy import TenantNode


class Merge(TenantNode):
    same_as_uid = StringProperty(index=True)
    survivor_uid = StringProperty(index=True)
    merged_uid = StringProperty(index=True)
    survivor_name = StringProperty()
    merged_name = StringProperty()
    actor = StringProperty()
    status = StringProperty(default="done")  # done | undone
    score = FloatProperty()
    signals = StringProperty()
    # JSON: each comparison's level and weight when the pair was proposed (what learning reads).
    evidence = StringProperty()
    reason = StringProperty()
    # JSON: the merged side's names, the survivor's names before, dropped and combined edges.
    record = StringProperty()
    undone_by = StringProperty()
    undone_at = DateTimeProperty()


class ClusterDecision(TenantNode):
    """A reviewer's accept, split or reject of a cluster: `record` (JSON) names the merges, the
    NOT_SAMEs and the pairs it made, so one undo takes all of it back."""

    cluster_id = StringProperty(index=True)
    decision = StringProperty()  # accept | split | reject
    members = ArrayProperty(StringProperty())
    actor = StringProperty()
    status = StringProperty(default="done")  # done | undone
    record = StringProperty()
    undone_by = StringProperty()
    undone_at = DateTimeProperty()


class ReviewLock(TenantNode):
    """One per tenant: every decision takes its write lock first, so two reviewers deciding at
    once are serialized and the second sees the first's outcome. `lock_key` is the tenant uid
    under a uniqueness constraint, so MERGE cannot make two."""

    lock_key = StringProperty(unique_index=True)


class MatchModel(TenantNode):
    """One per tenant, once its reviewers decided pairs: the match model's parameters learned
    from their decisions (`params_json`, the shipped defaults' shape; none means the defaults).
    `model_key` is the tenant uid under a uniqueness constraint, so MERGE cannot make two."""

    model_key = StringProperty(unique_index=True)
    params_json = StringProperty()
    confirmed = FloatProperty()
    rejected = FloatProperty()
    learned_at = DateTimeProperty()


class AutoMerge(TenantNode):
    """The gate merged a mention into `entity_uid` on its own (no reviewer): what the mention
    brought (name, aliases, description, values), what the entity was before, the probability,
    each comparison's level and weight, and the model's version. Re-scored when the model
    changes; below the merge threshold it becomes a suspect merge a reviewer keeps or undoes.
    Mentions written by it carry `moved_by: [<its uid>]`, so an undo moves them back."""

    entity_uid = StringProperty(index=True)
    status = StringProperty(default="done")  # done | suspect | kept | undone
    probability = FloatProperty()
    evidence = StringProperty()
    model_version = StringProperty()
    rescored_probability = FloatProperty()
    rescored_evidence = StringProperty()
    rescored_version = StringProperty()


SCHEMA = [
    "CREATE INDEX same_as_tenant_status IF NOT EXISTS "
    "FOR ()-[s:SAME_AS]-() ON (s.tenant, s.status)",
    "CREATE INDEX same_as_uid IF NOT EXISTS FOR ()-[s:SAME_AS]-() ON (s.uid)",
    "CREATE INDEX merge_tenant_created IF NOT EXISTS FOR (m:Merge) ON (m.tenant, m.created_at)",
    "CREATE INDEX auto_merge_tenant_status IF NOT EXISTS FOR (m:AutoMerge) ON (m.tenant, m.status)",
]
