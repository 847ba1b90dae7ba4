"""The names and aliases a tenant's graph already knows, matched in text by a spaCy
`PhraseMatcher`, so the extractor finds an entity the small NER model misses ("Zorbatech",
"the Analytical Engine") once the tenant has met it.

Bounded (the MAX_NAMES entities updated last) and kept per tenant for CACHE_SECONDS in each
process: building costs one query and a pass of the tokenizer over the names. Names a window
writes are added at once (`known_names_learn`); `known_names_forget` drops a tenant's copy (erasure, tests).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from apps.graph import cypher
from apps.graph.scope import Scope

MAX_NAMES = 5000
CACHE_SECONDS = 120.0
MIN_CHARS, MAX_CHARS = 2, 100

KNOWN_NAMES = """
MATCH (e:Entity {tenant: $tenant})
WHERE e.status = 'active'
WITH e ORDER BY e.updated_at DESC LIMIT $limit
RETURN e.name AS name, e.type AS type, coalesce(e.aliases, []) AS aliases
"""


@dataclass
class KnownNames:
    """Surface form -> (entity name, type), and the matcher over those surfaces."""

    nlp: object
    built: float = field(default_factory=time.monotonic)
    by_surface: dict[str, tuple[str, str]] = field(default_factory=dict)
    _matcher: object = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        from spacy.matcher import PhraseMatcher

        self._matcher = PhraseMatcher(self.nlp.vocab, attr="ORTH")

    def add(self, entries: list[tuple[str, str, list[str]]]) -> None:
        """(name, type, aliases) rows; the first entity to claim a surface keeps it."""
        fresh = []
        with self._lock:
            for name, type_, aliases in entries:
                for surface in (name, *aliases):
                    surface = surface.strip()
                    if _name_part(surface, name):
                        continue
                    if MIN_CHARS <= len(surface) <= MAX_CHARS and surface not in self.by_surface:
                        self.by_surface[surface] = (name, type_)
                        fresh.append(surface)
            # A pattern per surface: its key is the surface itself, read back from the vocab.
            for surface, doc in zip(fresh, self.nlp.tokenizer.pipe(fresh), strict=True):
                self._matcher.add(surface, [doc])

    def spans(self, doc) -> list[tuple[int, int, str, str, str]]:
        """(start_char, end_char, surface, name, type) of known surfaces in `doc`, longest
        first, none overlapping another."""
        if not self.by_surface:
            return []
        with self._lock:
            found = self._matcher(doc)
        found.sort(key=lambda m: (-(m[2] - m[1]), m[1]))
        taken: set[int] = set()
        spans = []
        for match_id, start, end in found:
            if taken & set(range(start, end)):
                continue
            taken |= set(range(start, end))
            surface = self.nlp.vocab.strings[match_id]
            name, type_ = self.by_surface[surface]
            span = doc[start:end]
            spans.append((span.start_char, span.end_char, span.text, name, type_))
        return sorted(spans)


def _name_part(surface: str, name: str) -> bool:
    """A lone word of a longer name ('Holmgren' of 'Elena Holmgren'): the document that said
    it named its entity in full first; matched across the tenant it would take every Holmgren
    for her."""
    words = name.lower().split()
    return " " not in surface.strip() and len(words) >= 2 and surface.lower() in words


_cache: dict[str, KnownNames] = {}
_cache_lock = threading.Lock()


def known_names(scope: Scope, nlp) -> KnownNames:
    """The tenant's known names for `nlp`, read from the graph at most every CACHE_SECONDS."""
    with _cache_lock:
        cached = _cache.get(scope.tenant)
    if cached and cached.nlp is nlp and time.monotonic() - cached.built < CACHE_SECONDS:
        return cached
    rows = cypher.read(scope, KNOWN_NAMES, limit=MAX_NAMES)
    known = KnownNames(nlp)
    known.add([(r["name"], r["type"], list(r["aliases"])) for r in rows])
    with _cache_lock:
        _cache[scope.tenant] = known
    return known


def known_names_learn(tenant: str, entries: list[tuple[str, str, list[str]]]) -> None:
    """Names this process has just written: matched from the next window on, without waiting
    for the cache to expire."""
    with _cache_lock:
        cached = _cache.get(tenant)
    if cached and entries:
        cached.add(entries)


def known_names_forget(tenant: str) -> None:
    with _cache_lock:
        _cache.pop(tenant, None)
