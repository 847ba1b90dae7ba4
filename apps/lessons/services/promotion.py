"""promote(rule): what repeats in episodes that ended becomes a lesson or a playbook.

A rule is named: a tenant declares one in data (apps/lessons/services/declared_rules.py, stored
and versioned by promotion_rules.py), or the deployment registers a function by name in
`settings.LESSON_PROMOTION_RULES` (dotted paths), which wins. A rule says, for one closed episode
(as `episode_get` gives it), what it shows, as claims:

    {"lesson": key, "statement": str, "agrees": bool, "about": [entity uid, ...]}
    {"playbook": key, "trigger": {...}, "steps": [...]}
    {"ran": playbook key, "succeeded": bool}

Every claim of every episode is checked before anything is written: one that is not a claim stops
the promotion (recorded as a WriteFailure). Each episode is then applied in one transaction that
also marks it read by the rule, so it counts once however often promotion runs, and a crash leaves
either all of an episode's evidence or none of it. `check_promotion_try` runs a declared rule the
same way in one transaction that is rolled back: the receipts it would give, nothing written.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.lessons.selectors import episode_get
from apps.lessons.services.declared_rules import claims_of, validate_rule
from apps.lessons.services.lessons import CREATE as LESSON_CREATE
from apps.lessons.services.lessons import MAX_STATEMENT_CHARS, do_lesson_evidence
from apps.lessons.services.playbooks import (
    RUN,
    do_playbook_write,
    signature,
    validate_steps,
    validate_trigger,
)
from apps.lessons.services.promotion_rules import active_rule
from apps.lessons.services.references import KEY_PATTERN
from memoryproject.api_errors import ApplicationError
from memoryproject.refusals import refusal_recorded

MAX_EPISODES_PER_CALL = 200
MAX_CLAIMS_PER_EPISODE = 50
MAX_SHOWN_IN_TRY = 20

UNREAD = """
MATCH (ep:Episode {tenant: $tenant, status: 'closed'})
WHERE NOT $rule IN coalesce(ep.promoted_by, [])
RETURN ep.uid AS uid ORDER BY ep.closed_at, ep.uid LIMIT $limit
"""

# The candidate is locked, the episode joins it once, and the count is read under the lock.
SHOWN = """
MERGE (c:PromotionCandidate {tenant: $tenant, rule: $rule, claim: $claim})
ON CREATE SET c.uid = randomUUID(), c.created_at = datetime()
SET c._lock = true
WITH c
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
MERGE (c)-[s:SHOWN_BY]->(ep) ON CREATE SET s.agrees = $agrees, s.at = datetime()
REMOVE c._lock
WITH c
MATCH (c)-[s:SHOWN_BY]->(e:Episode)
RETURN [x IN collect({uid: e.uid, agrees: s.agrees}) WHERE x.agrees | x.uid] AS agree,
       [x IN collect({uid: e.uid, agrees: s.agrees}) WHERE NOT x.agrees | x.uid] AS disagree
"""

MARK = """
MATCH (ep:Episode {tenant: $tenant, uid: $episode}) USING INDEX SEEK ep:Episode(uid)
SET ep.promoted_by = coalesce(ep.promoted_by, []) + $rule
"""

EXISTING = """
RETURN [k IN $lessons WHERE EXISTS { (:Lesson {tenant: $tenant, key: k}) }] AS lessons,
       [u IN $entities WHERE EXISTS { (:Entity {tenant: $tenant, uid: u, status: 'active'}) }]
         AS entities
"""


def promotion_rule(scope: Scope, name: str):
    """(function of one episode, the rule's own at_least or None) for a rule's name."""
    path = settings.LESSON_PROMOTION_RULES.get(name) if isinstance(name, str) else None
    if path:
        return import_string(path), None
    declared = active_rule(scope, name=name) if isinstance(name, str) else None
    if declared is None:
        raise ApplicationError(
            f"No promotion rule named {name!r:.130}; declare one with POST "
            "/api/v1/promotion-rules.", field="rule", code="not_found", status=404,
        )  # fmt: skip
    spec = declared["rule"]
    return rule_claims(spec), spec.get("at_least")


def rule_claims(spec: dict):
    """The function of one episode a declared rule is: its templates, or the model's reading."""
    if "llm" in spec:
        from apps.lessons.services.llm_rule import llm_claims

        return lambda episode: llm_claims(spec, episode)
    return lambda episode: claims_of(spec, episode)


def _at_least(scope: Scope, asked, declared) -> int:
    """The caller's at_least, else the rule's, else the tenant's `playbook_needs`."""
    at_least = asked if asked is not None else declared
    if at_least is None:
        at_least = int(scope.setting("playbook_needs"))
    if not isinstance(at_least, int) or isinstance(at_least, bool) or at_least < 1:
        raise ApplicationError("at_least is at least 1.", field="at_least", limit=1)
    return at_least


def validate_claim(claim) -> dict:
    """The claim as it will be applied, or an error saying why it is not one."""
    if not isinstance(claim, dict):
        raise ApplicationError(f"A rule gave something that is not a claim: {claim!r:.200}")
    keys = set(claim)
    if "lesson" in claim and keys <= {"lesson", "statement", "agrees", "about"}:
        ok = (
            isinstance(claim["lesson"], str)
            and KEY_PATTERN.match(claim["lesson"])
            and isinstance(claim.get("statement"), str)
            and 0 < len(claim["statement"]) <= MAX_STATEMENT_CHARS
            and isinstance(claim.get("agrees"), bool)
            and isinstance(claim.get("about", []), list)
            and all(isinstance(u, str) for u in claim.get("about", []))
        )
        if ok:
            return {"about": [], **claim}
    elif "playbook" in claim and keys == {"playbook", "trigger", "steps"}:
        if isinstance(claim["playbook"], str) and KEY_PATTERN.match(claim["playbook"]):
            validate_trigger(claim["trigger"])
            validate_steps(claim["steps"])
            return claim
    elif "ran" in claim and keys == {"ran", "succeeded"}:
        if isinstance(claim["ran"], str) and isinstance(claim["succeeded"], bool):
            return claim
    raise ApplicationError(f"A rule gave something that is not a claim: {claim!r:.200}")


class Receipts:
    """One receipt per lesson, playbook and run; the strongest outcome of the call wins."""

    ORDER = {"refused": 0, "unchanged": 1, "waiting": 2, "weighed": 3, "written": 4, "learned": 4}

    def __init__(self) -> None:
        self.lessons: dict[str, dict] = {}
        self.playbooks: dict[str, dict] = {}
        self.runs: list[dict] = []

    def note(self, book: dict, key: str, receipt: dict) -> None:
        old = book.get(key)
        if old is None or self.ORDER[receipt["status"]] >= self.ORDER[old["status"]]:
            book[key] = receipt

    def as_dict(self, episodes: int) -> dict:
        return {
            "episodes": episodes,
            "lessons": list(self.lessons.values()),
            "playbooks": list(self.playbooks.values()),
            "runs": self.runs,
        }


def _apply_lesson(stx, scope, rule, episode, claim, at_least, receipts, known) -> None:
    key = claim["lesson"]
    if any(u not in known["entities"] for u in claim["about"]):
        receipts.note(
            receipts.lessons,
            key,
            {"id": key, "status": "refused", "reason": "about names an entity that does not exist"},
        )
        return
    if key in known["lessons"]:
        side = {"agree": [episode]} if claim["agrees"] else {"disagree": [episode]}
        result = do_lesson_evidence(stx, scope, key=key, **side)
        status = "weighed" if result["changed"] else "unchanged"
        receipts.note(
            receipts.lessons, key, {"id": key, "status": status, "weight": result["weight"]}
        )
        return
    shown = stx.run(
        SHOWN, rule=rule, claim=f"lesson:{key}", episode=episode, agrees=claim["agrees"]
    )[0]
    if len(shown["agree"]) < at_least:
        receipts.note(
            receipts.lessons, key, {"id": key, "status": "waiting", "count": len(shown["agree"])}
        )
        return
    stx.run(LESSON_CREATE, key=key, statement=claim["statement"], actor=scope.actor)
    stx.run(
        "MATCH (l:Lesson {tenant: $tenant, key: $key}) UNWIND $entities AS uid "
        "MATCH (e:Entity {tenant: $tenant, uid: uid}) MERGE (l)-[:ABOUT]->(e)",
        key=key,
        entities=claim["about"],
    )
    result = do_lesson_evidence(
        stx, scope, key=key, agree=shown["agree"], disagree=shown["disagree"]
    )
    known["lessons"].append(key)
    receipts.note(
        receipts.lessons, key, {"id": key, "status": "learned", "weight": result["weight"]}
    )


def _apply_playbook(stx, scope, rule, episode, claim, at_least, receipts) -> None:
    key = claim["playbook"]
    sig = signature(claim["trigger"], claim["steps"])
    shown = stx.run(SHOWN, rule=rule, claim=f"playbook:{key}:{sig}", episode=episode, agrees=True)[
        0
    ]
    if len(shown["agree"]) < at_least:
        receipts.note(
            receipts.playbooks, key, {"id": key, "status": "waiting", "count": len(shown["agree"])}
        )
        return
    receipt = do_playbook_write(
        stx, key=key, trigger=claim["trigger"], steps=claim["steps"], episodes=shown["agree"]
    )
    receipts.note(receipts.playbooks, key, receipt)


def _apply_run(stx, scope, episode, claim, receipts) -> None:
    key = claim["ran"]
    rows = stx.run(
        RUN,
        key=key,
        episode=episode,
        succeeded=claim["succeeded"],
        actor=scope.actor,
        limit=3,
        auto="system:three-failures-in-a-row",
    )
    if not rows:
        receipts.runs.append(
            {"id": key, "episode": episode, "status": "refused", "reason": "no such playbook"}
        )
        return
    status = "judged" if rows[0]["judged"] else "unchanged"
    receipts.runs.append(
        {"id": key, "episode": episode, "status": status, "enabled": rows[0]["enabled"]}
    )


def _shown(scope: Scope, rule: str, fn, limit: int) -> list[tuple[str, list[dict]]]:
    """Every claim of every unread episode, checked before anything is written."""
    limit = max(1, min(limit, MAX_EPISODES_PER_CALL))
    uids = [r["uid"] for r in cypher.read(scope, UNREAD, rule=rule, limit=limit)]
    shown: list[tuple[str, list[dict]]] = []
    for uid in uids:
        episode = episode_get(scope, episode=uid)
        claims = fn(episode)
        if not isinstance(claims, list) or len(claims) > MAX_CLAIMS_PER_EPISODE:
            raise ApplicationError(
                f"A rule returns a list of at most {MAX_CLAIMS_PER_EPISODE} claims.",
                limit=MAX_CLAIMS_PER_EPISODE,
            )
        shown.append((uid, [validate_claim(c) for c in claims]))
    return shown


def _apply_episode(stx, scope, rule, uid, claims, at_least) -> Receipts:
    known = stx.run(
        EXISTING,
        lessons=[c["lesson"] for c in claims if "lesson" in c],
        entities=[u for c in claims for u in c.get("about", [])],
    )[0]
    local = Receipts()  # a retried transaction must not leave receipts of the first try
    for claim in claims:
        if "lesson" in claim:
            _apply_lesson(stx, scope, rule, uid, claim, at_least, local, known)
        elif "playbook" in claim:
            _apply_playbook(stx, scope, rule, uid, claim, at_least, local)
    for claim in claims:
        if "ran" in claim:
            _apply_run(stx, scope, uid, claim, local)
    stx.run(MARK, episode=uid, rule=rule)
    return local


def _merge(receipts: Receipts, local: Receipts) -> None:
    for key, receipt in local.lessons.items():
        receipts.note(receipts.lessons, key, receipt)
    for key, receipt in local.playbooks.items():
        receipts.note(receipts.playbooks, key, receipt)
    receipts.runs.extend(local.runs)


@refusal_recorded("promotion")
def check_promote(
    scope: Scope, *, rule: str, at_least: int | None = None, limit: int = 200
) -> dict:
    """Read the closed episodes this rule has not read, oldest first, and apply what it says."""
    fn, declared_at_least = promotion_rule(scope, rule)
    at_least = _at_least(scope, at_least, declared_at_least)
    shown = _shown(scope, rule, fn, limit)
    receipts = Receipts()
    for uid, claims in shown:

        def work(stx, uid=uid, claims=claims):
            return _apply_episode(stx, scope, rule, uid, claims, at_least)

        _merge(receipts, cypher.write_unit(scope, work))
    return {**receipts.as_dict(len(shown)), "at_least": at_least}


def check_promotion_try(
    scope: Scope, *, rule: dict, at_least: int | None = None, limit: int = 200
) -> dict:
    """A dry run of a declared rule, saved or not, on the ended episodes its name has not read:
    the receipts promotion would give now and, for the first episodes, the claims each showed.
    Everything runs in one transaction that is rolled back, so nothing is written."""
    spec = validate_rule(rule)
    if spec["name"] in settings.LESSON_PROMOTION_RULES:
        raise ApplicationError("That name is a rule of the deployment.", field="name")
    at_least = _at_least(scope, at_least, spec.get("at_least"))
    shown = _shown(scope, spec["name"], rule_claims(spec), limit)

    def work(stx):
        receipts = Receipts()
        for uid, claims in shown:
            _merge(receipts, _apply_episode(stx, scope, spec["name"], uid, claims, at_least))
        return receipts

    receipts = cypher.trial_unit(scope, work)
    return {
        **receipts.as_dict(len(shown)),
        "at_least": at_least,
        "dry_run": True,
        "shown": [{"episode": uid, "claims": claims} for uid, claims in shown[:MAX_SHOWN_IN_TRY]],
    }
