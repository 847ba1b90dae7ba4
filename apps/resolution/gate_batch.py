"""The resolution gate for a window of candidates at once: what
`gate.claim_and_matches` asks per name, asked for every distinct name of the window in one query
each (UNWIND), then the same scoring (`gate.proposals_score`) and rule (`gate.gate_decide`)
per name, in the same order as the per-name path (sorted keys), so both decide alike.

Within a document one name is one entity: instead of scanning the document's mentions, the
caller passes the entity each (type, normalized name) already resolved to in this document
(`seen`), which the claim query checks by uid (still active, still bearing the name). Such a
name, its entity among the key's same-name entities, merges into it whatever the indexes
return, so its index lookup is skipped (`_named_here`): a long document asks the indexes only
for the names it has not met yet.

An entity the window creates is a possible match for the window's later names, as it would be
had the per-name path found it through the indexes in the same transaction: it is scored with
them (its description's cosine computed here, as the index query would)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from apps.graph.cypher import ScopedTx
from apps.resolution.candidate_groups import surface_names
from apps.resolution.candidates import EntityCandidate
from apps.resolution.comparisons.entity_types import compatible_types, types_may_meet
from apps.resolution.comparisons.records import context_counts
from apps.resolution.gate import (
    INDEX_HITS,
    MEANING_HITS,
    SAME_NAME_HITS,
    Decision,
    KeyClaim,
    Match,
    candidate_words_query,
    gate_decide,
    key_figures,
    match_of,
    matches_scored,
    proposals_score,
)
from apps.resolution.match_sides import CONTEXT_PARAMS, NEIGHBOURS
from apps.resolution.meaning_search import PARAMS as MEANING_PARAMS
from apps.resolution.meaning_search import nearest, pool_small

# The fields of a match, and a person's name parse kept on it, so a worker that did not write it
# does not parse it again (see match_sides.SIDE_FIELDS); with its description compared with the row's.
_PLAIN = """
  uid: e.uid, name: e.name, aliases: coalesce(e.aliases, []), values_json: e.values_json, conflicts_json: e.value_conflicts_json,
  parsed: e.name_parsed, type: e.type, type_guessed: coalesce(e.type_guessed, false)"""
_SEMANTIC = """CASE WHEN e.description_embedding IS NOT NULL AND row.description_embedding IS NOT NULL
                 THEN 2 * vector.similarity.cosine(e.description_embedding, row.description_embedding) - 1
                 ELSE null END"""
# With its neighbours (match_sides.NEIGHBOURS): the same name's entities, nearly always scored.
_SIDE = "{" + _PLAIN + ", semantic: " + _SEMANTIC + "," + NEIGHBOURS + "}"

# gate.KEY_CLAIM for every name of the window, claimed in the order given (sorted, so two
# windows naming the same new names lock their keys alike); `row.seen` is the entity the
# document already named so, kept only while it is active and bears the name.
KEYS_CLAIM = (
    """
UNWIND $rows AS row
MERGE (k:EntityKey {tenant: $tenant, type: row.type, norm: row.norm})
ON CREATE SET k.uid = randomUUID(), k.created_at = datetime()
WITH row, k
OPTIONAL MATCH (k)-[:KEY_OF]->(anchor)
WHERE 'Entity' IN labels(anchor) AND anchor.tenant = $tenant AND anchor.status = 'active'
CALL (row, anchor) {
  OPTIONAL CALL (row, anchor) {
    MATCH (e:Entity {tenant: $tenant, norm_name: row.norm})
    USING INDEX SEEK e:Entity(tenant, norm_name)
    WHERE e.type IN row.types AND e.status = 'active'
    RETURN e
    UNION
    WITH anchor WHERE anchor IS NOT NULL  // bound above; a MATCH on it would scan the tenant
    RETURN anchor AS e
  }
  WITH e ORDER BY e.created_at, e.uid LIMIT $same_name_hits
  RETURN [x IN collect(CASE WHEN e IS NULL THEN null ELSE """
    + _SIDE
    + """ END) WHERE x IS NOT NULL] AS same_name
}
OPTIONAL CALL (row) {
  MATCH (seen:Entity {tenant: $tenant, uid: row.seen})
  USING INDEX SEEK seen:Entity(uid)
  WHERE seen.type IN row.types AND seen.status = 'active'
    AND (seen.norm_name = row.norm OR row.norm IN coalesce(seen.norm_aliases, []))
  RETURN seen.uid AS seen_here
}
RETURN row.index AS index, anchor.uid AS anchor, same_name, seen_here,
"""
    + key_figures("row.norm", "row.type", "row.types")
)

# gate.CLAIM_AND_MATCHES's searches for every name of the window: the name index (when the
# name has words), the name's meaning, and the description's meaning (when it has one), each
# kept to the row's tenant, type and active entities. Each SEARCH binds a name of its own (see
# gate.py). A row gets its hits' ids and descriptions' likeness only: up to INDEX_HITS +
# 2 * MEANING_HITS a name, of which at most SCORED are scored (gate.matches_scored), and the
# same entity comes back for many names of a window, so their fields are read once each for the
# window (`sides`), and the neighbours of those scored after (CONTEXTS_READ).
MATCHES_FIND = (
    """
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  WITH row, """
    + pool_small("row.type")
    + """ AS small
  CALL (row, small) {
    WITH row WHERE row.words <> ''
    CALL db.index.fulltext.queryNodes('entity_names', row.words, {limit: $hits}) YIELD node
    RETURN node
    UNION"""
    + nearest("name", scope="row, small", vector="row.embedding", type_expr="row.type")
    + "    UNION"
    + nearest(
        "description",
        scope="row, small",
        vector="row.description_embedding",
        type_expr="row.type",
        when="row.description_embedding IS NOT NULL",
    )  # fmt: skip
    + """  }
  WITH DISTINCT node AS e
  WHERE e.tenant = $tenant AND e.type IN row.types AND e.status = 'active'
  RETURN collect([elementId(e), """
    + _SEMANTIC
    + """]) AS hits, collect(e) AS found
}
WITH collect([row.index, hits]) AS rows, collect(found) AS founds
CALL (founds) {
  UNWIND founds AS found
  UNWIND found AS e
  WITH DISTINCT e
  RETURN collect([elementId(e), e {"""
    + _PLAIN
    + """}]) AS sides
}
RETURN rows, sides
"""
)

# The neighbours of the matches the window's lookups will score, each entity once.
CONTEXTS_READ = (
    """
UNWIND $uids AS uid
MATCH (e:Entity {tenant: $tenant, uid: uid}) USING INDEX SEEK e:Entity(uid)
RETURN uid, e {"""
    + NEIGHBOURS
    + """} AS side
"""
)


def keys_claim(
    stx: ScopedTx, groups: list[tuple[str, str, EntityCandidate]], seen: dict
) -> list[KeyClaim]:
    """Lock every (type, norm) key of `groups`, in their order; what each key knows."""
    if not groups:
        return []
    rows = [
        {"index": i, "type": kind, "types": list(compatible_types(kind)), "norm": norm,
         "seen": seen_as(seen, kind, norm), "description_embedding": _described(candidate)}
        for i, (kind, norm, candidate) in enumerate(groups)
    ]  # fmt: skip
    out = stx.run(KEYS_CLAIM, rows=rows, same_name_hits=SAME_NAME_HITS, **CONTEXT_PARAMS)
    claims: list[KeyClaim | None] = [None] * len(groups)
    for row in out:
        claims[row["index"]] = KeyClaim(
            anchor=row["anchor"],
            seen_here=row["seen_here"],
            same_name=tuple(match_of(side) for side in row["same_name"]),
            same_name_count=int(row["same_name_count"]),
            not_same=frozenset(row["not_same"]),
            model_json=row["model_json"],
        )
    return claims  # type: ignore[return-value]


def matches_find_all(stx: ScopedTx, tenant: str, candidates: list[EntityCandidate]) -> list:
    """The matches of `gate.claim_and_matches` for each candidate, in one query."""
    if not candidates:
        return []
    rows = [{"index": i, "type": c.type, "types": list(compatible_types(c.type)),
             "words": candidate_words_query(tenant, c) or "",
             "embedding": list(c.embedding or ()), "description_embedding": _described(c)}
            for i, c in enumerate(candidates)]  # fmt: skip
    [out] = stx.run(
        MATCHES_FIND, rows=rows, hits=INDEX_HITS, meaning_hits=MEANING_HITS, **MEANING_PARAMS
    )
    sides = dict(out["sides"])
    found: list[list[Match]] = [[] for _ in candidates]
    for index, hits in out["rows"]:
        found[index] = [match_of({**sides[i], "semantic": semantic}) for i, semantic in hits]
    return found


def contexts_fill(
    stx: ScopedTx, asked: list[tuple[EntityCandidate, KeyClaim, list[Match]]]
) -> list[list[Match]]:
    """Each `(candidate, claim, matches)`'s matches, those it will score with their neighbours
    where a comparison reads them (an identical or variant name: records.context_counts), in
    one query for the window, each entity once. A same-name entity the lookups found too is
    scored as this read gives it, as when the lookup's row brought its neighbours (its "any
    few" chunks need not be those another query's plan picks)."""
    needed = {m.uid for c, claim, matches in asked for m in matches_scored(c, claim, matches)
              if context_counts(c.type, c.names, m.names, c.type, m.type or c.type)}  # fmt: skip
    known = {}
    if needed:
        rows = stx.run(CONTEXTS_READ, uids=sorted(needed), **CONTEXT_PARAMS)
        known = {
            row["uid"]: tuple(tuple(n) for n in row["side"]["context"] or () if n[0] and n[1])
            for row in rows
        }  # as match_of
    return [[dataclasses.replace(m, context=known[m.uid]) if m.uid in known else m
             for m in matches] for _, _, matches in asked]  # fmt: skip


def seen_as(seen: dict, kind: str, norm: str) -> str | None:
    """The entity this document already resolved the name to: of the same type, else of a type
    a guess of it may stand for (one name within a source is one entity, whatever NER said)."""
    for other in compatible_types(kind):
        if (other, norm) in seen:
            return seen[(other, norm)]
    return None


def _described(candidate: EntityCandidate) -> list[float] | None:
    vector = candidate.description_embedding
    return list(vector) if vector else None


def window_decide(
    stx: ScopedTx,
    groups: list[tuple[str, str, EntityCandidate]],
    seen: dict,
    *,
    merge_at: float,
    review_at: float,
    created_uid: Callable[[], str],
) -> list[tuple[Decision, str | None, KeyClaim]]:
    """Each group's decision, in order; with it the uid its entity will have when the decision
    creates one (`created_uid()`), so later groups may match it, and what its key knew."""
    claims = keys_claim(stx, groups, seen)
    settled = {
        i: decision
        for i, ((_, _, candidate), claim) in enumerate(zip(groups, claims, strict=True))
        if (decision := _named_here(stx, candidate, claim, merge_at, review_at)) is not None
    }
    rest = [i for i in range(len(groups)) if i not in settled]
    looked_up = matches_find_all(stx, stx.scope.tenant, [groups[i][2] for i in rest])
    looked_up = contexts_fill(
        stx, [(groups[i][2], claims[i], m) for i, m in zip(rest, looked_up, strict=True)]
    )
    found = dict(zip(rest, looked_up, strict=True))
    created: list[tuple[EntityCandidate, Match]] = []
    out = []
    for i, ((kind, norm, candidate), claim) in enumerate(zip(groups, claims, strict=True)):
        if i in settled:
            out.append((settled[i], None, claim))
            continue
        matches = found[i]
        local = [_with_semantic(m, c, candidate) for c, m in created
                 if types_may_meet(kind, candidate.type_guessed, c.type, c.type_guessed)]  # fmt: skip
        proposals = proposals_score(stx, candidate, claim, matches + local)
        decision = gate_decide(proposals, merge_at=merge_at, review_at=review_at,
                               seen_here=claim.seen_here)  # fmt: skip
        uid = None
        if decision.action != "merge":
            uid = created_uid()
            aliases = tuple(a["surface"] for a in surface_names(candidate, exclude=norm))
            created.append((candidate, Match(uid, candidate.name, aliases, dict(candidate.values),
                                             type=kind, type_guessed=candidate.type_guessed,
                                             context=candidate.context)))  # fmt: skip
        out.append((decision, uid, claim))
    return out


def _named_here(stx, candidate, claim: KeyClaim, merge_at: float, review_at: float):
    """The decision for a name this document already resolved, when its entity is among the
    key's same-name entities and nothing forbids the merge: then `gate_decide` merges into it
    whatever else the indexes would return (and its score does not depend on them), so the
    index lookup is skipped, and only that entity is scored (gate_decide's merge reads its
    proposal alone); None otherwise (the name goes through the whole gate)."""
    here = claim.seen_here
    if here is None or here in claim.not_same or all(m.uid != here for m in claim.same_name):
        return None
    proposals = proposals_score(stx, candidate, claim, [], only=here)
    if not proposals:  # a type that may not meet the candidate's: scored by the whole gate
        return None
    mine = proposals[0]
    if mine.scored.forbidden:
        return None
    return gate_decide(proposals, merge_at=merge_at, review_at=review_at, seen_here=here)


def _with_semantic(match: Match, theirs: EntityCandidate, mine: EntityCandidate) -> Match:
    a, b = theirs.description_embedding, mine.description_embedding
    if not a or not b or not theirs.description:
        return match
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    cosine = dot / norms if norms else 0.0
    # Neo4j's vector.similarity.cosine is (1 + cos) / 2; match_sides.SIDE_FIELDS maps it back.
    return dataclasses.replace(match, semantic=max(0.0, min(1.0, cosine)))
