"""The resolution app's service for callers that have no transaction of their own (agents' facts
without text, tests, benchmarks): embed outside, then resolve and write in one transaction. A
caller inside a transaction (a chunk's write) calls `entity_writes.do_resolve_and_write`."""

from __future__ import annotations

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.candidates import EntityCandidate, Provenance, Receipt, RelationCandidate
from apps.resolution.entity_writes import do_resolve_and_write
from apps.resolution.gate import candidates_embed
from apps.resolution.text_evidence import candidates_with_context


def entities_resolve(
    scope: Scope,
    *,
    entities: list[EntityCandidate],
    relations: list[RelationCandidate] = (),
    provenance: Provenance,
) -> list[Receipt]:
    # The entities of one call are named beside each other: each other's context.
    embedded = candidates_with_context(candidates_embed(list(entities)))
    return cypher.write_unit(
        scope,
        lambda stx: do_resolve_and_write(
            stx, entities=embedded, relations=list(relations), provenance=provenance
        ),
    )
