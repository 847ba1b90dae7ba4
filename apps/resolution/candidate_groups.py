"""Candidates of one call grouped for the gate: the same normalized name and type (a guessed
type joining a known confusion of it) is resolved once; refusals and the receipts of a group's
other members; what a merged candidate brings (names, where its learned values were read)."""

from __future__ import annotations

from dataclasses import dataclass, field

from apps.graph.nodes import ENTITY_TYPES
from apps.resolution.candidates import EntityCandidate, MentionSpan, Receipt
from apps.resolution.comparisons.entity_types import compatible_types
from apps.resolution.signals import name_normalize

MAX_NAME_CHARS = 300


@dataclass
class CandidateGroup:
    """Candidates of one call that share a normalized name and type: resolved once."""

    norm: str
    members: list[int]
    candidate: EntityCandidate
    mentions: list[MentionSpan] = field(default_factory=list)


def candidates_grouped(
    entities: list[EntityCandidate],
) -> tuple[list[Receipt | None], dict[tuple[str, str], CandidateGroup]]:
    """The refused candidates' receipts (None for the others), and the others grouped by
    (type, normalized name): each group goes through the gate once."""
    receipts: list[Receipt | None] = [None] * len(entities)
    groups: dict[tuple[str, str], CandidateGroup] = {}
    for i, candidate in enumerate(entities):
        refusal = _refusal(candidate)
        if refusal:
            receipts[i] = Receipt(kind="entity", name=candidate.name[:MAX_NAME_CHARS],
                                  action="refused", reason=refusal)  # fmt: skip
            continue
        key = _group_key(groups, candidate)
        if key in groups:
            group = groups[key]
            group.members.append(i)
            group.candidate = _combined(group.candidate, candidate)
        else:
            groups[key] = CandidateGroup(norm=key[1], members=[i], candidate=candidate)
        groups[key].mentions.extend(candidate.mentions)

    return receipts, groups


def _group_key(groups: dict, candidate: EntityCandidate) -> tuple[str, str]:
    """(type, normalized name); a guessed type joins the group of the same name under a type
    it is known to be confused with, if that group's type was guessed too (one name in one
    call is one entity, whatever NER said)."""
    norm = name_normalize(candidate.name)
    if candidate.type_guessed:
        for kind in compatible_types(candidate.type):
            if (kind, norm) in groups and groups[(kind, norm)].candidate.type_guessed:
                return kind, norm
    return candidate.type, norm


def group_receipts(
    entities, group: CandidateGroup, receipt: Receipt, receipts: list, entity_of: dict
):
    """The group's first candidate gets the gate's receipt, the others (same name) 'unchanged';
    fills `receipts` and `entity_of` (candidate index -> entity uid) in place."""
    first, *rest = group.members
    receipts[first] = receipt
    for i in rest:
        receipts[i] = Receipt(
            kind="entity", name=entities[i].name, action="unchanged",
            entity_uid=receipt.entity_uid, matched_uid=receipt.entity_uid,
            matched_name=receipt.matched_name or receipt.name, score=1.0, signals={},
            reason=f"same normalized name and type as candidate #{first} of this call",
        )  # fmt: skip
    for i in group.members:
        entity_of[i] = receipt.entity_uid


def _refusal(candidate: EntityCandidate) -> str:
    if candidate.type not in ENTITY_TYPES:
        return f"type '{candidate.type[:50]}' is not one of {', '.join(ENTITY_TYPES)} (POLE+O)"
    if not name_normalize(candidate.name):
        return "the name has no letters or digits"
    if len(candidate.name) > MAX_NAME_CHARS:
        return f"the name is longer than {MAX_NAME_CHARS} characters"
    return ""


def _combined(first: EntityCandidate, other: EntityCandidate) -> EntityCandidate:
    aliases = tuple(dict.fromkeys(first.aliases + other.names))
    return EntityCandidate(
        name=first.name,
        type=first.type,
        aliases=tuple(a for a in aliases if a != first.name),
        description=first.description or other.description,
        embedding=first.embedding if first.description or not other.description
        else other.embedding,
        description_embedding=first.description_embedding or other.description_embedding,
        values={**other.values, **first.values},
        value_sources={**other.value_sources, **first.value_sources},
        type_guessed=first.type_guessed,
        context=tuple(dict.fromkeys(first.context + other.context)),
    )  # fmt: skip


def surface_names(candidate: EntityCandidate, exclude: str = "") -> list[dict]:
    seen, names = {exclude}, []
    for surface in candidate.names:
        norm = name_normalize(surface)
        if norm and norm not in seen:
            seen.add(norm)
            names.append({"surface": surface, "norm": norm})
    return names


def sources_merged(sources: dict, merged: dict, candidate: EntityCandidate) -> dict:
    """Where each learned value the entity keeps was read: its own sources, then the
    candidate's for the learned keys it brought."""
    out = dict(sources)
    for key, source in candidate.value_sources.items():
        if key in merged and key not in out and merged[key] == candidate.values.get(key):
            out[key] = source
    return out
