"""Knowledge promotion: hot conversation chains become weighted facts in a fixed ontology.

A chain is one conversation session of one user; its revision is its last message number. Each run
scans the chains with messages past what was promoted, computes their heat, and extracts triples
from the new messages of the chains at or above the tenant's threshold. Per chain, one transaction
upserts nodes by (user, label, key) and edges by (from, to, relation) and moves the chain's mark:

- an observation is the set of messages a triple came from; weight = observations, so a message
  observed again (a re-run, a crashed run redone, two workers) is not counted twice;
- confidence is the running average (old + new) / 2 in observation order; nuance the latest;
  heat the chain's heat at that promotion; the messages of every observation are kept on the edge,
  which is what erasure needs to take a message's support away again.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record
from apps.knowledge.extractors import ExtractorError, extractor_named, validate_triples
from memoryproject.metrics import EXTRACTOR_SCHEMA_FAILURES

HEAT_HALF_LIFE_HOURS = 24.0
HEAT_WINDOW = timedelta(days=7)
HEAT_SATURATION = 10  # messages in the window that make frequency 1
MAX_CHAINS_PER_RUN = 500
MAX_MESSAGES_PER_CHAIN = 500


def chain_heat(*, last_at: datetime, recent_messages: int, now: datetime) -> float:
    """Recency (halves every day since the last message) times frequency (messages of the last
    seven days, saturating at ten): 0 for a cold chain, 1 for a busy one right now."""
    hours = max(0.0, (now - last_at).total_seconds() / 3600)
    recency = math.pow(0.5, hours / HEAT_HALF_LIFE_HOURS)
    frequency = min(1.0, recent_messages / HEAT_SATURATION)
    return round(recency * frequency, 4)


ACTIVE = """
MATCH (s:Session {tenant: $tenant})
OPTIONAL MATCH (c:KnowledgeChain {tenant: $tenant, user: s.user, sid: s.sid})
WITH s, coalesce(c.promoted_no, 0) AS promoted
WHERE s.last_no > promoted
RETURN s.user AS user, s.sid AS sid, s.last_no AS revision, s.last_at AS last_at, promoted,
       COUNT { MATCH (m:Message {tenant: $tenant, user: s.user, sid: s.sid})
               WHERE m.at >= $window_start } AS recent
ORDER BY s.last_at DESC LIMIT $limit
"""

MESSAGES = """
MATCH (m:Message {tenant: $tenant, user: $user, sid: $sid})
WHERE m.no > $after AND m.no <= $upto
RETURN m.uid AS uid, m.no AS no, m.role AS role, m.text AS text
ORDER BY m.no LIMIT $limit
"""

# Taking the chain's lock first makes concurrent promoters of one chain wait for each other.
CHAIN_LOCK = """
MERGE (c:KnowledgeChain {tenant: $tenant, user: $user, sid: $sid})
ON CREATE SET c.uid = randomUUID(), c.created_at = datetime(), c.promoted_no = 0
SET c._lock = true
RETURN c.promoted_no AS promoted_no
"""

CHAIN_MARK = """
MATCH (c:KnowledgeChain {tenant: $tenant, user: $user, sid: $sid})
SET c.promoted_no = $upto, c.heat = $heat, c.promoted_at = datetime()
REMOVE c._lock
"""

# Writing last_seen first takes the edge's lock, so the observations and counts read after it are
# those a concurrent promoter of another chain committed: no observation is lost or counted twice.
UPSERT = """
UNWIND $facts AS f
MERGE (a:Knowledge {tenant: $tenant, user: $user, label: f.from_label, key: f.from})
ON CREATE SET a.uid = randomUUID(), a.name = f.from_name, a.created_at = datetime()
SET a.last_seen = datetime()
MERGE (b:Knowledge {tenant: $tenant, user: $user, label: f.to_label, key: f.to})
ON CREATE SET b.uid = randomUUID(), b.name = f.to_name, b.created_at = datetime()
SET b.last_seen = datetime()
MERGE (a)-[r:FACT {relation: f.relation}]->(b)
ON CREATE SET r.uid = randomUUID(), r.tenant = $tenant, r.user = $user, r.weight = 0,
              r.confidence = f.confidence, r.obs = [], r.obs_confidence = [], r.obs_nuance = [],
              r.obs_heat = [], r.messages = [], r.created_at = datetime()
SET r.last_seen = datetime()
WITH r, f
WHERE NOT f.obs IN r.obs
SET r.confidence = CASE WHEN r.weight = 0 THEN f.confidence
                        ELSE (r.confidence + f.confidence) / 2.0 END,
    r.weight = r.weight + 1,
    r.obs = r.obs + f.obs,
    r.obs_confidence = r.obs_confidence + f.confidence,
    r.obs_nuance = r.obs_nuance + f.nuance,
    r.obs_heat = r.obs_heat + $heat,
    r.messages = r.messages + [m IN f.messages WHERE NOT m IN r.messages],
    r.nuance = f.nuance, r.heat = $heat
RETURN count(r) AS observed
"""


def _facts(triples: list[dict]) -> list[dict]:
    """One row per (edge, observation), in order; the same observation twice is one row."""
    seen, facts = set(), []
    for t in triples:
        obs = ",".join(t["messages"])
        identity = (t["from_label"], t["from"], t["relation"], t["to_label"], t["to"], obs)
        if identity in seen:
            continue
        seen.add(identity)
        facts.append(
            {
                **t,
                "obs": obs,
                "from_name": t["from"].replace("_", " "),
                "to_name": t["to"].replace("_", " "),
            }
        )
    return facts


def chain_upsert(
    scope: Scope, *, user: str, sid: str, upto: int, heat: float, triples: list[dict]
) -> dict:
    """Write a chain's checked triples and move its mark to `upto`, all or nothing. A revision
    that was promoted already changes nothing."""
    facts = _facts(triples)

    def work(stx):
        promoted = stx.run(CHAIN_LOCK, user=user, sid=sid)[0]["promoted_no"]
        if promoted >= upto:
            stx.run(CHAIN_MARK, user=user, sid=sid, upto=promoted, heat=heat)
            return {"status": "unchanged", "observed": 0}
        observed = stx.run(UPSERT, user=user, facts=facts, heat=heat)[0]["observed"] if facts else 0
        stx.run(CHAIN_MARK, user=user, sid=sid, upto=upto, heat=heat)
        return {"status": "promoted", "observed": observed}

    return cypher.write_unit(scope, work)


def _as_datetime(value, *, default: datetime) -> datetime:
    if hasattr(value, "to_native"):
        value = value.to_native()
    elif isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if not isinstance(value, datetime):
        return default
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def knowledge_promote_chains(
    scope: Scope, *, now: datetime | None = None, progress=None, extractor=None
) -> dict:
    """Promote every active chain of the tenant that is hot enough; returns counts and a receipt
    per chain (promoted, unchanged, cold or failed)."""
    now = now or datetime.now(UTC)
    threshold = float(scope.setting("knowledge_heat_threshold"))
    extractor = extractor or extractor_named(scope.setting("knowledge_extractor"))
    chains = cypher.read(scope, ACTIVE, window_start=now - HEAT_WINDOW, limit=MAX_CHAINS_PER_RUN)
    receipts = []
    for done, chain in enumerate(chains, start=1):
        last_at = _as_datetime(chain["last_at"], default=now)
        heat = chain_heat(last_at=last_at, recent_messages=chain["recent"], now=now)
        receipt = {"user": chain["user"], "sid": chain["sid"], "heat": heat}
        if heat < threshold:
            receipts.append({**receipt, "status": "cold"})
            continue
        messages = cypher.read(
            scope,
            MESSAGES,
            user=chain["user"],
            sid=chain["sid"],
            after=chain["promoted"],
            upto=chain["revision"],
            limit=MAX_MESSAGES_PER_CHAIN,
        )
        upto = messages[-1]["no"] if messages else chain["revision"]
        try:
            triples = extractor.extract(
                {"user": chain["user"], "sid": chain["sid"], "heat": heat}, messages
            )
            try:
                checked = validate_triples(triples, message_uids={m["uid"] for m in messages})
            except ExtractorError:
                # An answer outside the ontology is a schema failure of whichever extractor gave
                # it (the model's extractor counts the answers that break its JSON schema itself).
                name = str(getattr(extractor, "name", type(extractor).__name__))[:40]
                EXTRACTOR_SCHEMA_FAILURES.labels(extractor=name).inc()
                raise
        except ExtractorError as exc:
            # Schema failures abort this chain only; it is tried again on the next tick.
            write_failure_record(
                scope, kind="knowledge_extraction", reason=str(exc), subject_user=chain["user"]
            )
            receipts.append({**receipt, "status": "failed", "reason": str(exc)[:200]})
            continue
        result = chain_upsert(
            scope, user=chain["user"], sid=chain["sid"], upto=upto, heat=heat, triples=checked
        )
        receipts.append({**receipt, **result, "triples": len(checked)})
        if progress:
            progress(done=done, total=len(chains))
    statuses = [r["status"] for r in receipts]
    return {
        "chains": len(chains),
        "promoted": statuses.count("promoted"),
        "cold": statuses.count("cold"),
        "failed": statuses.count("failed"),
        "receipts": receipts,
    }
