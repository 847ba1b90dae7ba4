"""Argument components written to the long-term graph, inside the window's transaction:
(:Argument {kind, text, start, end, document_uid, chunk_uid, section_path, agent, created_at})
-[:STATED_IN]->(:Chunk), and -[:ABOUT]->(:Entity) for each entity the chunk mentions inside the
component's offsets. MERGEd on a uid derived from the chunk and the offset (a replay adds
nothing). Erased with their document (`document_deletion`)."""

from __future__ import annotations

from apps.graph.cypher import ScopedTx
from apps.ingestion.arguments import ArgumentSpan, argument_uid

ARGUMENTS_MERGE = """
UNWIND $arguments AS x
MATCH (c:Chunk {tenant: $tenant, uid: x.chunk}) USING INDEX SEEK c:Chunk(uid)
MERGE (a:Argument {tenant: $tenant, uid: x.uid})
ON CREATE SET a.kind = x.kind, a.text = x.text, a.start = x.start, a.end = x.end,
              a.document_uid = c.document_uid, a.chunk_uid = c.uid,
              a.section_path = c.section_path, a.position = c.position, a.agent = $agent,
              a.created_at = datetime()
MERGE (a)-[s:STATED_IN]->(c)
ON CREATE SET s.tenant = $tenant
WITH a, c, x
CALL (a, c, x) {
  OPTIONAL MATCH (c)-[m:MENTIONS]->(e:Entity {tenant: $tenant})
  WHERE m.start >= x.start AND m.end <= x.end
  WITH DISTINCT a, e WHERE e IS NOT NULL
  MERGE (a)-[r:ABOUT]->(e)
  ON CREATE SET r.tenant = $tenant
  RETURN count(r) AS about
}
RETURN count(a) AS arguments, sum(about) AS about
"""


def do_arguments_write(stx: ScopedTx, stated: list[tuple[str, list[ArgumentSpan]]]) -> int:
    """Writes each (chunk uid, its arguments) after the chunk's mentions, in the caller's
    transaction; one round trip, none when there is nothing to write. Returns how many."""
    rows = [{"uid": argument_uid(chunk, a.start), "chunk": chunk, "kind": a.kind,
             "text": a.text, "start": a.start, "end": a.end}
            for chunk, arguments in stated for a in arguments]  # fmt: skip
    if not rows:
        return 0
    found = stx.run(ARGUMENTS_MERGE, arguments=rows, agent=stx.scope.actor)
    return found[0]["arguments"] if found else 0
