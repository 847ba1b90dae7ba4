"""The names and aliases a tenant's graph already knows, matched in text by a spaCy
`PhraseMatcher`, so the extractor finds an entity the small NER model misses ("Zorbatech",
"the Analytical Engine") once the tenant has met it.

Bounded (the MAX_NAMES entities updated last) and kept per tenant for CACHE_SECONDS in each
process: building costs one query and a pass of the tokenizer over the names. Names a window
writes are added at once (`known_names_learn`); `known_names_forget` drops a tenant's copy (erasure, tests).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass, field

from wordfreq import zipf_frequency

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.resolution.comparisons.organisation_names import TRADE_WORDS, legal_base

MAX_NAMES = 5000
CACHE_SECONDS = 120.0
MIN_CHARS, MAX_CHARS = 2, 100
SHORT_MIN = 5
UPPER_MIN = 4
SAID_MAX_ZIPF = 2.5  # wordfreq's scale: 'ardentis' 0, 'pellworth' 0; 'summit' 4.2, 'polar' 3.9

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
    by_surface: dict[str, tuple[str, str] | None] = field(default_factory=dict)
    person_words: set[str] = field(default_factory=set)
    _matcher: object = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        from spacy.matcher import PhraseMatcher

        self._matcher = PhraseMatcher(self.nlp.vocab, attr="ORTH")

    def add(self, entries: list[tuple[str, str, list[str]]]) -> None:
        """(name, type, aliases) rows; the first entity to claim a surface keeps it, but a person
        takes it from a thing (a name the model missed, typed a thing by a note). A firm's
        short name ('Tellurion' of 'Tellurion Systems GmbH') is its surface too, unless
        another firm's short name or a word of a person's name is the same word."""
        fresh = []
        with self._lock:
            for name, type_, aliases in entries:
                if type_ == "Person":
                    self.person_words |= {w.casefold() for w in name.split()}
                for surface in (name, *aliases):
                    surface = surface.strip()
                    if _name_part(surface, name):
                        continue
                    if not MIN_CHARS <= len(surface) <= MAX_CHARS:
                        continue
                    if surface not in self.by_surface:
                        self.by_surface[surface] = (name, type_)
                        fresh.append(surface)
                    elif (
                        type_ == "Person" and (self.by_surface[surface] or ("", ""))[1] == "Object"
                    ):
                        # A person's name a note typed a thing (the model missed it) is the person's.
                        self.by_surface[surface] = (name, type_)
            # A firm's registered name kept as an alias ('Pelagos Shipping S.A.' of 'Pelagos')
            # is said without its legal form too: "Pelagos Shipping's paralegal".
            firms = [(full, name, type_) for name, type_, aliases in entries
                     if type_ == "Organization" for full in (name, *aliases)]  # fmt: skip
            for full, name, type_ in firms:
                base = firm_base_name(full)
                # 'Cindral Thermal' of '... Inc.': a firm, under its own name, so the gate
                # still reads a registered name and its short form (organisation_names)
                if base and base not in self.by_surface:
                    self.by_surface[base] = (base, type_)
                    fresh.append(base)
                short = firm_short_name(full)
                if not short:
                    continue
                known = self.by_surface.get(short, ())
                if short.casefold() in self.person_words or (
                    known and known[1] in ("Organization", "Person") and known[0] != name
                ):
                    self.by_surface[short] = None  # two claims: the short name is no one's
                elif known is not None and known[:1] != (name,):
                    # An entity of that name NER typed a place or a thing is the firm's split.
                    self.by_surface[short] = (name, type_)
                    fresh.append(short)
            # A pattern per surface: its key is the surface itself, read back from the vocab.
            for surface, doc in zip(fresh, self.nlp.tokenizer.pipe(fresh), strict=True):
                forms = [f for f in (self._shouted(surface), self._said(surface)) if f]
                self._matcher.add(surface, [doc, *(self.nlp.tokenizer(f) for f in forms)])

    def _shouted(self, surface: str) -> str:
        """A firm's or a product's name as notes shout it ('TUPANA' for 'Tupana'), matched as
        the name itself; '' for a person's name or a word of one ('MAYA' may be Maya shouted),
        a name already in capitals, or one of fewer than UPPER_MIN letters ('AP', 'IT')."""
        letters = [c for c in surface if c.isalpha()]
        type_ = (self.by_surface.get(surface) or ("", ""))[1]
        if type_ not in ("Organization", "Object") or len(letters) < UPPER_MIN:
            return ""
        if all(c.isupper() for c in letters):
            return ""
        if any(w.casefold() in self.person_words for w in surface.split()):
            return ""
        return surface.upper()

    def _said(self, surface: str) -> str:
        """A firm's or a product's name as a speech recogniser writes it ('ardentis security'
        for 'Ardentis Security'), matched as the name itself, when a word of it is one English
        rarely uses (SAID_MAX_ZIPF: 'summit health' is said of anything); '' otherwise."""
        type_ = (self.by_surface.get(surface) or ("", ""))[1]
        said = surface.lower()
        if type_ not in ("Organization", "Object") or said == surface or len(said) < SHORT_MIN:
            return ""
        words = said.split()
        if any(w in self.person_words for w in words):
            return ""
        if not any(w.isalpha() and zipf_frequency(w, "en") < SAID_MAX_ZIPF for w in words):
            return ""
        return said

    def person_word(self, surface: str) -> bool:
        """Whether a lone word is a word of a person's name the tenant knows ('Sargsyan' of
        'Anahit Sargsyan'): the small model types a lone surname a place or a firm."""
        with self._lock:
            return " " not in surface.strip() and surface.strip().casefold() in self.person_words

    def halves_joined(self, spans: list) -> list:
        """A note that names a person by a lone given name and a lone surname only ("Q: who is
        Taras? ... Melnychuk's crochet thing"): when the two words make the name of a person the
        tenant knows, and the note names no other lone person word and no full name holding
        either, both mentions are that person's (NamedSpan.name)."""
        people = [s for s in spans if s.type == "Person" and not s.name]
        lone = [s for s in people if " " not in s.surface.strip()]
        words = list(dict.fromkeys(s.surface.strip() for s in lone))
        if len(words) != 2 or any(
            set(words) & set(s.surface.split()) for s in people if " " in s.surface.strip()
        ):
            return spans
        with self._lock:
            known = [self.by_surface.get(f"{a} {b}") for a, b in (words, words[::-1])]
        names = {k[0] for k in known if k and k[1] == "Person"}
        if len(names) != 1:
            return spans
        name = names.pop()
        return [dataclasses.replace(s, name=name) if s in lone else s for s in spans]

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
            if self.by_surface.get(surface) is None:
                continue  # a short name two firms (or a firm and a person) claim
            name, type_ = self.by_surface[surface]
            span = doc[start:end]
            spans.append((span.start_char, span.end_char, span.text, name, type_))
        return sorted(spans)


def firm_base_name(name: str) -> str:
    """A firm's name as written without its legal form ('Cindral Thermal' of 'Cindral Thermal
    Inc.'), when that leaves two words or more; '' otherwise (one word is firm_short_name's)."""
    base = legal_base(name).split()
    written = name.split()[: len(base)]
    if len(base) < 2 or len(written) == len(name.split()):
        return ""
    if [legal_base(w) for w in written] != base:
        return ""
    return " ".join(written)


def firm_short_name(name: str) -> str:
    """The one distinctive word a firm's name is said by when the rest is its legal form and
    trades ('Danubis' of 'Danubis Pharma Zrt.', 'Tervaniemi' of 'Tervaniemi Oy'), as written
    in the name; '' when there is none (two words left, or a word of fewer than SHORT_MIN
    letters: 'Acme' may be anything's)."""
    words = legal_base(name).split()
    while len(words) > 1 and words[-1] in TRADE_WORDS:
        words.pop()
    if len(words) != 1 or len(words[0]) < SHORT_MIN or not words[0].isalpha():
        return ""
    written = [w for w in name.split() if w.casefold() == words[0]]
    return written[0] if written and written[0] != name.strip() else ""


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
