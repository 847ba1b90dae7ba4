"""MENTIONS from a chunk to the entities its candidates resolved to, written with the chunk.

MERGEd by (surface, start, end), so a replayed chunk adds nothing.
"""

from __future__ import annotations

from apps.graph.cypher import ScopedTx
from apps.resolution.candidates import MentionSpan

MENTIONS_WRITE = """
MATCH (c:Chunk {tenant: $tenant, uid: $chunk_uid}) USING INDEX SEEK c:Chunk(uid)
UNWIND $mentions AS m
MATCH (e:Entity {tenant: $tenant, uid: m.entity}) USING INDEX SEEK e:Entity(uid)
MERGE (c)-[r:MENTIONS {surface: m.surface, start: m.start, end: m.end}]->(e)
ON CREATE SET r.tenant = $tenant, r.created_at = datetime(), r.moved_by = m.moved_by
RETURN count(r) AS n
"""

# Offsets unknown (an agent's fact without spans): the mention still records the surface form.
NO_OFFSET = -1


def do_mentions_write(
    stx: ScopedTx, groups, entity_of: dict[int, str], chunk_uid: str, auto_merges: dict[str, str]
) -> None:
    """MENTIONS from the chunk to each group's entity (`entity_of` by the group's first
    member), one per distinct span, inside the caller's transaction."""
    mentions = []
    for group in groups:
        uid = entity_of[group.members[0]]
        spans = group.mentions or [MentionSpan(group.candidate.name, NO_OFFSET, NO_OFFSET)]
        # A mention the gate merged on its own is marked as moved by that merge (as a
        # reviewer's merge marks the edges it moves), so undoing it moves the mention back.
        moved_by = [auto_merges[uid]] if uid in auto_merges else None
        for span in dict.fromkeys(spans):
            mentions.append({"entity": uid, "surface": span.surface, "start": span.start,
                             "end": span.end, "moved_by": moved_by})  # fmt: skip
    if mentions:
        stx.run(MENTIONS_WRITE, chunk_uid=chunk_uid, mentions=mentions)
