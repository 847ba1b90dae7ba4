"""Promotion rules a tenant declares (apps/lessons/services/declared_rules.py), versioned.

Saving a rule checks it, then writes the next version of its name and marks that one active; the
earlier versions stay, and any of them can be made active again. Saving what the active version
already says writes nothing. Episodes are marked read by the rule's *name*, so a new version reads
only the episodes that ended since: what an earlier version counted is never counted twice.
"""

from __future__ import annotations

import json

from django.conf import settings

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.lessons.services.declared_rules import validate_rule
from memoryproject.api_errors import ApplicationError, NotFoundError
from memoryproject.json_values import stored_json_loads
from memoryproject.refusals import refusal_recorded

ACTIVE = """
MATCH (r:PromotionRule {tenant: $tenant, name: $name, active: true})
RETURN r.version AS version, r.spec AS spec
"""

# The head is locked first, so two saves of one name take two numbers.
SAVE = """
MERGE (h:PromotionRuleHead {tenant: $tenant, name: $name})
ON CREATE SET h.uid = randomUUID(), h.last = 0, h.created_at = datetime()
SET h.last = h.last + 1
WITH h
CALL (h) {
  MATCH (old:PromotionRule {tenant: $tenant, name: $name, active: true})
  SET old.active = false
}
CREATE (r:PromotionRule {uid: randomUUID(), tenant: $tenant, name: $name, version: h.last,
        spec: $spec, active: true, by: $actor, created_at: datetime()})
RETURN r.version AS version
"""

ACTIVATE = """
MATCH (h:PromotionRuleHead {tenant: $tenant, name: $name})
SET h._lock = true
WITH h
MATCH (chosen:PromotionRule {tenant: $tenant, name: $name, version: $version})
CALL (chosen) {
  MATCH (r:PromotionRule {tenant: $tenant, name: $name, active: true})
  SET r.active = false
}
SET chosen.active = true, chosen.activated_by = $actor, chosen.activated_at = datetime()
REMOVE h._lock
RETURN chosen.version AS version
"""


def _stored(rule: dict) -> str:
    return json.dumps(rule, sort_keys=True, separators=(",", ":"))


def active_rule(scope: Scope, *, name: str) -> dict | None:
    """The active version of a declared rule, {"version", "rule"}, or None."""
    rows = cypher.read(scope, ACTIVE, name=name)
    if not rows:
        return None
    return {"version": rows[0]["version"], "rule": stored_json_loads(rows[0]["spec"])}


@refusal_recorded("promotion_rule")
def check_promotion_rule_save(scope: Scope, *, rule: dict) -> dict:
    """Check a rule and store it as the next, active version of its name:
    {"name", "version", "status": "saved" | "unchanged"}."""
    rule = validate_rule(rule)
    if rule["name"] in settings.LESSON_PROMOTION_RULES:
        raise ApplicationError("That name is a rule of the deployment.", field="name")
    spec = _stored(rule)
    current = cypher.read(scope, ACTIVE, name=rule["name"])
    if current and current[0]["spec"] == spec:
        return {"name": rule["name"], "version": current[0]["version"], "status": "unchanged"}
    version = cypher.write(scope, SAVE, name=rule["name"], spec=spec, actor=scope.actor)[0]
    return {"name": rule["name"], "version": version["version"], "status": "saved"}


@refusal_recorded("promotion_rule")
def check_promotion_rule_activate(scope: Scope, *, name: str, version: int) -> dict:
    """Make one stored version of a rule the active one (an older version back, say)."""
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ApplicationError("version is a whole number from 1.", field="version", limit=1)
    rows = cypher.write(scope, ACTIVATE, name=name, version=version, actor=scope.actor)
    if not rows:
        raise NotFoundError("No such rule version.", field="version")
    return {"name": name, "version": rows[0]["version"], "status": "active"}
