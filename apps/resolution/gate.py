"""The resolution gate: find an entity candidate's possible matches through the indexes, score
them, and decide merge, pending review, or create.

Blocking is by index only (the name key, full-text on names and aliases, vector on embeddings),
never a scan of a type, so the cost of one decision does not grow with the tenant's graph.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from apps.graph.cypher import ScopedTx
from apps.graph.embeddings import get_embedder
from apps.graph.fulltext import fulltext_terms
from apps.resolution.candidates import EntityCandidate
from apps.resolution.signals import Signals, name_normalize, reason_text, signals_compute

# How many hits each index may contribute. Neo4j 5.26 cannot filter a vector or full-text query
# by tenant and type inside the index, so hits are filtered after; 50 leaves room for that.
INDEX_HITS = 50
# Descriptions this close propose a pair for review even when the names differ (a person renamed,
# a nickname); they never merge on their own. Measured on FEBRL (see bench/identity_febrl.py).
DESCRIPTION_PROPOSES = 0.90

# What the gate reads of a possible match `e`, the same whether the name key or an index found it:
# its names and the semantic signal (descriptions when both have one, else name embeddings).
_MATCH_RETURN = """
RETURN e.uid AS uid, e.name AS name, [e.norm_name] + coalesce(e.norm_aliases, []) AS norms,
       CASE WHEN e.description_embedding IS NOT NULL AND $description_embedding IS NOT NULL
            THEN 2 * vector.similarity.cosine(e.description_embedding, $description_embedding) - 1
            WHEN e.embedding IS NULL THEN 0.0
            ELSE 2 * vector.similarity.cosine(e.embedding, $embedding) - 1 END AS semantic,
       e.description_embedding IS NOT NULL
         AND $description_embedding IS NOT NULL AS by_description
"""

# The name key: a uniqueness-constrained node per (tenant, type, normalized name). MERGE on it
# takes the constraint's lock, so two transactions naming the same new entity are serialized
# and the second finds the first's entity through the key.
KEY_CLAIM = (
    """
MERGE (k:EntityKey {tenant: $tenant, type: $type, norm: $norm})
ON CREATE SET k.uid = randomUUID(), k.created_at = datetime()
WITH k
OPTIONAL MATCH (k)-[:KEY_OF]->(e:Entity {tenant: $tenant, status: 'active'})
"""
    + _MATCH_RETURN
)

_MATCH_FIELDS = (
    """
WITH DISTINCT node AS e
WHERE e.tenant = $tenant AND e.type = $type AND e.status = 'active'
"""
    + _MATCH_RETURN
)

MATCHES_BY_WORDS_AND_MEANING = (
    """
CALL () {
  CALL db.index.fulltext.queryNodes('entity_names', $words, {limit: $hits}) YIELD node
  RETURN node
  UNION
  CALL db.index.vector.queryNodes('entity_embedding', $hits, $embedding) YIELD node
  RETURN node
  UNION
  CALL db.index.vector.queryNodes('entity_description_embedding', $hits, $probe) YIELD node
  RETURN node
}
"""
    + _MATCH_FIELDS
)

MATCHES_BY_MEANING = (
    """
CALL () {
  CALL db.index.vector.queryNodes('entity_embedding', $hits, $embedding) YIELD node
  RETURN node
  UNION
  CALL db.index.vector.queryNodes('entity_description_embedding', $hits, $probe) YIELD node
  RETURN node
}
"""
    + _MATCH_FIELDS
)


@dataclass(frozen=True)
class Match:
    uid: str
    name: str
    norms: tuple[str, ...]
    semantic: float
    by_description: bool = False


@dataclass(frozen=True)
class Decision:
    action: str  # merge | pending | create
    match: Match | None
    signals: Signals | None
    reason: str


def candidates_embed(entities: list[EntityCandidate]) -> list[EntityCandidate]:
    """The same candidates with embeddings of name plus description (blocking, search) and of
    the description alone (the semantic signal), in one batch with the process's model.
    Pure: call it before (outside) the write transaction."""
    todo = [i for i, c in enumerate(entities) if c.embedding is None]
    described = [i for i in todo if entities[i].description.strip()]
    texts = [entities[i].embedding_text() for i in todo]
    vectors = get_embedder().embed(texts + [entities[i].description for i in described])
    by_description = dict(zip(described, vectors[len(todo) :], strict=True))
    out = list(entities)
    for i, vector in zip(todo, vectors[: len(todo)], strict=True):
        described_vector = by_description.get(i)
        out[i] = dataclasses.replace(
            entities[i],
            embedding=tuple(vector),
            description_embedding=tuple(described_vector) if described_vector else None,
        )
    return out


def candidate_norms(candidate: EntityCandidate) -> tuple[str, ...]:
    return tuple(n for n in dict.fromkeys(name_normalize(x) for x in candidate.names) if n)


def key_claim(stx: ScopedTx, candidate: EntityCandidate, norm: str) -> Match | None:
    """Lock the candidate's name key; the active entity it already names, if any."""
    row = stx.run(KEY_CLAIM, type=candidate.type, norm=norm, **_vectors(candidate))[0]
    return _match(row) if row["uid"] else None


def matches_find(stx: ScopedTx, candidate: EntityCandidate) -> list[Match]:
    """Active entities of the candidate's type and tenant that the name or meaning indexes
    return for it."""
    words = fulltext_terms(" ".join(candidate.names), fuzzy=True)
    query = MATCHES_BY_WORDS_AND_MEANING if words else MATCHES_BY_MEANING
    rows = stx.run(
        query,
        words=words,
        hits=INDEX_HITS,
        type=candidate.type,
        **_vectors(candidate),
    )
    return [_match(row) for row in rows]


def _vectors(candidate: EntityCandidate) -> dict:
    embedding = list(candidate.embedding or ())
    described = list(candidate.description_embedding) if candidate.description_embedding else None
    # `probe` asks the description index; without a description, the name's vector stands in.
    return {"embedding": embedding, "description_embedding": described,
            "probe": described or embedding}  # fmt: skip


def _match(row: dict) -> Match:
    return Match(
        uid=row["uid"],
        name=row["name"],
        norms=tuple(n for n in row["norms"] if n),
        semantic=float(row["semantic"]),
        by_description=bool(row["by_description"]),
    )


def gate_decide(
    candidate: EntityCandidate,
    matches: list[Match],
    *,
    merge_at: float,
    review_at: float,
    anchor: Match | None = None,
) -> Decision:
    """Merge into the best match at >= merge_at, propose it for review at >= review_at, else
    create. Near-identical descriptions alone may propose a pair (never merge it). `anchor` is the entity the candidate's name key already names: it is the
    candidate's identity, so it wins and nothing else is proposed. (So a pair a reviewer ruled
    NOT_SAME cannot come back: the rejected entity keeps its name key, and a candidate with
    that name resolves to it, never to a new entity proposed against the other one again.)"""
    norms = candidate_norms(candidate)
    if anchor is not None:
        signals = signals_compute(norms, anchor.norms, semantic=anchor.semantic)
        reason = (
            "same name key as '"
            + anchor.name
            + "': "
            + reason_text(
                signals,
                decision="merge",
                merge_at=merge_at,
                review_at=review_at,
                matched=anchor.name,
            )
        )
        return Decision("merge", anchor, signals, reason)
    scored = []
    for match in {m.uid: m for m in matches}.values():
        signals = signals_compute(norms, match.norms, semantic=match.semantic)
        effective = signals.score
        if (effective < review_at and match.by_description
                and signals.semantic >= DESCRIPTION_PROPOSES):  # fmt: skip
            effective = review_at
        scored.append((effective, signals.score, match.uid, match, signals))
    scored.sort(key=lambda item: (-item[0], -item[1], item[2]))
    if not scored or scored[0][0] < review_at:
        best = scored[0] if scored else None
        reason = reason_text(
            best[4] if best else Signals(0.0, 0.0, 0.0),
            decision="create",
            merge_at=merge_at,
            review_at=review_at,
            matched=best[3].name if best else None,
        )
        return Decision("create", None, best[4] if best else None, reason)
    effective, score, _, match, signals = scored[0]
    action = "merge" if effective >= merge_at else "pending"
    reason = reason_text(
        signals, decision=action, merge_at=merge_at, review_at=review_at, matched=match.name
    )
    if score < review_at:
        reason += (
            f" (the descriptions agree: semantic {signals.semantic:.2f} >= "
            f"{DESCRIPTION_PROPOSES:.2f} proposes the pair, it never merges it)"
        )
    return Decision(action, match, signals, reason)
