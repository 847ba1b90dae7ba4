"""The neomodel node classes every app shares, one module per family of memory."""

from apps.graph.nodes import (
    communities,
    conversations,
    documents,
    entities,
    failures,
    lessons,
    reviews,
    timeline,
    work,
)
from apps.graph.nodes.deletions import DeletionLock
from apps.graph.nodes.documents import Chunk, Document
from apps.graph.nodes.entities import ENTITY_TYPES, Entity
from apps.graph.nodes.failures import WriteFailure
from apps.graph.nodes.tenancy import TenantNode

# Extra schema (full-text, vector, composite keys) beyond what neomodel installs from the classes.
FAMILIES = [documents, entities, failures, conversations, lessons, reviews, timeline, work,
            communities]  # fmt: skip

# Labels the graph uses without a node class: counters and marks of one tenant each.
CLASSLESS_LABELS = {"EntrySerial", "EntryToEmbed", "ExtractionMark", "GraphStamp", "GraphVersion",
                    "MessageToEmbed", "SimilaritySync"}  # fmt: skip


def graph_labels() -> frozenset[str]:
    """Every label of the graph's own nodes: a name a tenant may not give to one of its kinds."""
    found, todo = set(CLASSLESS_LABELS), list(TenantNode.__subclasses__())
    while todo:
        cls = todo.pop()
        found.add(getattr(cls, "__label__", cls.__name__))
        todo.extend(cls.__subclasses__())
    return frozenset(found)


__all__ = ["Chunk", "DeletionLock", "Document", "ENTITY_TYPES", "Entity", "FAMILIES", "WriteFailure",
           "graph_labels"]  # fmt: skip
