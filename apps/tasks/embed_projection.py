"""The text a task is embedded by when its caller gives no `embed_text` (seed 000, embed_text).

Seed 000 embeds a one-sentence projection of about 8 to 12 words stating the core fact, never
the prose itself: long descriptions embed into vectors that cluster whatever they say. The
seed has a model rewrite it; here the projection is extracted, so it is deterministic and needs
no model: the description's first sentence (its title when the first line is one), its filler
words dropped when it is longer than EMBED_WORDS so that technical terms and names stay, filled
up from the next sentences' content words while shorter than MIN_WORDS, and cut at EMBED_WORDS.
"""

from __future__ import annotations

import re

EMBED_WORDS = 12  # seed 000's bound: 8 to 12 words
MIN_WORDS = 8
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")
MARKUP = re.compile(r"^\s*(?:#{1,6}|[-*+>]|\d+[.)])\s+")
FILLER = frozenset(
    "a an the of to in on at for by with from and or but is are was were be been being this "
    "that these those it its as into about then than so such very also just we our us you your "
    "i my me they their them he she his her please should would could can will shall may "
    "might must do does did have has had there here which who whom whose what when where how "
    "all any some each every more most other".split()
)


def _sentences(text: str) -> list[str]:
    """Lines without list or heading markup, each split into sentences, in order."""
    found = []
    for line in text.splitlines():
        line = MARKUP.sub("", line).strip()
        if line:
            found += [s.strip() for s in SENTENCE_END.split(line) if s.strip()]
    return found


def _content_words(words: list[str]) -> list[str]:
    return [w for w in words if w.lower().strip(".,;:!?\"'()[]") not in FILLER]


def embed_text_projection(text: str, *, words: int = EMBED_WORDS) -> str:
    """One sentence of at most `words` words standing for `text` in the vector space."""
    sentences = _sentences(text)
    if not sentences:
        return text.strip()[:200]
    kept = sentences[0].split()
    if len(kept) > words:
        kept = _content_words(kept) or kept
    for sentence in sentences[1:]:
        if len(kept) >= MIN_WORDS:
            break
        kept += _content_words(sentence.split())
    return " ".join(kept[:words]).rstrip(",;:-")
