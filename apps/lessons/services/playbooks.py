"""Playbooks: what to do when a situation comes again, with four guards.

1. Written only when `needs` episodes that ended support it: the caller's (seed 001's `needs=1`),
   never below the tenant's `playbook_needs_floor` (1); the tenant's `playbook_needs` (3) when the
   caller names none.
2. A new version replaces the last one; no version is ever changed.
3. A run is judged once, and three failures in a row switch the playbook off.
4. A reviewer switches it on or off; who and when are kept (and audited).
`playbooks_for(situation)` (apps.lessons.selectors) compares triggers in the query: a trigger value
fits only a value of its own JSON type (true does not fit 1, "1" does not fit 1).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from apps.graph import cypher
from apps.graph.cypher import ScopedTx
from apps.graph.scope import Scope
from apps.lessons.services.lessons import _closed_episodes, _episode_ids
from apps.lessons.services.references import validate_key
from memoryproject.api_errors import (
    ApplicationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
)
from memoryproject.json_values import FREE_FORM, validate_json, validate_json_object
from memoryproject.refusals import refusal_recorded

MAX_STEPS = 50
MAX_TRIGGER_KEYS = 20
MAX_STEP_CHARS = 2000
FAILURES_TO_SWITCH_OFF = 3
AUTO_OFF = "system:three-failures-in-a-row"
STEPS_LIMITS = replace(FREE_FORM, total_bytes=MAX_STEPS * MAX_STEP_CHARS)


def trigger_terms(values: dict) -> list[str]:
    """`name=type:value` for each pair; the type tag is what keeps true from fitting 1."""
    terms = []
    for name, value in values.items():
        if isinstance(value, bool):
            terms.append(f"{name}=bool:{'true' if value else 'false'}")
        elif isinstance(value, int | float):
            number = int(value) if float(value).is_integer() else value
            terms.append(f"{name}=number:{number!r}")
        elif isinstance(value, str):
            terms.append(f"{name}=string:{value}")
    return sorted(terms)


def validate_trigger(trigger, *, field: str = "trigger") -> dict:
    if not isinstance(trigger, dict) or not trigger:
        raise ApplicationError(f"{field} is an object of at least one value.", field=field)
    validate_json_object(trigger, field=field)
    if len(trigger) > MAX_TRIGGER_KEYS:
        raise ApplicationError(f"{field} is too large.", field=field, limit=MAX_TRIGGER_KEYS)
    for name, value in trigger.items():
        if not isinstance(value, str | int | float | bool) or len(str(name)) > 100:
            raise ApplicationError(
                f"{field}.{name} must be a string, a number or a boolean.", field=field
            )
        if isinstance(value, str) and len(value) > 500:
            raise ApplicationError(f"{field}.{name} is too long.", field=field, limit=500)
    return trigger


def validate_steps(steps) -> list:
    if not isinstance(steps, list) or not steps:
        raise ApplicationError("A playbook needs at least one step.", field="steps", limit=1)
    if len(steps) > MAX_STEPS:
        raise ApplicationError("Too many steps.", field="steps", limit=MAX_STEPS)
    validate_json(steps, field="steps", limits=STEPS_LIMITS)
    for step in steps:
        if not isinstance(step, dict | str) or not step:
            raise ApplicationError("Each step is a non-empty object or text.", field="steps")
        if len(json.dumps(step)) > MAX_STEP_CHARS:
            raise ApplicationError("A step is too long.", field="steps", limit=MAX_STEP_CHARS)
    return steps


def signature(trigger: dict, steps: list) -> str:
    text = json.dumps({"trigger": trigger, "steps": steps}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


HEAD = """
MERGE (p:Playbook {tenant: $tenant, key: $key})
ON CREATE SET p.uid = randomUUID(), p.version = 0, p.enabled = true, p.failures_in_row = 0,
              p.created_at = datetime()
SET p._lock = true
WITH p
OPTIONAL MATCH (v:PlaybookVersion {tenant: $tenant, key: $key, version: p.version})
RETURN p.version AS version, p.enabled AS enabled, v.signature AS signature
"""

WRITE = """
MATCH (p:Playbook {tenant: $tenant, key: $key})
OPTIONAL MATCH (old:PlaybookVersion {tenant: $tenant, key: $key, version: p.version})
SET p.version = p.version + 1, p.failures_in_row = 0, p.updated_at = datetime()
REMOVE p._lock
CREATE (v:PlaybookVersion {uid: randomUUID(), tenant: $tenant, key: $key, version: p.version,
        trigger: $trigger, trigger_terms: $terms, steps: $steps, signature: $signature,
        by: $actor, created_at: datetime()})
CREATE (v)-[:VERSION_OF]->(p)
FOREACH (_ IN CASE WHEN old IS NULL THEN [] ELSE [1] END | CREATE (v)-[:REPLACES]->(old))
WITH p, v
UNWIND $episodes AS uid
MATCH (ep:Episode {tenant: $tenant, uid: uid}) USING INDEX SEEK ep:Episode(uid)
CREATE (v)-[:DRAWN_FROM]->(ep)
RETURN DISTINCT p.version AS version
"""


def do_playbook_write(
    stx: ScopedTx, *, key: str, trigger: dict, steps: list, episodes: list[str]
) -> dict:
    """Write the next version unless the newest one already says the same. The caller checked
    the input and that the episodes ended."""
    sig = signature(trigger, steps)
    head = stx.run(HEAD, key=key)[0]
    if head["signature"] == sig:
        version = head["version"]
        return {"id": f"{key}#{version}", "version": version, "status": "unchanged"}
    version = stx.run(
        WRITE,
        key=key,
        trigger=json.dumps(trigger, sort_keys=True),
        terms=trigger_terms(trigger),
        steps=json.dumps(steps),
        signature=sig,
        actor=stx.scope.actor,
        episodes=episodes,
    )[0]["version"]
    return {"id": f"{key}#{version}", "version": version, "status": "written"}


@refusal_recorded("playbook")
def check_playbook_write(
    scope: Scope,
    *,
    key: str,
    trigger: dict,
    steps: list,
    supported_by: list[str],
    needs: int | None = None,
) -> dict:
    """Write a playbook drawn from at least `needs` episodes that ended (the tenant's
    `playbook_needs` when None), never from fewer than the tenant's `playbook_needs_floor`."""
    validate_key(key, field="key")
    validate_trigger(trigger)
    validate_steps(steps)
    if needs is not None and (not isinstance(needs, int) or needs < 1):
        raise ApplicationError("needs is at least 1.", field="needs", limit=1)
    # The caller decides how much support is enough, down to the tenant's floor.
    if needs is None:
        needs = int(scope.setting("playbook_needs"))
    needs = max(needs, int(scope.setting("playbook_needs_floor")))
    episodes = _episode_ids(supported_by, field="supported_by", at_least=needs)

    def work(stx):
        _closed_episodes(stx, episodes, field="supported_by")
        return do_playbook_write(stx, key=key, trigger=trigger, steps=steps, episodes=episodes)

    return cypher.write_unit(scope, work)


RUN = """
MATCH (p:Playbook {tenant: $tenant, key: $key})
SET p._lock = true
WITH p
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
MERGE (p)-[r:RAN_IN]->(ep)
ON CREATE SET r.succeeded = $succeeded, r.version = p.version, r.at = datetime(), r.by = $actor,
              r._new = true
WITH p, r, coalesce(r._new, false) AS judged
REMOVE r._new, p._lock
FOREACH (_ IN CASE WHEN judged THEN [1] ELSE [] END |
  SET p.failures_in_row = CASE WHEN $succeeded THEN 0 ELSE p.failures_in_row + 1 END)
FOREACH (_ IN CASE WHEN judged AND p.enabled AND p.failures_in_row >= $limit THEN [1] ELSE [] END |
  SET p.enabled = false, p.switched_by = $auto, p.switched_at = datetime())
RETURN judged, r.succeeded AS succeeded, p.enabled AS enabled,
       p.failures_in_row AS failures_in_row
"""


@refusal_recorded("playbook_run")
def check_playbook_run(scope: Scope, *, key: str, episode: str, succeeded: bool) -> dict:
    """Judge the run of a playbook in one episode that ended, once."""
    if not isinstance(succeeded, bool):
        raise ApplicationError("succeeded is true or false.", field="succeeded")
    episodes = _episode_ids([episode], field="episode", at_least=1)

    def work(stx):
        _closed_episodes(stx, episodes, field="episode")
        rows = stx.run(
            RUN,
            key=key,
            episode=episode,
            succeeded=succeeded,
            actor=scope.actor,
            limit=FAILURES_TO_SWITCH_OFF,
            auto=AUTO_OFF,
        )
        if not rows:
            raise NotFoundError("No such playbook.", field="playbook")
        row = rows[0]
        if not row["judged"] and row["succeeded"] != succeeded:
            raise ConflictError("This run was judged already; a run is judged once.")
        return {
            "id": key,
            "episode": episode,
            "status": "judged" if row["judged"] else "unchanged",
            "enabled": row["enabled"],
            "failures_in_row": row["failures_in_row"],
        }

    return cypher.write_unit(scope, work)


SWITCH = """
MATCH (p:Playbook {tenant: $tenant, key: $key})
SET p.enabled = $enabled, p.switched_by = $actor, p.switched_at = datetime(),
    p.switch_reason = $reason,
    p.failures_in_row = CASE WHEN $enabled THEN 0 ELSE p.failures_in_row END
RETURN p.enabled AS enabled, p.switched_by AS switched_by, toString(p.switched_at) AS switched_at
"""


@refusal_recorded("playbook_switch")
def check_playbook_switch(scope: Scope, *, key: str, enabled: bool, reason: str = "") -> dict:
    """A reviewer switches a playbook on or off; the last switch's who and when are kept."""
    from apps.tenants.models import KeyScope
    from apps.tenants.services import audit_record

    if not scope.allows(KeyScope.REVIEW):
        raise PermissionDeniedError("Switching a playbook needs the review permission.")
    if not isinstance(enabled, bool):
        raise ApplicationError("enabled is true or false.", field="enabled")
    if not isinstance(reason, str) or len(reason) > 500:
        raise ApplicationError("reason is too long.", field="reason", limit=500)
    rows = cypher.write(scope, SWITCH, key=key, enabled=enabled, actor=scope.actor, reason=reason)
    if not rows:
        raise NotFoundError("No such playbook.", field="playbook")
    audit_record(
        scope,
        action="playbook.switch_on" if enabled else "playbook.switch_off",
        target=key,
        details={"reason": reason},
    )
    return {"id": key, **rows[0]}
