"""What extractors and agents hand to the resolution gate, and the receipt it hands back.

Frozen values, so a candidate can be embedded once (outside any transaction) and passed around.
"""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass, field

RECEIPT_ACTIONS = ("created", "merged", "pending", "unchanged", "duplicate", "refused")


@dataclass(frozen=True)
class MentionSpan:
    """Where a candidate was named in its chunk: the surface form and character offsets."""

    surface: str
    start: int
    end: int


@dataclass(frozen=True)
class EntityCandidate:
    name: str
    type: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    mentions: tuple[MentionSpan, ...] = ()
    embedding: tuple[float, ...] | None = None
    # The description alone, embedded: what the semantic signal compares when both sides have
    # a description (names are the fuzzy signal's; mixing them in blurs the description's).
    description_embedding: tuple[float, ...] | None = None
    # What the agent states about it (checked by `entity_values.validate_values`): a flat map of
    # scalars; the identifying ones (email, phone, born, id:<system>, ...) are compared.
    values: dict = field(default_factory=dict, hash=False, compare=False)
    # Where each value learned from text (`text:<key>`, see text_values) was read: a chunk's uid.
    value_sources: dict = field(default_factory=dict, hash=False, compare=False)
    # The type was guessed by an extractor (NER), not stated by an agent: evidence, not a wall
    # (comparisons.entity_types).
    type_guessed: bool = False
    # (type, name) of the entities named beside it (the same chunk, the same call): compared
    # with the match's neighbours (comparisons.context).
    context: tuple[tuple[str, str], ...] = ()
    # What the chunk's parse says of it (role, employer, city, maker: extraction's
    # mention_attributes), learned as `text:` values where nothing else says them.
    learned: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def embedding_text(self) -> str:
        return f"{self.name}. {self.description}" if self.description else self.name


@dataclass(frozen=True)
class RelationCandidate:
    """`subject` and `object` index into the entity candidates of the same call."""

    subject: int
    predicate: str
    object: int
    confidence: float = 1.0
    nuance: str = ""
    valid_from: datetime.datetime | None = None  # when the fact became true; else when stored


@dataclass(frozen=True)
class Provenance:
    """Who wrote it and where it came from; `chunk_uid` names a Chunk written in the same
    transaction (MENTIONS start there, and a relation counts one observation per chunk)."""

    agent: str
    document_uid: str | None = None
    chunk_uid: str | None = None


@dataclass
class Receipt:
    kind: str  # entity | relation
    name: str
    action: str  # one of RECEIPT_ACTIONS
    entity_uid: str | None = None
    matched_uid: str | None = None
    matched_name: str | None = None
    score: float | None = None
    signals: dict[str, float] = field(default_factory=dict)
    reason: str = ""
    # A pending candidate's proposals for review (up to 3, most probable first).
    proposed: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)
