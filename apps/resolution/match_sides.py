"""What the gate reads of a match (an entity it may be the same as): its fields for scoring
(SIDE_FIELDS, with `e` bound and `$description_embedding` given) and the entities named beside
it (NEIGHBOURS), read alike by the per-name gate, the window's gate, the block re-resolution and
the rescoring of pairs."""

# The entities named beside a match: in a few of its chunks, and related to it (its neighbours,
# compared by name: comparisons.context), bounded so a much-named entity costs no more. Which
# few depends on the text only (the chunks' content hashes, the neighbours most often named
# beside it, then by name), not on the order of writes or the store's layout, while an entity
# has at most CONTEXT_SCAN mentioning chunks (past it, the first CONTEXT_SCAN the store gives).
CONTEXT_CHUNKS = 6
CONTEXT_SCAN = 64
CONTEXT_NAMES = 24
CONTEXT_PARAMS = {"context_chunks": CONTEXT_CHUNKS, "context_names": CONTEXT_NAMES,
                  "context_scan": CONTEXT_SCAN}  # fmt: skip
NEIGHBOURS = """
  context: COLLECT {
    CALL (e) {
      MATCH (e)<-[:MENTIONS]-(c) WHERE 'Chunk' IN labels(c) AND c.tenant = $tenant
      WITH DISTINCT c LIMIT $context_scan
      WITH c ORDER BY c.content_hash, c.uid LIMIT $context_chunks
      MATCH (c)-[:MENTIONS]->(o)
      WHERE o <> e AND 'Entity' IN labels(o) AND o.tenant = $tenant AND o.status = 'active'
      RETURN o
      UNION ALL
      MATCH (e)-[:RELATED_TO]-(o)
      WHERE o <> e AND 'Entity' IN labels(o) AND o.tenant = $tenant AND o.status = 'active'
      RETURN o LIMIT $context_scan
    }
    WITH o.type AS type, o.name AS name, count(*) AS times ORDER BY times DESC, type, name
    RETURN [type, name] AS neighbour LIMIT $context_names
  }"""
SIDE_FIELDS = (
    """
  uid: e.uid, name: e.name, aliases: coalesce(e.aliases, []), values_json: e.values_json, conflicts_json: e.value_conflicts_json,
  parsed: e.name_parsed, type: e.type, type_guessed: coalesce(e.type_guessed, false),
  semantic: CASE WHEN e.description_embedding IS NOT NULL AND $description_embedding IS NOT NULL
                 THEN 2 * vector.similarity.cosine(e.description_embedding, $description_embedding) - 1
                 ELSE null END,"""
    + NEIGHBOURS
)
