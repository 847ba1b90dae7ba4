"""Twins in reads: two entities joined by a pending SAME_AS pair of P(same) >= TWIN_MIN_P are
shown once until a reviewer decides (docs/concepts/twins.md).

`twins_read` finds, in one tenant-scoped round trip, the pending pairs of a set of uids with each
twin's fields and heaviest relations; `twins_fold` keeps one item per pair in a ranked list (the
more trusted, then older, side), with the other under it as `twins`. A rejected pair is no
longer pending and a merged one has a tombstone end, so both stop showing at once. A pending
pair that is no twin stays two items; where both are listed (`among`), the first says so.
"""

from __future__ import annotations

import json
import re

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.match_model import FORBIDDING

# Measured on bench/identity_text.py --twins (dev split, 2026-12-02): see docs/concepts/twins.md.
TWIN_MIN_P = 0.8
TWIN_FACTS = 5  # the twin's heaviest relations shown under the item
# Whatever its P, a pair is no twin when a comparison says they are two: a conflict that forbids
# a merge (an identifier, a date), names that differ, or a person's context that conflicts
# (another employer or city: namesakes).
NOT_TWIN = {("name", "different"), ("context", "conflict")}

TWINS = """
UNWIND $uids AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid})-[s:SAME_AS]-(o:Entity {tenant: $tenant})
WHERE s.status = 'pending' AND s.tenant = $tenant AND (s.score >= $min_p OR o.uid IN $among)
  AND e.status = 'active' AND o.status = 'active'
RETURN uid, s.uid AS pair, s.score AS p, s.evidence AS evidence, endNode(s) = e AS proposed_against,
       e.type_guessed IS NULL AS stated, toString(e.created_at) AS created_at,
       o {.uid, .name, .type, description: coalesce(o.description, ''),
          aliases: coalesce(o.aliases, []), stated: o.type_guessed IS NULL,
          created_at: toString(o.created_at)} AS twin,
  COLLECT {
    MATCH (o)-[r:RELATED_TO]-(n:Entity {tenant: $tenant})
    WHERE n.status = 'active' AND n <> e
    RETURN {predicate: r.predicate, from: startNode(r).name, to: endNode(r).name,
            weight: r.weight, confidence: r.confidence, other: n.uid}
    ORDER BY r.weight DESC, r.confidence DESC, n.name LIMIT $facts
  } AS facts
ORDER BY uid, s.score DESC, o.uid
"""


def twins_read(
    reader: Scope | cypher.ScopedTx, uids: list[str], *, among: bool = False
) -> dict[str, list[dict]]:
    """uid -> its twins, most probable first: {uid, name, type, description, aliases, p, pair,
    review (the pair's page), facts (the twin's heaviest relations), primary (True when this
    uid is the side to show), twin (True)}. With `among`, also the pending pairs between two
    of `uids` that are no twins (twin False, for twins_fold to name). One round trip in the
    caller's tenant; none for no uids."""
    uids = list(dict.fromkeys(u for u in uids if u))
    if not uids:
        return {}
    params = {"uids": uids, "min_p": TWIN_MIN_P, "facts": TWIN_FACTS,
              "among": uids if among else []}  # fmt: skip
    if isinstance(reader, Scope):
        rows = cypher.read(reader, TWINS, **params)
    else:
        rows = reader.run(TWINS, **params)
    found: dict[str, list[dict]] = {}
    for row in rows:
        twin = row["twin"]
        is_twin = pair_is_twin(row["p"], row["evidence"])
        if not is_twin and not (among and twin["uid"] in uids):
            continue
        found.setdefault(row["uid"], []).append(
            {
                "uid": twin["uid"],
                "name": twin["name"],
                "type": twin["type"],
                "description": twin["description"],
                "aliases": twin["aliases"],
                "p": round(row["p"], 4),
                "pair": row["pair"],
                "review": f"/review/pairs/{row['pair']}/",
                "facts": row["facts"] if is_twin else [],
                "primary": _primary(row),
                "twin": is_twin,
            }
        )
    return found


def pair_is_twin(p: float | None, evidence: str | list | None) -> bool:
    """The twin rule: P(same) >= TWIN_MIN_P and no comparison of the pair's evidence (the parts
    the gate stored, as JSON) says they are two (FORBIDDING, NOT_TWIN)."""
    if (p or 0.0) < TWIN_MIN_P:
        return False
    parts = json.loads(evidence) if isinstance(evidence, str) else evidence or []
    return not any(
        FORBIDDING.get(part["comparison"]) == part["level"]
        or (part["comparison"], part["level"]) in NOT_TWIN
        for part in parts
    )


def _primary(row: dict) -> bool:
    """Is the read uid the side to show? A stated type beats one NER guessed; then the older
    entity; then the one the pair was proposed against (it existed first)."""
    twin = row["twin"]
    if row["stated"] != twin["stated"]:
        return row["stated"]
    mine, theirs = _instant(row["created_at"]), _instant(twin["created_at"])
    if mine != theirs and mine and theirs:
        return mine < theirs
    return row["proposed_against"]


def _instant(text: str | None) -> str:
    """A datetime's text that sorts as the instant: Neo4j trims a fraction's trailing zeros
    ('...:01.5Z' would sort after '...:01.512Z'), so the fraction is padded to nanoseconds."""
    found = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$", text or "")
    if not found:
        return text or ""
    return f"{found[1]}.{(found[2] or '').ljust(9, '0')}{found[3]}"


def twins_fold(
    items: list[dict], twins: dict[str, list[dict]], *, among: bool = False
) -> list[dict]:
    """The ranked `items` (dicts with a `uid`) with each pair shown once: when both sides are in
    the list, the primary side stays at the better of the two places and the other is dropped
    (it is under the primary as a twin); every kept item gets `twins` (possibly empty). With
    `among` (twins read so), every kept item gets `pending` too: a pending pair that is no
    twin leaves both items, and the first names the other there (uid, name, type, p, pair,
    review), so two items that may read alike ("Grace Hopper (Person)" twice) say why."""
    place = {item["uid"]: i for i, item in enumerate(items)}
    folded: dict[str, str] = {}  # dropped uid -> the uid it is shown under
    for item in items:
        for twin in twins.get(item["uid"], ()):
            if not twin.get("twin", True):
                continue
            if twin["uid"] in place and twin["primary"] is False:
                # The twin is the primary: this item goes under it, unless it is itself dropped.
                folded.setdefault(item["uid"], twin["uid"])
    # A chain (A~B, B~C) keeps to its one shown end.
    for uid in list(folded):
        seen = {uid}
        while folded[uid] in folded and folded[uid] not in seen:
            seen.add(folded[uid])
            folded[uid] = folded[folded[uid]]
    best: dict[str, int] = {}
    for uid, i in place.items():
        shown = folded.get(uid, uid)
        best[shown] = min(best.get(shown, i), i)
    kept = sorted((i, uid) for uid, i in best.items())
    by_uid = {item["uid"]: item for item in items}
    out, named = [], set()  # the pairs named in `pending` already (on the first of the two)
    for _, uid in kept:
        item = dict(by_uid[uid])
        shown = [uid, *(u for u, under in folded.items() if under == uid)]
        if "ranks" in item:  # the row stands for its twins too: each ranking's best place
            item["ranks"] = dict(item["ranks"])
            for member in shown[1:]:
                for name, at in by_uid[member].get("ranks", {}).items():
                    item["ranks"][name] = min(item["ranks"].get(name, at), at)
        listed, item["twins"], pending = {uid}, [], []
        for member in shown:  # its own twins, then those of the items folded under it
            for twin in twins.get(member, ()):
                if not twin.get("twin", True):
                    pending.append(twin)
                elif twin["uid"] not in listed:
                    listed.add(twin["uid"])
                    item["twins"].append({k: v for k, v in twin.items() if k not in _OWN})
        listed.update(shown)
        if among:
            item["pending"] = [{k: other[k] for k in _PENDING} for other in pending
                               if other["uid"] not in listed and other["pair"] not in named]  # fmt: skip
            named.update(other["pair"] for other in item["pending"])
        out.append(item)
    return out


_OWN = ("primary", "twin")  # how the read placed a twin, not the twin's
_PENDING = ("uid", "name", "type", "p", "pair", "review")


def twins_from_pending(pending: list[dict]) -> list[dict]:
    """The twins among an entity's pending pairs as entity_detail reads them (no round trip
    more): {uid, name, type, p, pair, review}, most probable first, by the same rule."""
    return [
        {**pair["other"], "p": round(pair["score"], 4), "pair": pair["uid"],
         "review": f"/review/pairs/{pair['uid']}/"}
        for pair in pending
        if pair_is_twin(pair["score"], pair.get("evidence"))
    ]  # fmt: skip


def with_twins(reader: Scope | cypher.ScopedTx, items: list[dict]) -> list[dict]:
    """`twins_fold` over `items` with their twins read in one round trip."""
    if not items:
        return items
    return twins_fold(items, twins_read(reader, [item["uid"] for item in items]))
