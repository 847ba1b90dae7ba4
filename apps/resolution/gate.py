"""The resolution gate: find an entity candidate's possible matches through the indexes, score
each with the match model, and decide merge, pending review, or create.

Blocking is by index only (the name key and entities of the same name; full-text on names and
aliases with the candidate's acronym, and on the blocking keys: phonetic, acronym, identifier
digests; by meaning: meaning_search), never an unbounded scan of a type, so the cost of one
decision does not grow with the tenant's graph. Scores use the tenant's learned model (tenant_model). The rule:

- merge into the most probable match when its match probability >= the tenant's
  `merge_threshold` and the model allows it (no conflicting identifier or date, and evidence
  besides the name: a name alone, however identical, never merges), unless a value another
  proposed match agrees on disagrees with it (match_model.told_apart: it points elsewhere);
- otherwise create the entity and propose up to PROPOSALS matches at >= `review_threshold`
  for review, so a wrong proposal never hides the true one;
- a match a reviewer ruled NOT_SAME with an entity that bears the candidate's name is never
  proposed (or merged) again.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from apps.graph.cypher import ScopedTx
from apps.graph.fulltext import LONG_WORD, entity_words_query, fulltext_terms
from apps.resolution.blocking_keys import blocking_keys
from apps.resolution.candidate_vectors import (  # noqa: F401 (callers embed through the gate)
    candidates_and_texts_embed,
    candidates_embed,
)
from apps.resolution.candidates import EntityCandidate, Provenance
from apps.resolution.comparisons import records
from apps.resolution.comparisons.entity_types import compatible_types, types_may_meet
from apps.resolution.comparisons.organisation_names import acronym
from apps.resolution.comparisons.person_names import parse_restore
from apps.resolution.comparisons.records import RARE_CARRIERS, Record, records_compare
from apps.resolution.entity_values import values_with_ties
from apps.resolution.match_model import (
    Scored,
    match_score,
    name_tf_adjustment,
    part_words,
    told_apart,
)
from apps.resolution.match_sides import CONTEXT_PARAMS, SIDE_FIELDS
from apps.resolution.meaning_search import PARAMS as MEANING_PARAMS
from apps.resolution.meaning_search import nearest, pool_small
from apps.resolution.name_frequency import type_name_counts
from apps.resolution.tenant_model import tenant_params

# How many hits each index may contribute (within the candidate's tenant, type and active
# entities): the name index (words and blocking keys), and each vector index (meaning, where
# names spelled alike are already found by words; fewer rows keep the query cheap).
INDEX_HITS = 50
MEANING_HITS = 20
# Matches scored per candidate (the most similar by the indexes' fields first), and proposed.
TOP_K = 20
PROPOSALS = 3
SAME_NAME_HITS = 20
SCORED = TOP_K + SAME_NAME_HITS  # the same name's entities and matches scored, in that order

# The figures a claim reads beside its entities, for one name (slots filled by `key_figures`
# from the calling query's names): the tenant's model, how many carry the name (term frequency),
# and the entities ruled NOT_SAME with it (never proposed again). `anchor` is the key's entity.
# Nodes reached from a bound one are tested by labels(): a label in the pattern lets the
# planner start from every node of that label in the tenant when its statistics are empty.
_KEY_FIGURES = """       COLLECT { MATCH (mm:MatchModel {model_key: $tenant}) RETURN mm.params_json }[0]
         AS model_json,
       COUNT { MATCH (e:Entity {tenant: $tenant, norm_name: <norm>})  // fragments pending as one: one carrier
               USING INDEX SEEK e:Entity(tenant, norm_name)
               WHERE e.type = <type> AND e.status = 'active' AND NOT EXISTS {
                 MATCH (e)-[:SAME_AS {status: 'pending'}]->(t)
                 WHERE 'Entity' IN labels(t) AND t.norm_name = <norm> AND t.status = 'active'
               } } AS same_name_count,
       COLLECT { MATCH (x:Entity {tenant: $tenant, norm_name: <norm>})-[:NOT_SAME]-(o)
                 USING INDEX SEEK x:Entity(tenant, norm_name)
                 WHERE x.type IN <types> AND 'Entity' IN labels(o) AND o.tenant = $tenant
                 RETURN DISTINCT o.uid
                 UNION
                 MATCH (anchor)-[:NOT_SAME]-(o) WHERE 'Entity' IN labels(o) AND o.tenant = $tenant
                 RETURN o.uid } AS not_same"""


def key_figures(norm: str, type_: str, types: str) -> str:
    """The claim's figures (model_json, same_name_count, not_same) as RETURN or WITH items."""
    return _KEY_FIGURES.replace("<norm>", norm).replace("<types>", types).replace("<type>", type_)


# The name key: a uniqueness-constrained node per (tenant, type, normalized name). MERGE on it
# takes the constraint's lock, so two transactions naming the same new entity are serialized
# and the second sees the first's entity. With it: every active entity of that exact name (a
# name no longer means one entity), how many there are (term frequency), and the entities a
# reviewer ruled NOT_SAME with any entity of that name (never proposed again); and the entity
# of that name the same chunk or document already mentions (a replay, or the document naming
# it again: within one source, one name is one entity).
_KEY_CLAIMED = (
    """
MERGE (k:EntityKey {tenant: $tenant, type: $type, norm: $norm})
ON CREATE SET k.uid = randomUUID(), k.created_at = datetime()
WITH k
OPTIONAL MATCH (k)-[:KEY_OF]->(anchor)
WHERE 'Entity' IN labels(anchor) AND anchor.tenant = $tenant AND anchor.status = 'active'
OPTIONAL CALL (anchor) {
  MATCH (e:Entity {tenant: $tenant, norm_name: $norm}) USING INDEX SEEK e:Entity(tenant, norm_name)
  WHERE e.type IN $types AND e.status = 'active'
  RETURN e
  UNION
  WITH anchor WHERE anchor IS NOT NULL  // bound above; a MATCH on it would scan the tenant
  RETURN anchor AS e
}
WITH anchor, e ORDER BY e.created_at, e.uid LIMIT $same_name_hits
WITH anchor, [x IN collect(CASE WHEN e IS NULL THEN null ELSE {"""
    + SIDE_FIELDS
    + """} END) WHERE x IS NOT NULL] AS same_name
OPTIONAL CALL () {
  MATCH (c:Chunk {tenant: $tenant, uid: $chunk_uid})-[:MENTIONS]->(seen)
  USING INDEX SEEK c:Chunk(uid)
  WHERE 'Entity' IN labels(seen) AND seen.tenant = $tenant
    AND seen.type IN $types AND seen.status = 'active'
    AND (seen.norm_name = $norm OR $norm IN coalesce(seen.norm_aliases, []))
  RETURN seen
  UNION
  MATCH (d:Document {tenant: $tenant, uid: $document_uid})<-[:PART_OF]-(c)-[:MENTIONS]->(seen)
  USING INDEX SEEK d:Document(uid)
  WHERE 'Chunk' IN labels(c) AND c.tenant = $tenant AND 'Entity' IN labels(seen)
    AND seen.tenant = $tenant AND seen.type IN $types AND seen.status = 'active'
    AND (seen.norm_name = $norm OR $norm IN coalesce(seen.norm_aliases, []))
  RETURN seen
}
WITH anchor, same_name, head(collect(seen.uid)) AS seen_here
WITH anchor.uid AS anchor, same_name, seen_here,
"""
    + key_figures("$norm", "$type", "$types")
    + """
"""
)
KEY_CLAIM = _KEY_CLAIMED + "RETURN *"

_HITS_KEPT = """
WITH DISTINCT node AS e
WHERE e.tenant = $tenant AND e.type IN $types AND e.status = 'active'
"""
_MATCH_FIELDS = _HITS_KEPT + "RETURN {" + SIDE_FIELDS + "} AS side\n"
_MEANING_FIELDS = _HITS_KEPT + "RETURN collect({" + SIDE_FIELDS + "}) AS by_meaning\n"

# The lookups keep to the candidate's tenant, type and active entities themselves (required
# Lucene clauses, see graph.fulltext; meaning_search), so a larger tenant never takes these
# places.
_BY_WORDS = """
  CALL db.index.fulltext.queryNodes('entity_names', $words, {limit: $hits}) YIELD node
  RETURN node
"""
_BY_NAME_MEANING = nearest("name", scope="small", vector="$embedding", type_expr="$type")
_BY_DESCRIPTION = "  UNION" + nearest(
    "description", scope="small", vector="$description_embedding", type_expr="$type"
)

# The name key claimed and the indexes searched in one round trip (one query per: words to
# search?, a description to search by?; the description index is asked only with a description,
# a name's vector finds no more there than in the name index): KEY_CLAIM's answer with the
# matches beside it, read once the key's lock is taken. Matches are the words' hits, then the
# meaning indexes' hits not among them; proposals_score scores the first SCORED of the same
# name's entities and these, so when the same name and the words already fill SCORED places,
# the meaning indexes could add nothing scored and are not asked (filtered vector search is
# the costliest part of a decision in a large database).
CLAIM_AND_MATCHES = {
    (words, described): "CYPHER 25\n"
    + _KEY_CLAIMED
    + "WITH *, "
    + ("COLLECT { CALL () {" + _BY_WORDS + "}" + _MATCH_FIELDS + "}" if words else "[]")
    + """ AS by_words
WITH *, COUNT { UNWIND same_name + by_words AS m WITH DISTINCT m.uid AS uid
                WHERE NOT uid IN not_same RETURN uid } >= $scored AS enough
CALL (enough) {
  WITH enough WHERE NOT enough
  WITH """
    + pool_small("$type")
    + """ AS small
  CALL (small) {"""
    + _BY_NAME_MEANING
    + (_BY_DESCRIPTION if described else "")
    + "}"
    + _MEANING_FIELDS
    + """}
RETURN anchor, same_name, seen_here, model_json, same_name_count, not_same,
       by_words + [m IN by_meaning WHERE NOT m.uid IN [w IN by_words | w.uid]] AS matches
"""
    for words in (True, False)
    for described in (True, False)
}


@dataclass(frozen=True)
class Match:
    uid: str
    name: str
    aliases: tuple[str, ...] = ()
    values: dict = dataclasses.field(default_factory=dict, hash=False, compare=False)
    semantic: float | None = None  # cosine of the two descriptions; None when one has none
    type: str | None = None
    type_guessed: bool = False
    context: tuple[tuple[str, str], ...] = dataclasses.field(default=(), compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class KeyClaim:
    """What the name key knows: the entity it names, every active entity of that exact name,
    their count, and the entities ruled NOT_SAME with the named one."""

    anchor: str | None = None
    seen_here: str | None = None  # named so by the same chunk or document already
    same_name: tuple[Match, ...] = ()
    same_name_count: int = 0
    not_same: frozenset[str] = frozenset()
    model_json: str | None = None  # the tenant's learned match model (tenant_model)


@dataclass(frozen=True)
class Proposal:
    match: Match
    scored: Scored

    @property
    def probability(self) -> float:
        return self.scored.probability


@dataclass(frozen=True)
class Decision:
    action: str  # merge | pending | create
    proposals: tuple[Proposal, ...]  # the merge target, or the pairs for review, best first
    best: Proposal | None  # the most probable match, even when nothing is proposed
    reason: str
    # A pending decision's reason per proposal: that pair's evidence only (the receipt's
    # `reason` lists them all).
    pair_reasons: tuple[str, ...] = ()

    @property
    def match(self) -> Match | None:
        return self.proposals[0].match if self.proposals else None


def key_claim(
    stx: ScopedTx, candidate: EntityCandidate, norm: str, *, source: Provenance | None = None
) -> KeyClaim:
    """Lock the candidate's name key; what it knows (KeyClaim)."""
    row = stx.run(KEY_CLAIM, **_claim_params(candidate, norm, source))[0]
    return _claim_of(row)


def claim_and_matches(
    stx: ScopedTx, candidate: EntityCandidate, norm: str, *, source: Provenance | None = None
) -> tuple[KeyClaim, list[Match]]:
    """`key_claim`, and the active entities of the candidate's type and tenant that the name
    index (its words, with its acronym; its blocking keys: phonetic, acronym, identifiers) or
    the meaning indexes return for it, in one query."""
    words = candidate_words_query(stx.scope.tenant, candidate)
    query = CLAIM_AND_MATCHES[(bool(words), candidate.description_embedding is not None)]
    row = stx.run(query, words=words, hits=INDEX_HITS, meaning_hits=MEANING_HITS, scored=SCORED,
                  **MEANING_PARAMS, **_claim_params(candidate, norm, source))[0]  # fmt: skip
    return _claim_of(row), [match_of(side) for side in row["matches"]]


def _claim_params(candidate: EntityCandidate, norm: str, source: Provenance | None) -> dict:
    return {"type": candidate.type, "types": list(compatible_types(candidate.type)),
            "norm": norm, "same_name_hits": SAME_NAME_HITS, **CONTEXT_PARAMS,
            "chunk_uid": source.chunk_uid if source else None,
            "document_uid": source.document_uid if source else None,
            **_vectors(candidate)}  # fmt: skip


def _claim_of(row: dict) -> KeyClaim:
    return KeyClaim(
        anchor=row["anchor"],
        seen_here=row["seen_here"],
        same_name=tuple(match_of(side) for side in row["same_name"]),
        same_name_count=int(row["same_name_count"]),
        not_same=frozenset(row["not_same"]),
        model_json=row["model_json"],
    )


def candidate_words_query(
    tenant, candidate: EntityCandidate, *, fuzzy=True, one_edit_below=LONG_WORD
):
    """The name index's query for a candidate: its names' words, acronym, blocking keys."""
    words = fulltext_terms(" ".join(candidate.names), fuzzy=fuzzy, one_edit_below=one_edit_below)
    short = acronym(candidate.name) if candidate.type in ("Organization", "Object") else ""
    if words and short:
        words += " OR " + fulltext_terms(short)
    keys = tuple(blocking_keys(candidate.type, candidate.names, candidate.values, asked=True))
    return entity_words_query(tenant, words, type=compatible_types(candidate.type), keys=keys)


def _vectors(candidate: EntityCandidate) -> dict:
    embedding = list(candidate.embedding or ())
    described = list(candidate.description_embedding) if candidate.description_embedding else None
    return {"embedding": embedding, "description_embedding": described}


def match_of(side: dict) -> Match:
    parse_restore(side.get("parsed"))  # the name's parse kept on the entity, if any
    semantic = side["semantic"]
    return Match(
        uid=side["uid"],
        name=side["name"],
        aliases=tuple(side["aliases"] or ()),
        values=values_with_ties(side["values_json"], side.get("conflicts_json")),
        semantic=None if semantic is None else max(0.0, min(1.0, float(semantic))),
        type=side.get("type"),
        type_guessed=bool(side.get("type_guessed")),
        context=tuple(tuple(n) for n in side.get("context") or () if n[0] and n[1]),
    )


def proposals_score(stx: ScopedTx, candidate: EntityCandidate, claim: KeyClaim,
                    matches: list[Match], only: str | None = None) -> list[Proposal]:  # fmt: skip
    """Every distinct match scored by the tenant's model (its learned one, else the defaults),
    most probable first; the name's frequency in the tenant adjusts an identical name (read
    only when a name is identical). With `only`, that entity's proposal alone: a match's score
    does not depend on the others scored beside it."""
    mine = Record(candidate.names, candidate.values, candidate.type, candidate.type_guessed,
                  candidate.context)  # fmt: skip
    params = tenant_params(claim.model_json)
    scored = []
    tf_bits = None
    sole = stx.scope.setting("sole_name_merges") == 1 and records.sole_carrier(  # tenant's switch
        candidate.name, claim.same_name_count,
        [m.name for m in matches_scored(candidate, claim, matches, limit=None)])  # fmt: skip
    for match in [m for m in matches_scored(candidate, claim, matches) if only in (None, m.uid)]:
        theirs = Record(match.names, match.values, match.type or candidate.type,
                        match.type_guessed, match.context)  # fmt: skip
        compared = records_compare(candidate.type, mine, theirs, semantic=match.semantic,
                                   rare=claim.same_name_count <= RARE_CARRIERS,
                                   sole=sole)  # fmt: skip
        if compared[0].level == "exact" and tf_bits is None:
            counts = type_name_counts(stx, candidate.type)
            tf_bits = name_tf_adjustment(same_name_count=max(1, claim.same_name_count),
                                         entity_count=counts.entities,
                                         distinct_names=counts.names)  # fmt: skip
        scored.append(Proposal(match, match_score(compared, name_tf_bits=tf_bits or 0.0,
                                                  params=params,  # namesakes carry it:
                                                  name_shared=claim.same_name_count >= 2)))  # fmt: skip
    scored.sort(key=lambda p: (-p.probability, p.match.uid))
    return scored


def matches_scored(candidate: EntityCandidate, claim: KeyClaim, matches: list,
                   limit: int | None = SCORED) -> list[Match]:  # fmt: skip
    """What `proposals_score` scores, in order (gate_batch reads only these' neighbours)."""
    unique = {m.uid: m for m in (*claim.same_name, *matches) if m.uid not in claim.not_same
              and types_may_meet(candidate.type, candidate.type_guessed,  # each uid: last read
                                 m.type or candidate.type, m.type_guessed)}  # fmt: skip
    return list(unique.values())[:limit]


def gate_decide(
    proposals: list[Proposal], *, merge_at: float, review_at: float, seen_here: str | None = None
) -> Decision:
    """The rule of the module docstring over proposals scored best first; `seen_here` is the
    entity the same chunk or document already names so (KeyClaim.seen_here)."""
    rule = f"(merge at P >= {merge_at:g} with evidence beyond the name, review at >= {review_at:g})"
    here = next((p for p in proposals if p.match.uid == seen_here), None)
    if here is not None and not here.scored.forbidden:
        return Decision("merge", (here,), here, f"'{here.match.name}' is already named so in this "
                        f"chunk or document: one name within a source is one entity "
                        f"{_explained(here)} -> merge")  # fmt: skip
    if not proposals or proposals[0].probability < review_at:
        best = proposals[0] if proposals else None
        why = f"best match '{best.match.name}' {_explained(best)}" if best else "no candidate found"
        return Decision("create", (), best, f"{why} {rule} -> create")
    best = proposals[0]
    apart = told_apart(best.scored, [p.scored for p in proposals[1:] if p.probability >= review_at])
    if best.probability >= merge_at and best.scored.may_merge and not apart:
        return Decision(
            "merge", (best,), best, f"'{best.match.name}' {_explained(best)} {rule} -> merge"
        )
    pending = tuple(p for p in proposals if p.probability >= review_at)[:PROPOSALS]
    held = ""
    if best.probability >= merge_at:
        held = "; a name alone never merges"
        if best.scored.forbidden:
            held = f"; {', '.join(best.scored.forbidden)} in conflict forbids an automatic merge"
        elif apart:
            held = f"; {', '.join(apart)} agrees with another match, not with this one"
    listed = "; ".join(f"'{p.match.name}' {_explained(p)}" for p in pending)
    pairs = tuple(f"'{p.match.name}' {_explained(p)}{held if p is best else ''} {rule} -> pending"
                  for p in pending)  # fmt: skip
    return Decision("pending", pending, best, f"{listed}{held} {rule} -> pending", pairs)


def _explained(proposal: Proposal) -> str:
    parts = ", ".join(part_words(p) for p in proposal.scored.parts
                      if p.compared.level != "missing")  # fmt: skip
    return f"P(same) = {proposal.probability:.4f} [{parts}]"
