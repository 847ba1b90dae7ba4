"""The tenant's own match model: learned in a background job from its reviewers' confirmed and
rejected pairs (`model_learning`), stored on the tenant's MatchModel node, and read by the gate
with the name key (gate.KEY_CLAIM), so every decision uses the tenant's latest model.

The job runs on demand (API, review permission) and after every `model_learn_every` decisions
(the review lock counts them). It reads every decided pair once, so it is idempotent: running
it twice learns the same model.
"""

from __future__ import annotations

import functools
import hashlib
import json

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.match_model import level_weight, model_params
from apps.resolution.model_learning import evidence_levels, params_learned, weight_changes
from apps.tenants.models import Job, KeyScope
from apps.tenants.services import job_create, job_enqueue, job_run

JOB_KIND = "match_model.learn"
ACTOR = "system:match-model"
RIGHTS = frozenset({KeyScope.MEMORY_READ, KeyScope.MEMORY_WRITE, KeyScope.REVIEW})
# Decided pairs read per job, newest first (a bound, not a sample: a tenant past it learns from
# its latest decisions).
MAX_DECISIONS = 20_000

# Confirmed pairs are the merges that stand (an undone merge is not counted either way; the
# gate's own merge of a pending pair on new evidence is no reviewer's and not counted);
# rejected pairs are the SAME_AS a reviewer closed. Both carry the evidence they were proposed on.
DECISIONS = """
CALL () {
  MATCH (m:Merge {tenant: $tenant})
  WHERE m.status = 'done' AND m.evidence IS NOT NULL AND m.automatic IS NULL
  RETURN m.evidence AS evidence, true AS same, m.created_at AS at
  UNION ALL
  MATCH ()-[s:SAME_AS]->()
  USING INDEX SEEK s:SAME_AS(tenant, status)
  WHERE s.tenant = $tenant AND s.status = 'rejected' AND s.evidence IS NOT NULL
  RETURN s.evidence AS evidence, false AS same, s.decided_at AS at
}
RETURN evidence, same ORDER BY at DESC LIMIT $limit
"""

MODEL_STORE = """
MERGE (mm:MatchModel {model_key: $tenant})
ON CREATE SET mm.uid = randomUUID(), mm.tenant = $tenant, mm.created_at = datetime()
SET mm.params_json = $params_json, mm.confirmed = $confirmed, mm.rejected = $rejected,
    mm.learned_at = datetime()
RETURN toString(mm.learned_at) AS learned_at
"""

MODEL_READ = """
OPTIONAL MATCH (mm:MatchModel {model_key: $tenant})
RETURN mm.params_json AS params_json, mm.base_json AS base_json
"""


@functools.lru_cache(maxsize=256)
def tenant_params(params_json: str | None) -> dict:
    """The parameters a stored model names, or the shipped defaults without one (cached by
    the stored text, so a tenant's model is parsed once per process and version)."""
    return json.loads(params_json) if params_json else model_params()


def model_version(params_json: str | None) -> str:
    """A short name of one version of a tenant's model: 'default' for the shipped parameters,
    else a digest of the stored text (two tenants that learned the same model share it)."""
    if not params_json:
        return "default"
    return hashlib.sha256(params_json.encode()).hexdigest()[:12]


def match_model_current(scope: Scope) -> tuple[dict, str]:
    """The tenant's parameters as the gate uses them, and their version (model_version)."""
    params_json = cypher.read(scope, MODEL_READ)[0]["params_json"]
    return tenant_params(params_json), model_version(params_json)


def match_model_of(scope: Scope) -> dict:
    """The tenant's parameters as the gate uses them."""
    return match_model_current(scope)[0]


def match_model_weights(scope: Scope) -> dict:
    """Every comparison level's weight in the tenant's model beside the shipped default's."""
    params, defaults = match_model_of(scope), model_params()
    learned = params.get("learned") or {}
    weights = [{"comparison": c, "level": level, "weight": round(level_weight(params, c, level), 3),
                "default": round(level_weight(defaults, c, level), 3)}
               for c, spec in params["comparisons"].items() for level in spec["levels"]]  # fmt: skip
    return {"learned": bool(learned), "confirmed": int(learned.get("confirmed", 0)),
            "rejected": int(learned.get("rejected", 0)), "weights": weights}  # fmt: skip


def match_model_store(scope: Scope, params: dict, *, confirmed: int, rejected: int) -> str:
    """Store `params` as the tenant's model (the gate's next decision uses it); when."""
    stored = cypher.write(scope, MODEL_STORE, params_json=json.dumps(params, sort_keys=True),
                          confirmed=confirmed, rejected=rejected)  # fmt: skip
    return stored[0]["learned_at"]


def match_model_learn(scope: Scope, *, progress=None) -> dict:
    """Re-estimate the tenant's model from its decided pairs and store it; returns how many
    pairs it learned from and which weights moved."""
    rows = cypher.read(scope, DECISIONS, limit=MAX_DECISIONS)
    if progress:
        progress(done=0, total=len(rows))
    confirmed = [evidence_levels(r["evidence"]) for r in rows if r["same"]]
    rejected = [evidence_levels(r["evidence"]) for r in rows if not r["same"]]
    before = match_model_of(scope)
    # From the tenant's own estimate when it has one (model_estimation), else the defaults.
    base_json = cypher.read(scope, MODEL_READ)[0]["base_json"]
    base = json.loads(base_json) if base_json else model_params()
    learned = params_learned(base, confirmed=confirmed, rejected=rejected,
                             prior_pairs=float(scope.setting("model_prior_pairs")))  # fmt: skip
    learned_at = match_model_store(scope, learned, confirmed=len(confirmed),
                                   rejected=len(rejected))  # fmt: skip
    if progress:
        progress(done=len(rows), total=len(rows))
    # A changed model may no longer stand behind past automatic merges: re-score them.
    from apps.resolution.auto_merges import auto_merges_rescore_queue

    rescore = auto_merges_rescore_queue(scope)
    return {"confirmed": len(confirmed), "rejected": len(rejected),
            "learned_at": learned_at, "rescore_job": rescore.uid,
            "changes": weight_changes(before, learned)[:50]}  # fmt: skip


def match_model_learn_queue(scope: Scope) -> Job:
    """A learning job for the scope's tenant, queued for a worker."""
    from apps.resolution import tasks

    job = job_create(scope, kind=JOB_KIND, subject="match model")
    job_enqueue(job, tasks.match_model_learn, job.uid)
    return job


def match_model_learn_due(scope: Scope, decisions: int) -> Job | None:
    """After a decision: queue learning when the tenant's count of decisions reaches the next
    multiple of its `model_learn_every` setting."""
    every = int(scope.setting("model_learn_every") or 0)
    if every > 0 and decisions > 0 and decisions % every == 0:
        return match_model_learn_queue(scope)
    return None


def match_model_learn_run(*, job_uid: str) -> dict | None:
    """What a worker does for one job."""
    return job_run(
        job_uid,
        lambda scope, progress: match_model_learn(scope, progress=progress),
        actor=ACTOR,
        permissions=RIGHTS,
        audit="match_model.learn",
        audit_details=lambda r: {k: r[k] for k in ("confirmed", "rejected", "learned_at")},
    )
