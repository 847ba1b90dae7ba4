"""The neomodel node classes every app shares, one module per family of memory."""

from apps.graph.nodes import (
    conversations,
    documents,
    entities,
    failures,
    lessons,
    reviews,
    timeline,
    work,
)
from apps.graph.nodes.documents import Chunk, Document
from apps.graph.nodes.entities import ENTITY_TYPES, Entity
from apps.graph.nodes.failures import WriteFailure

# Extra schema (full-text, vector, composite keys) beyond what neomodel installs from the classes.
FAMILIES = [documents, entities, failures, conversations, lessons, reviews, timeline, work]

__all__ = ["Chunk", "Document", "ENTITY_TYPES", "Entity", "FAMILIES", "WriteFailure"]
