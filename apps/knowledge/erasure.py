"""What promoted knowledge forgets when the conversation erasure deletes messages.

Registered in `settings.MESSAGE_ERASURE_HOOKS`; the conversations app calls it before it deletes
the messages. Every observation drawn from an erased message is taken off its fact. A fact with no
observation left goes, and so does a node with no fact left; a fact that other messages support
keeps those, with weight and confidence recomputed from what is left (the same running average,
in the same order), and the nuance and heat of the latest observation left. The chain's promotion
mark moves back before the first erased message, and goes when nothing is left before it.
"""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.deletion_lock import do_deletion_lock
from apps.graph.scope import Scope

MAX_UIDS = 10_000

AFFECTED = """
MATCH (a:Knowledge {tenant: $tenant})-[r:FACT]->(b:Knowledge)
WHERE any(m IN r.messages WHERE m IN $uids)
RETURN r.uid AS uid, r.obs AS obs, r.obs_confidence AS confidence, r.obs_nuance AS nuance,
       r.obs_heat AS heat, r.user AS user
"""

REWRITE = """
UNWIND $facts AS f
MATCH (a:Knowledge {tenant: $tenant, user: f.user})-[r:FACT {uid: f.uid}]->(b:Knowledge)
SET r.obs = f.obs, r.obs_confidence = f.confidence, r.obs_nuance = f.nuance, r.obs_heat = f.heat,
    r.messages = f.messages, r.weight = size(f.obs), r.confidence = f.running,
    r.nuance = f.nuance[-1], r.heat = f.heat[-1]
"""

DROP = """
UNWIND $facts AS f
MATCH (a:Knowledge {tenant: $tenant, user: f.user})-[r:FACT {uid: f.uid}]->(b:Knowledge)
DELETE r
WITH collect(a) + collect(b) AS ends
UNWIND ends AS n
WITH DISTINCT n
WHERE NOT EXISTS { (n)-[:FACT]-() }
DELETE n
"""


# A chain's mark must not stay past messages that are gone: erasure deletes from the end, and a
# session said to again starts at number 1. A mark that falls to 0 goes, with the user's name.
CHAINS = """
MATCH (m:Message {tenant: $tenant}) WHERE m.uid IN $uids
WITH m.user AS user, m.sid AS sid, min(m.no) AS first
MATCH (c:KnowledgeChain {tenant: $tenant, user: user, sid: sid})
SET c.promoted_no = CASE WHEN first - 1 < c.promoted_no THEN first - 1 ELSE c.promoted_no END
WITH c WHERE c.promoted_no <= 0
DELETE c
"""


def _running_average(values: list[float]) -> float:
    average = values[0]
    for value in values[1:]:
        average = (average + value) / 2.0
    return average


def knowledge_forget_messages(scope: Scope, *, message_uids: list[str]) -> dict:
    """Take the support of these messages off every promoted fact, in one transaction."""
    uids = list(dict.fromkeys(message_uids))[:MAX_UIDS]
    if not uids:
        return {"dropped": 0, "reweighed": 0}
    erased = set(uids)

    def work(stx):
        # Two erasures of one user's sessions read the same facts: one at a time, or the second
        # writes back observations the first took off.
        do_deletion_lock(stx)
        rewrite, drop = [], []
        for fact in stx.run(AFFECTED, uids=uids):
            kept = [i for i, obs in enumerate(fact["obs"]) if not set(obs.split(",")) & erased]
            if not kept:
                drop.append({"uid": fact["uid"], "user": fact["user"]})
                continue
            obs = [fact["obs"][i] for i in kept]
            confidence = [fact["confidence"][i] for i in kept]
            rewrite.append(
                {
                    "uid": fact["uid"],
                    "user": fact["user"],
                    "obs": obs,
                    "confidence": confidence,
                    "nuance": [fact["nuance"][i] for i in kept],
                    "heat": [fact["heat"][i] for i in kept],
                    "messages": sorted({m for o in obs for m in o.split(",")}),
                    "running": _running_average(confidence),
                }
            )
        if rewrite:
            stx.run(REWRITE, facts=rewrite)
        if drop:
            stx.run(DROP, facts=drop)
        stx.run(CHAINS, uids=uids)
        return {"dropped": len(drop), "reweighed": len(rewrite)}

    return cypher.write_unit(scope, work)
