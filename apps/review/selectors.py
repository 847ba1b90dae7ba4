"""Reads for reviewers: the queue of pending pairs, one pair side by side, an entity's merge
history and neighbourhood. Each is one Cypher round trip, whatever the sizes."""

from __future__ import annotations

import json
from collections import Counter

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.entity_values import values_load, values_rows
from apps.resolution.evidence_words import evidence_rows
from apps.review.merge_records import record_load
from apps.review.merges import MERGED_EDGE, SURVIVOR_COLLECTIONS, merge_plan, names_absorbed
from memoryproject.sentences import sentence_at

QUEUE_ORDERS = ("impact", "score")
PAIR_MENTIONS = 8
PAIR_RELATIONS = 15
NEIGHBOURS = 24
HISTORY = 50

# Impact: the mentions and relations that a wrong decision would misplace, both sides together.
# Degree counts by type come from the node's degree store, so ordering 1,000 pairs is cheap.
QUEUE = """
CALL () {
  MATCH ()-[s:SAME_AS]->()
  USING INDEX SEEK s:SAME_AS(tenant, status)
  WHERE s.tenant = $tenant AND s.status = 'pending'
  RETURN count(s) AS pending
}
CALL () {
  MATCH (a:Entity)-[s:SAME_AS]->(b:Entity)
  USING INDEX SEEK s:SAME_AS(tenant, status)
  WHERE s.tenant = $tenant AND s.status = 'pending' AND a.tenant = $tenant
    AND ($type IS NULL OR a.type = $type) AND ($min_score IS NULL OR s.score >= $min_score)
    AND ($max_score IS NULL OR s.score < $max_score) AND NOT s.uid IN $skipped
  WITH a, b, s,
       COUNT { (a)<-[:MENTIONS]-() } + COUNT { (b)<-[:MENTIONS]-() } AS mentions,
       COUNT { (a)-[:RELATED_TO]-() } + COUNT { (b)-[:RELATED_TO]-() } AS relations
  WITH a, b, s, mentions, relations,
       CASE WHEN $order = 'score' THEN s.score ELSE mentions + relations END AS key
  ORDER BY key DESC, s.score DESC, s.uid
  // Sorted on numbers only; names and uids are read for the rows of the page alone.
  WITH collect([a, b, s, mentions, relations]) AS rows
  RETURN size(rows) AS matching,
         [r IN rows[$offset..$offset + $limit] |
          {uid: r[2].uid, score: r[2].score, type: r[0].type, mentions: r[3], relations: r[4],
           impact: r[3] + r[4], left: {uid: r[0].uid, name: r[0].name},
           right: {uid: r[1].uid, name: r[1].name}}] AS pairs
}
RETURN pending, matching, pairs,
       COUNT { MATCH (am:AutoMerge {tenant: $tenant, status: 'suspect'}) } AS suspect
"""

_SIDE = """
  e {.uid, .name, .type, .norm_name, .description, .status, .values_json, .value_conflicts_json,
     aliases: coalesce(e.aliases, []), norm_aliases: coalesce(e.norm_aliases, []),
     absorbed_descriptions: coalesce(e.absorbed_descriptions, []),
     mention_count: COUNT { (e)<-[:MENTIONS]-() },
     relation_count: COUNT { (e)-[:RELATED_TO]-() },
     mentions: COLLECT {
       MATCH (c:Chunk {tenant: $tenant})-[m:MENTIONS]->(e)
       OPTIONAL MATCH (c)-[:PART_OF]->(d:Document {tenant: $tenant})
       RETURN {surface: m.surface, start: m.start, end: m.end, text: c.text,
               document_uid: d.uid, document_title: coalesce(d.title, d.source, '')}
       ORDER BY c.created_at DESC, m.start LIMIT $mentions },
     relations: COLLECT {
       MATCH (e)-[r:RELATED_TO]-(o:Entity {tenant: $tenant})
       RETURN {predicate: r.predicate, out: startNode(r) = e, weight: r.weight,
               confidence: r.confidence, other: o {.uid, .name, .type}}
       ORDER BY r.weight DESC, o.name LIMIT $relations }}
"""

PAIR = (
    """
MATCH (a:Entity)-[s:SAME_AS {uid: $uid}]->(b:Entity)
USING INDEX SEEK s:SAME_AS(uid)
WHERE s.tenant = $tenant AND a.tenant = $tenant AND b.tenant = $tenant
CALL (a, b) {
  UNWIND [a, b] AS e
  RETURN collect("""
    + _SIDE
    + """) AS sides
}
CALL (a, b) {
  MATCH (a)-[r]-(o) WHERE o <> a
  RETURN collect("""
    + MERGED_EDGE
    + """) AS merged_edges
}
CALL (a, b) {
  RETURN"""
    + SURVIVOR_COLLECTIONS
    + """
}
RETURN s {.uid, .status, .score, .signals, .evidence, .reason, .decided_by,
          decided_at: toString(s.decided_at), created_at: toString(s.created_at)} AS pair,
       sides, merged_edges, related, mentions, pending, not_same, shared
LIMIT 1
"""
)

# A reviewer's merges, and the gate's own (AutoMerge: a mention merged on its evidence, undone
# through the suspect merges' page, so it has no Unmerge button here). `collective`: a pending
# pair the gate merged on new evidence (review.collective_merges), undone here like a reviewer's.
HISTORY_OF = """
CALL () {
  MATCH (m:Merge {tenant: $tenant})
  WHERE m.survivor_uid = $uid OR m.merged_uid = $uid
  RETURN m {.uid, .survivor_uid, .merged_uid, .survivor_name, .merged_name, .actor, .status,
            .undone_by, .score, .record, automatic: false,
            collective: coalesce(m.automatic, false), created_at: toString(m.created_at),
            undone_at: toString(m.undone_at)} AS merge, m.created_at AS at
  UNION ALL
  MATCH (am:AutoMerge {tenant: $tenant, entity_uid: $uid})
  RETURN {uid: am.uid, survivor_uid: am.entity_uid, merged_uid: null,
          survivor_name: am.entity_name, merged_name: am.name,
          actor: 'the gate, for ' + coalesce(am.agent, 'an agent'), status: am.status,
          undone_by: am.decided_by, score: am.probability, record: null, automatic: true,
          collective: false,
          created_at: toString(am.created_at), undone_at: toString(am.decided_at)} AS merge,
         am.created_at AS at
}
RETURN merge ORDER BY at DESC LIMIT $limit
"""

NEIGHBOURHOOD = """
MATCH (e:Entity {tenant: $tenant, uid: $uid}) USING INDEX SEEK e:Entity(uid)
RETURN e {.uid, .name, .type, .status} AS centre,
  COLLECT { MATCH (e)-[r:RELATED_TO|SAME_AS|NOT_SAME|MERGED_INTO]-(o:Entity {tenant: $tenant})
            RETURN {kind: type(r), label: coalesce(r.predicate, r.status, ''),
                    out: startNode(r) = e, weight: coalesce(r.weight, 1),
                    other: o {.uid, .name, .type, .status}}
            ORDER BY coalesce(r.weight, 1) DESC, o.name LIMIT $limit } AS edges
"""


def pending_queue(
    scope: Scope,
    *,
    type: str | None = None,
    min_score: float | None = None,
    max_score: float | None = None,
    order: str = "impact",
    skipped: list[str] | None = None,
    offset: int = 0,
    limit: int = 50,
) -> dict:
    """Pending pairs of the tenant, ordered by impact (or score), filtered by the left entity's
    type and a score band; `pending` counts all of them, `matching` those the filters keep,
    `suspect` the suspect merges (suspect_merges)."""
    row = cypher.read(
        scope, QUEUE, type=type, min_score=min_score, max_score=max_score,
        order=order if order in QUEUE_ORDERS else "impact", skipped=list(skipped or []),
        offset=offset, limit=limit,
    )[0]  # fmt: skip
    return {"pending": row["pending"], "matching": row["matching"], "pairs": row["pairs"],
            "suspect": row["suspect"]}  # fmt: skip


def mention_sentence(text: str, start: int | None, surface: str) -> str:
    """The sentence of the chunk that holds the mention (found by its surface form when the
    offsets are unknown)."""
    if not text:
        return ""
    if start is None or start < 0:
        start = max(text.find(surface or ""), 0)
    return sentence_at(text, start)


def pair_detail(scope: Scope, *, uid: str) -> dict | None:
    """A pair side by side with what a merge would change; None outside this tenant."""
    rows = cypher.read(scope, PAIR, uid=uid, mentions=PAIR_MENTIONS, relations=PAIR_RELATIONS)
    if not rows:
        return None
    row = rows[0]
    pair = row["pair"]
    pair["signals"] = json.loads(pair["signals"]) if pair.get("signals") else {}
    evidence = json.loads(pair.pop("evidence")) if pair.get("evidence") else None
    pair["evidence"] = evidence_rows(evidence, pair["signals"])
    merged, survivor = row["sides"]
    for side in (merged, survivor):
        side["values"] = values_load(side.pop("values_json", None))
        side["value_conflicts"] = values_load(side.pop("value_conflicts_json", None))
        side["value_rows"] = values_rows(side["values"], side["value_conflicts"])
        for m in side["mentions"]:
            m["sentence"] = mention_sentence(m["text"] or "", m["start"], m["surface"])
    absorbed = names_absorbed(merged, survivor)
    mine = {k: row[k] for k in ("related", "mentions", "pending", "not_same", "shared")}
    plan = merge_plan(row["merged_edges"], mine)
    moves = plan["out"] + plan["in"]
    by_type = [{"type": t, "n": n}
               for t, n in sorted(Counter(m["type"] for m in moves).items())]  # fmt: skip
    return {
        **pair,
        "merged": merged,
        "survivor": survivor,
        "change": {
            "edges_moved": len(moves),
            "by_type": by_type,
            "relations_combined": len(plan["combos"]),
            "edges_dropped": len(plan["dropped"]),
            "aliases_absorbed": absorbed["aliases"],
            "description_taken": bool(absorbed["description"]),
        },
    }


def merge_history(scope: Scope, *, uid: str) -> list[dict]:
    """The merges an entity took part in, newest first, with who and when."""
    rows = cypher.read(scope, HISTORY_OF, uid=uid, limit=HISTORY)
    out = []
    for row in rows:
        merge = row["merge"]
        record = record_load(merge.pop("record"))
        merge["moved"] = sum((record.get("moved") or {}).values())
        merge["aliases_absorbed"] = (record.get("absorbed") or {}).get("aliases", [])
        out.append(merge)
    return out


def neighbourhood(scope: Scope, *, uid: str) -> dict | None:
    rows = cypher.read(scope, NEIGHBOURHOOD, uid=uid, limit=NEIGHBOURS)
    return rows[0] if rows else None
