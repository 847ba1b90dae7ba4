"""Short-term episodic state across the chunks of one document (never written to the graph).

The state keeps the document's outline as a fixed anchor and, per section, the entities under
discussion, the references still waiting for an antecedent and the current argument branch.
"Holmes" after "Sherlock Holmes", "the company" after "Acme Corp" or "this assumption" after a
stated premise resolve against it before the long-term graph is asked. At an episode boundary (a
new section, or a boundary found in the text: `text_boundaries`) the short-lived part is reset;
the outgoing episode's most salient entities stay for TRANSITION_CHUNKS chunks as weak
candidates, found only when nothing the new episode names fits (a reference that crosses the
boundary still finds its antecedent). `ShortTermState` is the interface the pipeline and the extractors use;
`WorkingMemory` keeps it in plain Python objects, and any other representation (JSON patches,
a key-value store) can implement the same interface.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from unidecode import unidecode

from apps.ingestion.arguments import ArgumentSpan, argument_span
from apps.ingestion.chunking import OutlineEntry
from apps.ingestion.given_names import opens_with_given_name
from apps.ingestion.name_owners import ACRONYM, HONORIFICS, given_names_completed, name_owner
from apps.resolution.comparisons.organisation_names import acronym

# Definite descriptions and the entity type they point back to.
_DESCRIPTIONS = {
    "Organization": "company|firm|corporation|organization|organisation|agency|startup|group|bank",
    "Location": "city|country|town|region|capital|village|state",
    "Person": "author|scientist|detective|founder|researcher|philosopher|inventor",
    "Event": "conference|meeting|war|battle|summit|election|ceremony",
    "Object": "product|device|tool|system|software|book|model",
}
ARGUMENT = "Argument"
_ARGUMENT_NOUNS = "assumption|premise|claim|hypothesis|thesis|argument|proposition"
_REFERENCE = re.compile(
    r"\b(?:[Tt]he|[Tt]his|[Tt]hat|[Oo]ur)\s+(?:(?:first|second|third|last|same|new)\s+)?("
    + "|".join(_DESCRIPTIONS.values())
    + "|"
    + _ARGUMENT_NOUNS
    + r")\b"
)
_NOUN_TYPE = {noun: t for t, nouns in _DESCRIPTIONS.items() for noun in nouns.split("|")}
_NOUN_TYPE.update({noun: ARGUMENT for noun in _ARGUMENT_NOUNS.split("|")})
_CLAIM = re.compile(
    r"[^.!?\n]*\b(?:we assume|assume that|suppose that|our premise|the premise is|we claim|"
    r"hypothesi[sz]e)\b[^.!?\n]*[.!?]?",
    re.IGNORECASE,
)
TRANSITION_ENTITIES = 3  # the outgoing episode's entities kept as weak candidates
TRANSITION_CHUNKS = 2  # chunks they stay for
SALIENCE_DECAY = 0.5  # an entity's salience kept from one chunk to the next


@dataclass
class ActiveEntity:
    name: str
    type: str
    surfaces: list[str] = field(default_factory=list)
    mentions: float = 0.0  # names and descriptions of it, halved at each chunk (salience)
    first: int = 0  # when it was first named (order in the document)


@dataclass(frozen=True)
class Reference:
    """A phrase such as "the company" and what it resolved to (None while unresolved)."""

    phrase: str
    kind: str  # an entity type or ARGUMENT
    start: int
    end: int
    target: str | None = None
    tentative: bool = False  # resolved to a weak candidate of the episode before


@dataclass(frozen=True)
class StateView:
    """A read-only picture of the state, for prompts, receipts and tests."""

    outline: tuple[OutlineEntry, ...]
    section_path: tuple[str, ...]
    active_entities: tuple[tuple[str, str], ...]  # (name, type), most recent last
    unresolved: tuple[str, ...]
    branch: str | None
    transitional: tuple[tuple[str, str], ...] = ()  # weak candidates from the episode before


class ShortTermState(Protocol):
    def begin_chunk(self, section_path: Sequence[str], boundary: bool = False) -> bool:
        """Enter the next chunk; returns True when it crossed a section boundary or starts an
        episode found in the text (`boundary`), and reset."""
        ...

    def canonical(self, surface: str, type: str) -> ActiveEntity | None:
        """The active entity a name refers to within this section, if any."""
        ...

    def remember(self, name: str, type: str, surface: str) -> None: ...

    def refer(self, reference: Reference) -> Reference:
        """Resolve a definite description or demonstrative; unresolved ones are kept open."""
        ...

    def set_branch(self, claim: str) -> None: ...

    def view(self) -> StateView: ...


class WorkingMemory:
    """`ShortTermState` held in process memory for the length of one document's ingestion."""

    def __init__(self, outline: Iterable[OutlineEntry] = ()) -> None:
        self.outline = tuple(outline)
        self.section_path: tuple[str, ...] | None = None
        self._reset()

        self.weak: list[ActiveEntity] = []
        self.weak_chunks = 0
        self.named = 0

    def _reset(self) -> None:
        self.active: list[ActiveEntity] = []
        self.unresolved: list[Reference] = []
        self.branch: str | None = None

    def begin_chunk(self, section_path: Sequence[str], boundary: bool = False) -> bool:
        path = tuple(section_path)
        crossed = self.section_path is not None and (path != self.section_path or boundary)
        if crossed:
            salient = sorted(self.active, key=lambda e: e.mentions, reverse=True)
            self.weak = sorted(salient[:TRANSITION_ENTITIES], key=self.active.index)
            self.weak_chunks = TRANSITION_CHUNKS
            self._reset()
        else:
            for entity in self.active:  # what was named or described lately counts most
                entity.mentions *= SALIENCE_DECAY
            if self.weak_chunks:
                self.weak_chunks -= 1
                self.weak = self.weak if self.weak_chunks else []
        self.section_path = path
        return crossed

    def canonical(self, surface: str, type: str) -> ActiveEntity | None:
        """The active entity of `type` that `surface` names: the same name, part of a person's
        or organisation's name (a lone surname), or the acronym of a name ("IBM")."""
        wanted = _name_tokens(surface)
        if not wanted:
            return None
        short = surface.lower() if ACRONYM.match(surface) else ""
        for entity in [*reversed(self.active), *reversed(self.weak)]:
            if entity.type != type:
                continue
            tokens = _name_tokens(entity.name)
            if wanted == tokens or (
                wanted < tokens and type in ("Person", "Organization", "Object")
            ):
                return entity
            if short and type != "Person" and acronym(entity.name) == short:
                return entity
        return None

    def remember(self, name: str, type: str, surface: str) -> None:
        entity = next((e for e in self.active if e.name == name and e.type == type), None)
        if entity is None:
            entity = next((e for e in self.weak if e.name == name and e.type == type), None)
            entity = ActiveEntity(name, type, list(entity.surfaces) if entity else [])
            self.named += 1
            entity.first = self.named
            self.weak = [e for e in self.weak if (e.name, e.type) != (name, type)]
        else:
            self.active.remove(entity)
        entity.mentions += 1
        if surface not in entity.surfaces:
            entity.surfaces.append(surface)
        self.active.append(entity)  # most recent last
        self.unresolved = [self._late(ref, entity) for ref in self.unresolved]
        self.unresolved = [ref for ref in self.unresolved if ref.target is None]

    def _late(self, ref: Reference, entity: ActiveEntity) -> Reference:
        return (
            Reference(ref.phrase, ref.kind, ref.start, ref.end, entity.name)
            if (ref.kind == entity.type)
            else ref
        )

    def refer(self, reference: Reference) -> Reference:
        tentative = False
        if reference.kind == ARGUMENT:
            target = self.branch
        else:
            found = _salient(self.active, reference.kind)
            if found is None and reference.kind == "Organization":
                found = _person_in_name_only(self.active)
            if found is None:
                # The last the outgoing episode named: where a boundary is found a chunk late,
                # the new topic's company, named just before it.
                found = next((e for e in reversed(self.weak) if e.type == reference.kind), None)
                tentative = found is not None
            else:
                found.mentions += 1  # "the company" again is the company it was before
            target = found.name if found else None
        resolved = Reference(
            reference.phrase, reference.kind, reference.start, reference.end, target, tentative
        )
        if target is None:
            self.unresolved.append(resolved)
        return resolved

    def set_branch(self, claim: str) -> None:
        self.branch = claim.strip()[:300]

    def view(self) -> StateView:
        return StateView(
            outline=self.outline,
            section_path=self.section_path or (),
            active_entities=tuple((e.name, e.type) for e in self.active),
            unresolved=tuple(ref.phrase for ref in self.unresolved),
            branch=self.branch,
            transitional=tuple((e.name, e.type) for e in self.weak),
        )


def _salient(entities: list[ActiveEntity], type: str) -> ActiveEntity | None:
    """The entity of `type` a description points to: the most salient (named or described
    most often, lately), the first named among equals (an episode's subject is named early and
    described often; a name the extractor typed wrongly, "Ivo Novak" as an organisation, is
    named in passing)."""
    best = None
    for entity in entities:
        if entity.type == type and (best is None or entity.mentions > best.mentions or (
            entity.mentions == best.mentions and entity.first < best.first)):  # fmt: skip
            best = entity
    return best


def _person_in_name_only(entities: list[ActiveEntity]) -> ActiveEntity | None:
    """A "person" the extractor typed from a name that opens with no known first name
    ("Oakridge Freight"): the organisation "the company" points to when no organisation is
    active. The description is evidence of its type, so it becomes one in the state."""
    for entity in reversed(entities):
        words = entity.name.split()
        if entity.type == "Person" and len(words) >= 2 and not opens_with_given_name(entity.name):
            entity.type = "Organization"
            entity.mentions += 1
            return entity
    return None


def _name_tokens(name: str) -> frozenset[str]:
    # "Élodie:" over a turn is the "elodie marchand" a recogniser wrote without the accent
    words = re.findall(r"[\w'-]+", unidecode(name).lower())
    # A model's name is its stem and its number however joined: 'Haldo510', 'Haldo-510' and
    # 'Haldo 510' are one name, and 'Haldo' alone a part of it.
    words = [p for w in words for p in (_CODE_PARTS.findall(w) if _CODED.search(w) else [w])]
    return frozenset(w for w in words if w not in HONORIFICS)


_CODED = re.compile(r"[^\W\d_]\d|\d[^\W\d_]|[^\W\d_]-\d")
_CODE_PARTS = re.compile(r"[^\W\d_]+|\d+")


@dataclass(frozen=True)
class NamedSpan:
    """An entity mention found by an extractor: its surface, offsets in the chunk, and type."""

    surface: str
    start: int
    end: int
    type: str
    name: str = ""  # the name the extractor gave, when the surface is an alias of it


@dataclass(frozen=True)
class LocalMention:
    """A mention after local resolution: `name` is the entity it stands for in this document."""

    surface: str
    start: int
    end: int
    name: str
    type: str
    via: str  # "name" | "state" | "reference"


@dataclass
class ChunkReading:
    mentions: list[LocalMention]
    references: list[Reference]
    arguments: list[ArgumentSpan] = field(default_factory=list)


def read_chunk(state: ShortTermState, text: str, spans: Sequence[NamedSpan]) -> ChunkReading:
    """Walk the chunk in reading order: names are resolved against the state then remembered,
    descriptions ("the company") and demonstratives ("this assumption") point back to what is
    active at that point, and stated premises become the current branch."""
    events: list[tuple[int, int, object]] = [(s.start, 0, s) for s in spans]
    for match in _REFERENCE.finditer(text):
        if not any(s.start <= match.start() < s.end for s in spans):
            kind = _NOUN_TYPE[match.group(1).lower()]
            events.append((match.start(), 1, Reference(match.group(0), kind, *match.span())))
    for match in _CLAIM.finditer(text):
        events.append((match.end(), 2, match))
    mentions: list[LocalMention] = []
    references: list[Reference] = []
    arguments: list[ArgumentSpan] = []
    for _, _, event in sorted(events, key=lambda e: (e[0], e[1])):
        if isinstance(event, NamedSpan):
            given = event.name or event.surface
            known, type_ = name_owner(state, given, event.type)
            name = known.name if known else given
            state.remember(name, type_, event.surface)
            mentions.append(
                LocalMention(event.surface, event.start, event.end, name, type_,
                             "state" if known and known.name != given else "name")
            )  # fmt: skip
        elif isinstance(event, Reference):
            resolved = state.refer(event)
            references.append(resolved)
            if resolved.target and resolved.kind != ARGUMENT:
                mentions.append(
                    LocalMention(resolved.phrase, resolved.start, resolved.end,
                                 resolved.target, resolved.kind, "reference")
                )  # fmt: skip
        else:
            state.set_branch(event.group(0))
            stated = argument_span(text, *event.span())
            if stated:
                arguments.append(stated)
    # A name a later mention showed to be a person's (name_owner) is a person in every mention.
    people = {m.name for m in mentions if m.type == "Person" and m.via != "reference"}
    mentions = [LocalMention(m.surface, m.start, m.end, m.name, "Person", m.via)
                if m.type == "Object" and m.name in people and m.via != "reference" else m
                for m in mentions]  # fmt: skip
    reading = _cataphora(given_names_completed(mentions), references)
    reading.arguments = [_about(a, reading.mentions) for a in arguments]
    return reading


def _about(argument: ArgumentSpan, mentions: list[LocalMention]) -> ArgumentSpan:
    names = dict.fromkeys(m.name for m in mentions
                          if argument.start <= m.start and m.end <= argument.end)  # fmt: skip
    return ArgumentSpan(argument.kind, argument.text, argument.start, argument.end, tuple(names))


def _cataphora(mentions: list[LocalMention], references: list[Reference]) -> ChunkReading:
    """A description still open, or resolved only to a weak candidate of the episode before,
    points to the first entity of its type the chunk names after it ("The company said on
    Monday that Northwind Freight ..."): what the new episode names ranks first."""
    for i, ref in enumerate(references):
        if ref.kind == ARGUMENT or not (ref.target is None or ref.tentative):
            continue
        later = next((m for m in mentions if m.via != "reference" and m.type == ref.kind
                      and m.start >= ref.end), None)  # fmt: skip
        if later is None:
            continue
        references[i] = Reference(ref.phrase, ref.kind, ref.start, ref.end, later.name)
        mentions[:] = [m for m in mentions if (m.start, m.via) != (ref.start, "reference")]
        mentions.append(LocalMention(ref.phrase, ref.start, ref.end, later.name, ref.kind,
                                     "reference"))  # fmt: skip
    mentions.sort(key=lambda m: m.start)
    return ChunkReading(mentions, references)
