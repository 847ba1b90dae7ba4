"""The gate's automatic merges, kept and re-scored: every merge the model decided leaves an
AutoMerge record (what the mention brought, the probability, each comparison's level and weight,
the model's version; written by entity_writes.ENTITY_ABSORB in the same transaction). After the
tenant's model changes (the learning job, or on demand), a job re-scores every past automatic
merge from its stored levels with the current model and merge threshold; one that no longer
reaches the threshold, or that the model would now forbid, becomes a suspect merge for review
(`apps/review/suspect_merges.py`).

The job is idempotent: each record remembers the model version and threshold it was last
checked against, and only a `done` record is ever turned suspect, so running it twice proposes
nothing twice.
"""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.ordered_uids import ordered_uid
from apps.graph.scope import Scope
from apps.resolution.comparisons import Compared
from apps.resolution.entity_values import values_dump
from apps.resolution.match_model import Scored, level_weight, match_score
from apps.resolution.tenant_model import match_model_current, model_version, tenant_params
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run

JOB_KIND = "auto_merges.rescore"
ACTOR = "system:match-model"
RIGHTS = frozenset({KeyScope.MEMORY_READ, KeyScope.REVIEW})
BATCH = 500
# A bound per job, not a sample: a tenant past it is checked further by the next run.
MAX_CHECKED = 200_000

UNCHECKED = """
MATCH (am:AutoMerge {tenant: $tenant, status: 'done'})
WHERE coalesce(am.checked, '') <> $checked
RETURN am.uid AS uid, am.evidence AS evidence, am.name_tf_bits AS tf_bits
ORDER BY am.created_at LIMIT $limit
"""

UNCHECKED_COUNT = """
MATCH (am:AutoMerge {tenant: $tenant, status: 'done'})
WHERE coalesce(am.checked, '') <> $checked
RETURN count(am) AS n
"""

# Only a record still `done` changes: one a reviewer decided meanwhile stays decided.
CHECKED_WRITE = """
UNWIND $rows AS r
MATCH (am:AutoMerge {tenant: $tenant, uid: r.uid}) USING INDEX SEEK am:AutoMerge(uid)
WHERE am.status = 'done'
SET am.checked = $checked, am.rescored_probability = r.probability,
    am.rescored_evidence = r.evidence, am.rescored_version = $version,
    am.status = CASE WHEN r.suspect THEN 'suspect' ELSE am.status END,
    am.suspected_at = CASE WHEN r.suspect THEN datetime() ELSE am.suspected_at END
RETURN count(CASE WHEN r.suspect THEN 1 END) AS suspect
"""


def auto_merge_record(candidate, norm: str, decision, claim, prov) -> dict:
    """The properties of the AutoMerge node for the gate's merge of `candidate` (its names but
    the normalized one, description, values) on `decision`'s best proposal."""
    from apps.resolution.signals import name_normalize

    best = decision.proposals[0]
    names = {}
    for surface in candidate.names:
        n = name_normalize(surface)
        if n and n != norm and n not in names:
            names[n] = surface
    name_part = next((p for p in best.scored.parts if p.compared.comparison == "name"), None)
    tf_bits = 0.0
    if name_part is not None and name_part.compared.level == "exact":
        params = tenant_params(claim.model_json)
        tf_bits = name_part.weight - level_weight(params, "name", "exact")
    return {
        "uid": ordered_uid(),
        "name": candidate.name,
        "type": candidate.type,
        "norm_name": norm,
        "aliases": list(names.values()),
        "norm_aliases": list(names),
        "description": candidate.description,
        "values_json": values_dump(candidate.values),
        "agent": prov.agent,
        "chunk_uid": prov.chunk_uid,
        "document_uid": prov.document_uid,
        "probability": round(best.probability, 6),
        "evidence": json.dumps(best.scored.as_dict()["parts"]),
        "name_tf_bits": round(tf_bits, 4),
        "model_version": model_version(claim.model_json),
        "reason": decision.reason[:4000],
    }


def evidence_rescored(evidence_json: str | None, params: dict, *, tf_bits: float = 0.0) -> Scored:
    """The same comparison levels scored with `params` (a level the model does not know
    counts nothing); the name's term-frequency bits as they were at the merge."""
    parts = json.loads(evidence_json) if evidence_json else []
    known = params["comparisons"]
    compared = [Compared(p["comparison"], p["level"], p.get("detail") or "") for p in parts
                if p["level"] in known.get(p["comparison"], {}).get("levels", {})]  # fmt: skip
    return match_score(compared, name_tf_bits=tf_bits, params=params)


def auto_merges_rescore(scope: Scope, *, progress=None) -> dict:
    """Re-score the tenant's past automatic merges with its current model and merge threshold;
    those below it (or now forbidden) become suspect. Returns how many were checked and
    turned suspect."""
    params, version = match_model_current(scope)
    merge_at = float(scope.setting("merge_threshold"))
    checked_key = f"{version}@{merge_at:g}"
    total = min(MAX_CHECKED, cypher.read(scope, UNCHECKED_COUNT, checked=checked_key)[0]["n"])
    checked = suspect = 0
    if progress:
        progress(done=0, total=total)
    while checked < total:
        rows = cypher.read(scope, UNCHECKED, checked=checked_key, limit=min(BATCH, total - checked))
        if not rows:
            break
        writes = []
        for row in rows:
            scored = evidence_rescored(row["evidence"], params, tf_bits=row["tf_bits"] or 0.0)
            writes.append({
                "uid": row["uid"],
                "probability": round(scored.probability, 6),
                "evidence": json.dumps(scored.as_dict()["parts"]),
                "suspect": scored.probability < merge_at or not scored.may_merge,
            })  # fmt: skip
        written = cypher.write(scope, CHECKED_WRITE, rows=writes, checked=checked_key,
                               version=version)  # fmt: skip
        suspect += written[0]["suspect"] if written else 0
        checked += len(rows)
        if progress:
            progress(done=checked, total=total)
    return {"checked": checked, "suspect": suspect, "model_version": version,
            "merge_threshold": merge_at}  # fmt: skip


def auto_merges_rescore_queue(scope: Scope) -> Job:
    """A re-scoring job for the scope's tenant, queued for a worker."""
    from apps.resolution import tasks

    job = job_create(scope, kind=JOB_KIND, subject="automatic merges")
    job_enqueue(job, tasks.auto_merges_rescore, job.uid)
    return job


def auto_merges_rescore_run(*, job_uid: str) -> dict | None:
    """What a worker does for one job."""
    return job_run(
        job_uid,
        lambda scope, progress: auto_merges_rescore(scope, progress=progress),
        actor=ACTOR,
        permissions=RIGHTS,
        audit="auto_merges.rescore",
    )
