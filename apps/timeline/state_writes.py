"""The writes the write rule is made of, each one query for many rows (UNWIND): entities locked,
States appended or put between two others, `seen_last` moved, the entity's current values set.
Callers hold one write transaction for the batch and decide what to write in Python."""

from __future__ import annotations

# Writing a property takes the entity's write lock: concurrent batches on one entity queue here,
# and what they read after it is what the writer before them committed. Keys come sorted, so two
# batches lock in one order.
# A key is an exact identifier: a new key that names exactly one entity of text (no kind, the
# kind's POLE+O type, the key as its normalized name or the gate's name key) becomes that
# entity's key, so a row and a mention meet in one entity; a key naming several is a new entity
# proposed as the same as each of them (pending review, PROPOSALS at most), never a silent
# duplicate.
ENTITIES_LOCK = """
UNWIND $entities AS row
CALL (row) {
  OPTIONAL MATCH (keyed:Entity {tenant: $tenant, kind: row.kind, key: row.key})
  USING INDEX SEEK keyed:Entity(tenant, kind, key)
  WITH row, keyed WHERE keyed IS NULL
  CALL (row) {
    MATCH (x:Entity {tenant: $tenant, norm_name: row.norm})
    USING INDEX SEEK x:Entity(tenant, norm_name)
    WHERE x.type = row.type AND x.status = 'active' AND x.kind IS NULL
    RETURN x
    UNION
    MATCH (:EntityKey {tenant: $tenant, type: row.type, norm: row.norm})-[:KEY_OF]->
          (x:Entity {tenant: $tenant, status: 'active'})
    WHERE x.kind IS NULL
    RETURN x
  }
  WITH row, x ORDER BY x.created_at, x.uid
  WITH row, collect(x) AS named
  CALL (row, named) {
    WITH named[0] AS x WHERE size(named) = 1
    SET x.kind = row.kind, x.key = row.key, x.text_values_json = coalesce(x.values_json, '{}'),
        x.created_at = CASE WHEN row.t < x.created_at THEN row.t ELSE x.created_at END
  }
  RETURN CASE WHEN size(named) > 1 THEN [x IN named | x.uid][..$proposals] ELSE [] END AS same
  UNION
  RETURN [] AS same
}
WITH row, collect(same) AS found
MERGE (e:Entity {tenant: $tenant, kind: row.kind, key: row.key})
ON CREATE SET e.uid = randomUUID(), e.name = row.key, e.norm_name = row.norm,
              e.type = row.type, e.status = 'active', e.aliases = [], e.norm_aliases = [],
              e.description = '', e.created_at = row.t, e.recorded_at = datetime(),
              e.updated_at = datetime(), e.created_by = $by
SET e._lock = true
REMOVE e._lock
WITH row, e, reduce(all = [], f IN found | all + f) AS same
CALL (row, e, same) {
  UNWIND same AS uid
  MATCH (x:Entity {tenant: $tenant, uid: uid})
  USING INDEX SEEK x:Entity(uid)
  // The entity of text is the one a confirm merges: the keyed entity survives, kind and key.
  MERGE (x)-[s:SAME_AS]->(e)
  ON CREATE SET s.uid = randomUUID(), s.tenant = $tenant, s.status = 'pending', s.score = 0.5,
                s.signals = '{}', s.evidence = '[]', s.agent = $by, s.created_at = datetime(),
                s.reason = 'the key of ' + row.kind + ' ' + row.key + ' names ' +
                           toString(size(same)) + ' entities of text: which one is it?'
}
WITH row, e
OPTIONAL MATCH (s:State {tenant: $tenant, uid: e.last_state})
USING INDEX SEEK s:State(uid)
// A batch's earliest row of an entity before its current State is late: the States it falls in
// and before are read here, in the same query (what STATES_AROUND reads for later waves). Most
// often it falls in the State before the current one: that one is read over its NEXT link, and
// the two index seeks are made only for a row before it. `after` is null when it is the current
// State (`after_uid` says which; the caller has that State already).
OPTIONAL CALL (row, s) {
  WITH row, s WHERE row.t < s.valid_from
  OPTIONAL MATCH (p:State)-[:NEXT]->(s)
  WITH row, s, p ORDER BY p.valid_from DESC LIMIT 1
  CALL (row, s, p) {
    WITH row, s, p WHERE p IS NULL OR p.valid_from <= row.t
    RETURN p AS a, s AS n
    UNION ALL
    WITH row, s, p WHERE p.valid_from > row.t
    CALL (row, s) {
      OPTIONAL MATCH (a:State {tenant: $tenant, entity: s.entity})
      USING INDEX SEEK a:State(tenant, entity, valid_from)
      WHERE a.valid_from <= row.t
      RETURN a ORDER BY a.tenant DESC, a.entity DESC, a.valid_from DESC LIMIT 1
    }
    CALL (row, s) {
      MATCH (n:State {tenant: $tenant, entity: s.entity})
      USING INDEX SEEK n:State(tenant, entity, valid_from)
      WHERE n.valid_from > row.t
      RETURN n ORDER BY n.tenant, n.entity, n.valid_from LIMIT 1
    }
    RETURN a, n
  }
  RETURN a, n
}
RETURN row.kind AS kind, row.key AS key, e.uid AS uid, e.text_values_json AS text_values,
       s {.uid, .valid_from, .seen_last, .values_json, .relations_json} AS state,
       a {.uid, .valid_from, .seen_last, .values_json, .relations_json} AS around,
       CASE WHEN n <> s THEN n {.uid, .valid_from, .seen_last, .values_json, .relations_json}
       END AS after, n.uid AS after_uid
"""

STATES_APPEND = """
UNWIND $states AS row
MATCH (e:Entity {tenant: $tenant, uid: row.entity})
USING INDEX SEEK e:Entity(uid)
CREATE (s:State {uid: row.uid, tenant: $tenant, entity: row.entity, kind: row.kind, key: row.key,
                 valid_from: row.valid_from, valid_to: row.valid_to, seen_last: row.seen_last,
                 values_json: row.values_json, relations_json: row.relations_json, by: $by,
                 entry: row.entry, words: row.words, recorded_at: datetime(),
                 created_at: datetime()})
CREATE (e)-[:HAS_STATE]->(s)
WITH row, s
CALL (row, s) {
  MATCH (prev:State {tenant: $tenant, uid: row.prev})
  USING INDEX SEEK prev:State(uid)
  SET prev.valid_to = row.valid_from
  CREATE (prev)-[:NEXT]->(s)
}
CALL (row, s) {
  MATCH (n:Entry {tenant: $tenant, uid: row.entry})
  USING INDEX SEEK n:Entry(uid)
  CREATE (s)-[:FROM]->(n)
}
"""

# A late row between two States: the one link that is replaced, not kept. The slotted runtime:
# under the pipelined one (the default) this query took 1.3-2.7 s for 500 rows and more with every
# batch, against 0.06-0.23 s, in the same plan (bench/timeline_rows.py, 2 December 2026).
STATES_INSERT = """
UNWIND $states AS row
MATCH (e:Entity {tenant: $tenant, uid: row.entity})
USING INDEX SEEK e:Entity(uid)
MATCH (next:State {tenant: $tenant, uid: row.next})
USING INDEX SEEK next:State(uid)
CREATE (s:State {uid: row.uid, tenant: $tenant, entity: row.entity, kind: row.kind, key: row.key,
                 valid_from: row.valid_from, valid_to: next.valid_from,
                 values_json: row.values_json, relations_json: row.relations_json, by: $by,
                 entry: row.entry, words: row.words, recorded_at: datetime(),
                 created_at: datetime()})
CREATE (e)-[:HAS_STATE]->(s), (s)-[:NEXT]->(next)
WITH row, s, next
CALL (row, s, next) {
  MATCH (prev:State {tenant: $tenant, uid: row.prev})-[link:NEXT]->(next)
  USING INDEX SEEK prev:State(uid)
  DELETE link
  SET prev.valid_to = row.valid_from
  CREATE (prev)-[:NEXT]->(s)
}
CALL (row, s) {
  MATCH (n:Entry {tenant: $tenant, uid: row.entry})
  USING INDEX SEEK n:Entry(uid)
  CREATE (s)-[:FROM]->(n)
}
"""

# A late row that says what the next State says: that State starts earlier, and its old start
# becomes its seen_last when it has none (a row said it then).
STATES_START_EARLIER = """
UNWIND $moves AS row
MATCH (next:State {tenant: $tenant, uid: row.next})
USING INDEX SEEK next:State(uid)
SET next.seen_last = coalesce(next.seen_last, next.valid_from), next.valid_from = row.t
WITH row
MATCH (prev:State {tenant: $tenant, uid: row.prev})
USING INDEX SEEK prev:State(uid)
SET prev.valid_to = row.t
"""

STATES_SEEN = """
UNWIND $seen AS row
MATCH (s:State {tenant: $tenant, uid: row.state})
USING INDEX SEEK s:State(uid)
SET s.seen_last = CASE WHEN s.seen_last IS NULL OR s.seen_last < row.t THEN row.t
                       ELSE s.seen_last END
"""

ENTITIES_SET = """
UNWIND $entities AS row
MATCH (e:Entity {tenant: $tenant, uid: row.uid})
USING INDEX SEEK e:Entity(uid)
SET e.updated_at = datetime(),
    e.created_at = CASE WHEN row.first IS NOT NULL AND row.first < e.created_at THEN row.first
                        ELSE e.created_at END
FOREACH (_ IN CASE WHEN row.state IS NULL THEN [] ELSE [1] END |
  SET e.last_state = row.state, e.values_json = row.values_json, e.current_since = row.since)
// The write that changes the embedded text takes the vector out of the index and marks the
// entity to wait for embed() (apps/timeline/meaning.py); other values keep the vector.
FOREACH (_ IN CASE WHEN row.embed_hash IS NOT NULL AND coalesce(e.embed_hash, '') <> row.embed_hash
              THEN [1] ELSE [] END |
  SET e.embed_hash = row.embed_hash REMOVE e.text_vector, e.text_vector_model)
FOREACH (_ IN CASE WHEN row.embed_hash IS NOT NULL AND row.embed_hash <> ''
                        AND e.text_vector IS NULL THEN [1] ELSE [] END |
  SET e:KindTextToEmbed)
"""

# The late rows of one wave, each with the State it falls in and the one after it.
STATES_AROUND = """
UNWIND $rows AS row
CALL (row) {
  OPTIONAL MATCH (s:State {tenant: $tenant, entity: row.entity})
  USING INDEX SEEK s:State(tenant, entity, valid_from)
  WHERE s.valid_from <= row.t
  RETURN s ORDER BY s.tenant DESC, s.entity DESC, s.valid_from DESC LIMIT 1
}
CALL (row) {
  OPTIONAL MATCH (n:State {tenant: $tenant, entity: row.entity})
  USING INDEX SEEK n:State(tenant, entity, valid_from)
  WHERE n.valid_from > row.t
  RETURN n ORDER BY n.tenant, n.entity, n.valid_from LIMIT 1
}
RETURN row.index AS index,
       s {.uid, .valid_from, .seen_last, .values_json, .relations_json} AS state,
       n {.uid, .valid_from, .seen_last, .values_json, .relations_json} AS next
"""

ENTRIES_FOUND = """
MATCH (n:Entry {tenant: $tenant}) WHERE n.uid IN $uids
RETURN n.uid AS uid
"""
