"""What a deleted document taught entities that stay, taken back (apps/ingestion/document_deletion.py
calls these inside its locked steps):
- the gate's automatic merges of its mentions: the aliases, description and values each brought
  come out of the entity, and the merge's record goes;
- the values learned from its text (`text:<key>`, apps/resolution/text_evidence.py): a value whose
  recorded source is the document or one of its chunks goes, with that source. An entity records
  one source per learned value (the first that taught it), so a value another document also
  taught goes too; that document's next ingestion would teach it again.
Each entity is write-locked before its values are read, so a merge or ingestion writing it at
the same time is not overwritten by values read before it."""

from __future__ import annotations

from apps.graph.cypher import ScopedTx
from apps.resolution.entity_values import values_dump, values_load, values_uncombined

MERGES_BATCH = 100

# The entity is locked before it is read (the record is this deletion's own).
AUTO_MERGES_OF = """
MATCH (am:AutoMerge {tenant: $tenant}) WHERE am.document_uid = $uid
WITH am LIMIT $limit
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: am.entity_uid}) USING INDEX SEEK e:Entity(uid)
SET e._lock = true
REMOVE e._lock
RETURN am {.uid, .absorbed_aliases, .absorbed_norm_aliases, .absorbed_description,
           .filled_description, .values_json, .before_values_json,
           .before_conflicts_json} AS merge,
       e {.uid, .values_json, .value_conflicts_json} AS entity
"""
AUTO_MERGE_UNDO = """
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: $entity}) USING INDEX SEEK e:Entity(uid)
FOREACH (x IN CASE WHEN e IS NULL THEN [] ELSE [e] END |
  SET x.aliases = [a IN coalesce(x.aliases, []) WHERE NOT a IN $aliases],
      x.norm_aliases = [a IN coalesce(x.norm_aliases, []) WHERE NOT a IN $norm_aliases],
      x.absorbed_descriptions = [a IN coalesce(x.absorbed_descriptions, [])
                                 WHERE a <> coalesce($description, '')],
      x.description = CASE WHEN $filled THEN '' ELSE x.description END,
      x.description_embedding = CASE WHEN $filled THEN null ELSE x.description_embedding END,
      x.values_json = $values_json, x.value_conflicts_json = $conflicts_json,
      x.updated_at = datetime())
WITH 1 AS one
MATCH (am:AutoMerge {tenant: $tenant, uid: $merge}) USING INDEX SEEK am:AutoMerge(uid)
DETACH DELETE am
"""
# Sources are chunk uids, a document uid or "description" (entity_writes._source), so a
# source's uid inside the JSON text is that source.
TAUGHT = """
UNWIND $entities AS eu
MATCH (e:Entity {tenant: $tenant, uid: eu}) USING INDEX SEEK e:Entity(uid)
WHERE any(s IN $sources WHERE e.value_sources_json CONTAINS s)
SET e._lock = true
REMOVE e._lock
RETURN e.uid AS uid, e.values_json AS values_json, e.value_sources_json AS sources_json
"""
UNTAUGHT = """
UNWIND $rows AS row
MATCH (e:Entity {tenant: $tenant, uid: row.uid}) USING INDEX SEEK e:Entity(uid)
SET e.values_json = row.values_json, e.value_sources_json = row.sources_json,
    e.updated_at = datetime()
"""


def do_auto_merges_undo(stx: ScopedTx, *, uid: str) -> int:
    """Take back up to MERGES_BATCH of the gate's merges of document `uid`'s mentions, in the
    caller's transaction (which holds the deletion's locks); how many. Call again until 0."""
    undone = 0
    for row in stx.run(AUTO_MERGES_OF, uid=uid, limit=MERGES_BATCH):
        merge, entity = row["merge"], row["entity"] or {}
        before = (values_load(merge.get("before_values_json")),
                  values_load(merge.get("before_conflicts_json")))  # fmt: skip
        values, conflicts = values_uncombined(
            values_load(entity.get("values_json")), values_load(entity.get("value_conflicts_json")),
            before=before, taken=values_load(merge.get("values_json")), taken_conflicts={},
        )  # fmt: skip
        stx.run(
            AUTO_MERGE_UNDO, merge=merge["uid"], entity=entity.get("uid"),
            aliases=merge.get("absorbed_aliases") or [],
            norm_aliases=merge.get("absorbed_norm_aliases") or [],
            description=merge.get("absorbed_description"),
            filled=bool(merge.get("filled_description")),
            values_json=values_dump(values), conflicts_json=values_dump(conflicts),
        )  # fmt: skip
        undone += 1
    return undone


def do_learned_values_forget(stx: ScopedTx, *, entities: list[str], sources: list[str]) -> int:
    """Of `entities`, the values learned from `sources` (a document's uid and its chunks' uids)
    go with their sources, in the caller's transaction; how many values went."""
    forgotten, rows = 0, []
    for row in stx.run(TAUGHT, entities=entities, sources=sources):
        values, taught = values_load(row["values_json"]), values_load(row["sources_json"])
        gone = [key for key, source in taught.items() if source in sources]
        if not gone:
            continue  # a uid inside some other text, not a source
        forgotten += sum(1 for key in gone if key in values)
        kept = {k: v for k, v in values.items() if k not in gone}
        rows.append({"uid": row["uid"], "values_json": values_dump(kept),
                     "sources_json": values_dump({k: s for k, s in taught.items()
                                                  if k not in gone})})  # fmt: skip
    if rows:
        stx.run(UNTAUGHT, rows=rows)
    return forgotten
