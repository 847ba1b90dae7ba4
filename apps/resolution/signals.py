"""The three identity signals (exact, fuzzy, semantic), their combined score and the reason text.

Pure functions: no graph, no model. The gate feeds them what the indexes found.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz

FUZZY_WEIGHT = 0.45
SEMANTIC_WEIGHT = 0.55
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


def name_normalize(name: str) -> str:
    """Case, accents, punctuation and spacing do not make a different name:
    'Acme, Inc.' and 'acme inc' normalize alike."""
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", stripped.casefold()).replace("_", " ").strip()


@dataclass(frozen=True)
class Signals:
    exact: float
    fuzzy: float
    semantic: float

    @property
    def score(self) -> float:
        return max(self.exact, FUZZY_WEIGHT * self.fuzzy + SEMANTIC_WEIGHT * self.semantic)

    def as_dict(self) -> dict[str, float]:
        return {
            "exact": round(self.exact, 4),
            "fuzzy": round(self.fuzzy, 4),
            "semantic": round(self.semantic, 4),
        }


def signals_compute(
    candidate_norms: Iterable[str], entity_norms: Iterable[str], *, semantic: float
) -> Signals:
    """exact: a normalized name or alias in common; fuzzy: the best token-order-insensitive
    similarity between any two names; semantic: cosine of the embeddings (Neo4j computes it
    beside the index, so vectors never travel)."""
    mine = [n for n in dict.fromkeys(candidate_norms) if n]
    theirs = [n for n in dict.fromkeys(entity_norms) if n]
    exact = 1.0 if set(mine) & set(theirs) else 0.0
    fuzzy = max((fuzz.token_sort_ratio(a, b) / 100.0 for a in mine for b in theirs), default=0.0)
    return Signals(exact=exact, fuzzy=fuzzy, semantic=max(0.0, min(1.0, semantic)))


def reason_text(
    signals: Signals, *, decision: str, merge_at: float, review_at: float, matched: str | None
) -> str:
    head = (
        f"exact={signals.exact:.2f} fuzzy={signals.fuzzy:.2f} semantic={signals.semantic:.2f} "
        f"score={signals.score:.2f}"
    )
    rule = f"(merge >= {merge_at:.2f}, review >= {review_at:.2f})"
    if matched is None:
        return f"no candidate of this type found by name or meaning {rule} -> {decision}"
    return f"{head} against '{matched}' {rule} -> {decision}"
