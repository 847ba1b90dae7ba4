"""Reads for cluster review: the tenant's clusters of pending pairs (cluster_finding's rules),
and one cluster with each member's evidence for and against the others."""

from __future__ import annotations

import json
from collections import defaultdict

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.entity_values import values_load, values_rows
from apps.resolution.evidence_words import evidence_rows
from apps.review.cluster_finding import (
    MAX_COMPONENT,
    MIN_MEMBERS,
    cluster_id_of,
    cluster_parts,
    components_of,
    do_cluster_find,
    pairs_among,
)
from apps.review.selectors import mention_sentence

# The pending pairs a listing reads at most: past it, the listing says it is partial.
MAX_PAIRS_SCANNED = 50_000
MEMBER_MENTIONS = 2
WORDS_PER_SIDE = 3

# Every pending pair between two active entities of the tenant, through the (tenant, status)
# index; numbers and names only, the clusters are made from them in Python.
PENDING_PAIRS = """
MATCH (a:Entity)-[s:SAME_AS]->(b:Entity)
USING INDEX SEEK s:SAME_AS(tenant, status)
WHERE s.tenant = $tenant AND s.status = 'pending' AND a.tenant = $tenant
  AND a.status = 'active' AND b.status = 'active'
RETURN s.uid AS uid, s.score AS score, a.uid AS a, b.uid AS b,
       a {.name, .type} AS a_side, b {.name, .type} AS b_side
LIMIT $limit
"""

# The member is matched in the tenant; its chunks and documents are reached from it, not
# looked up by tenant (which would read every chunk of the tenant first).
MEMBERS = """
UNWIND $uids AS uid
MATCH (e:Entity {uid: uid})
USING INDEX SEEK e:Entity(uid)
WHERE e.tenant = $tenant
RETURN e {.uid, .name, .type, .description, .values_json, .value_conflicts_json,
          aliases: coalesce(e.aliases, []), created_at: toString(e.created_at),
          mention_count: COUNT { (e)<-[:MENTIONS]-() },
          relation_count: COUNT { (e)-[:RELATED_TO]-() },
          document_count: size(COLLECT {
            MATCH (e)<-[:MENTIONS]-(:Chunk)-[:PART_OF]->(d:Document)
            RETURN DISTINCT d.uid }),
          mentions: COLLECT {
            MATCH (c:Chunk)-[m:MENTIONS]->(e)
            OPTIONAL MATCH (c)-[:PART_OF]->(d:Document)
            RETURN {surface: m.surface, start: m.start, text: c.text, document_uid: d.uid,
                    document_title: coalesce(d.title, d.source, '')}
            ORDER BY c.created_at DESC, m.start LIMIT $mentions }} AS member,
  COLLECT { MATCH (e)-[s:SAME_AS {status: 'pending'}]->(o:Entity) WHERE o.uid IN $uids
            RETURN s {.uid, .score, .signals, .evidence, .reason, a: e.uid, b: o.uid} } AS pairs
"""


def survivor_rank(node: dict) -> tuple:
    """Who survives a merge of a group: the most mentioned, then the oldest, then the smallest
    uid (so the same members always give the same survivor)."""
    return (-(node.get("mentions") or 0), str(node.get("created_at") or ""), node["uid"])


def pending_clusters(scope: Scope, *, offset: int = 0, limit: int = 50) -> dict:
    """The tenant's clusters, largest first (then by their strongest pair), each with its
    members' names: {clusters, too_large, truncated, results}."""
    rows = cypher.read(scope, PENDING_PAIRS, limit=MAX_PAIRS_SCANNED)
    names: dict[str, dict] = {}
    for r in rows:
        names[r["a"]], names[r["b"]] = r["a_side"], r["b_side"]
    clusters, too_large = [], 0
    for component in components_of(rows):
        if len(component) > MAX_COMPONENT:
            too_large += 1
            continue
        pairs = pairs_among(rows, component)
        for part in cluster_parts(component, pairs):
            if len(part) < MIN_MEMBERS:
                continue
            inside = pairs_among(pairs, part)
            members = sorted(({"uid": u, **names[u]} for u in part),
                             key=lambda m: (m["name"] or "", m["uid"]))  # fmt: skip
            clusters.append({
                "id": cluster_id_of(part), "size": len(part), "members": members,
                "pairs": len(inside), "component_size": len(component),
                "top_score": max((p["score"] or 0.0 for p in inside), default=0.0),
            })  # fmt: skip
    clusters.sort(key=lambda c: (-c["size"], -c["top_score"], c["id"]))
    return {"clusters": len(clusters), "too_large": too_large,
            "truncated": len(rows) >= MAX_PAIRS_SCANNED,
            "results": clusters[offset : offset + limit]}  # fmt: skip


def _cluster_read(stx, cluster_id: str) -> dict | None:
    found = do_cluster_find(stx, cluster_id=cluster_id)
    if not found["found"]:
        return None
    rows = stx.run(MEMBERS, uids=found["members"], mentions=MEMBER_MENTIONS)
    return {**found, "rows": rows}


def cluster_detail(scope: Scope, *, cluster_id: str) -> dict | None:
    """One cluster as the graph has it now, its members side by side with the evidence for and
    against each; None when no cluster of this tenant has this id (any more)."""
    found = cypher.read_unit(scope, lambda stx: _cluster_read(stx, cluster_id))
    if found is None:
        return None
    members = {r["member"]["uid"]: r["member"] for r in found["rows"]}
    pairs = [p for r in found["rows"] for p in r["pairs"]]
    survivor = min(found["nodes"].values(), key=survivor_rank)["uid"]
    for pair in pairs:
        signals = json.loads(pair.pop("signals") or "{}")
        evidence = json.loads(pair.pop("evidence")) if pair.get("evidence") else None
        pair["evidence"] = evidence_rows(evidence, signals)
    apart = defaultdict(list)
    for a, b in found["not_same"]:
        apart[a].append(members[b]["name"])
        apart[b].append(members[a]["name"])
    disagreements = _value_disagreements(members)
    shown = []
    for uid, m in members.items():
        values = values_load(m.pop("values_json", None))
        conflicts = values_load(m.pop("value_conflicts_json", None))
        m["value_rows"] = values_rows(values, conflicts)
        for row in m["value_rows"]:
            row["disagree"] = disagreements[uid].get(row["key"], [])
        m["conflicting"] = any(r["disagree"] or r["conflicts"] for r in m["value_rows"])
        m["not_same"] = apart[uid]
        m["survivor"] = uid == survivor
        m["evidence"] = [_pair_for(p, uid, members) for p in pairs if uid in (p["a"], p["b"])]
        m["evidence"].sort(key=lambda e: (-(e["score"] or 0.0), e["other_name"] or ""))
        for mention in m["mentions"]:
            mention["sentence"] = mention_sentence(
                mention.pop("text") or "", mention.pop("start"), mention["surface"]
            )
        shown.append(m)
    shown.sort(key=lambda m: (not m["survivor"], -m["mention_count"], m["name"] or "", m["uid"]))
    return {
        "id": cluster_id,
        "size": len(shown),
        "component_size": found["component_size"],
        "survivor_uid": survivor,
        "members": shown,
        "pairs": sorted(pairs, key=lambda p: (-(p["score"] or 0.0), p["uid"])),
        "not_same": [sorted(ns) for ns in found["not_same"]],
    }


def _pair_for(pair: dict, uid: str, members: dict) -> dict:
    other = pair["b"] if pair["a"] == uid else pair["a"]
    rows = pair["evidence"]
    return {
        "pair_uid": pair["uid"], "other_uid": other, "other_name": members[other]["name"],
        "score": pair["score"], "reason": pair["reason"] or "",
        "words_for": [r["words"] for r in rows if r["direction"] == "for"][:WORDS_PER_SIDE],
        "words_against": [r["words"] for r in rows if r["direction"] == "against"][:WORDS_PER_SIDE],
    }  # fmt: skip


def _value_disagreements(members: dict) -> dict[str, dict[str, list[dict]]]:
    """For each member and value key: the other members that hold a different value for it."""
    held: dict[str, list[tuple[str, object]]] = defaultdict(list)
    for uid, m in members.items():
        for key, value in values_load(m.get("values_json")).items():
            held[key].append((uid, value))
    out: dict[str, dict[str, list[dict]]] = defaultdict(dict)
    for key, holders in held.items():
        for uid, value in holders:
            others = [{"name": members[o]["name"], "value": v} for o, v in holders
                      if o != uid and _same_value(v) != _same_value(value)]  # fmt: skip
            if others:
                out[uid][key] = others
    return out


def _same_value(value: object) -> str:
    return str(value).strip().casefold()
