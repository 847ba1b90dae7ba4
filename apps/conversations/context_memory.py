"""The parts of a prompt's context that come from other memory families: the user's promoted
knowledge (seed 002's rule: 1-2 facts from the nodes the question names, confidence >= 0.5,
weight then heat) and the tenant's episode entries that match the question (words and meaning,
fused). Each keeps to its own floor (apps/knowledge/selectors.py, apps/lessons/entry_selectors.py)
and runs in a read transaction of its own, beside the other searches of conversations.context."""

from __future__ import annotations

import time

from apps.graph.embeddings import get_embedder
from apps.ingestion.passage_selectors import do_passages_find
from apps.knowledge.selectors import do_knowledge_facts_find
from apps.lessons.entry_selectors import do_entries_find


def knowledge_read(unit, *, user, message, k) -> tuple[dict, list[dict]]:
    """The user's facts for the message: at most 2k, the strongest first."""
    mark = time.perf_counter()
    found = do_knowledge_facts_find(unit, user=user, text=message or "", limit=k * 2)
    step = {"step": "knowledge", "ms": _ms(mark), "count": len(found["facts"])}
    return {"knowledge": found["facts"], "knowledge_below_floor": found["below_floor"],
            "knowledge_beyond_k": found["beyond_limit"]}, [step]  # fmt: skip


def entries_read(unit, *, message, vector, k) -> tuple[dict, list[dict]]:
    """The tenant's episode entries for the message: at most k, above the floor."""
    mark = time.perf_counter()
    found = do_entries_find(unit, text=message or "", vector=vector, limit=k,
                            embed=get_embedder().embed)  # fmt: skip
    step = {"step": "entries", "ms": _ms(mark), "count": len(found["entries"])}
    return {"entries": found["entries"], "entries_below_floor": found["below_floor"]}, [step]


def passages_read(unit, *, message, vector, k) -> tuple[dict, list[dict]]:
    """The tenant's passages (document chunks) for the message: at most k, above the floor."""
    mark = time.perf_counter()
    found = do_passages_find(unit, text=message, vector=vector, limit=k)
    step = {"step": "passages", "ms": _ms(mark), "count": len(found["passages"])}
    return {"passages": found["passages"], "passages_below_floor": found["below_floor"]}, [step]


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)
