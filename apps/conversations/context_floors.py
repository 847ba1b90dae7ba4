"""The budget of a context call is a ceiling, not a target: each part (messages, passages,
entities, neighbours, knowledge, entries, traces) has a relevance floor, below which nothing is added however much
room is left, and the answer lists what was left out and why (`omitted`: part, count, reason).

Similarities are Neo4j's cosine ((1 + cos) / 2, as its vector indexes score). The floors were
chosen on the dev part of bench/context_passages.py and checked on its held-out part, and the
message floor on bench/conversations_recall.py (see docs/benchmarks/passages.md)."""

from __future__ import annotations

import numpy as np

from apps.graph.fulltext import STOP_WORDS
from apps.resolution.selectors import ENTITY_MEANING_FLOOR  # the entity search's own floor

# A message found by meaning alone, below this, is not given: just above unrelated text
# (0.60-0.61 on hand-checked pairs), since paraphrases with no word in common reach only
# 0.72-0.84 with this model and a user's own words must not be lost (bench/conversations_recall.py).
MESSAGE_FLOOR = 0.62
UNEMBEDDED_READ = 20  # the session's latest messages read whatever their vector's state


def cosine(vector, other) -> float:
    """Neo4j's cosine similarity of two vectors, (1 + cos) / 2."""
    a, b = np.asarray(vector, dtype=np.float32), np.asarray(other, dtype=np.float32)
    cos = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)
    return (1.0 + cos) / 2.0


def content_words(text: str) -> set[str]:
    import re

    return {w for w in re.findall(r"\w+", text.lower()) if w not in STOP_WORDS}


def unembedded_rows(pending: list[dict], *, rows: list[dict], question: str, vector, embed):
    """Rows for MESSAGE_HITS' shape from the session's latest messages that have no vector yet
    (the worker has not embedded them): embedded here, in one call of the model, and placed by
    words when they share a content word with the question. So a message appended just before
    a context call is in its context, whatever the state of the asynchronous indexes."""
    have = {r["message"]["uid"] for r in rows}
    pending = [m for m in pending if m["uid"] not in have and m.get("text")]
    if not pending or vector is None:
        return rows
    vectors = embed([m["text"] for m in pending])
    asked = content_words(question)
    word_hits = [r["word_place"] for r in rows if r["word_place"] is not None]
    next_word = max(word_hits, default=0) + 1
    extra = []
    for message, own in zip(pending, vectors, strict=True):
        shares = bool(asked & content_words(message["text"]))
        extra.append({"message": message, "similarity": cosine(vector, own), "vector": own,
                      "word_place": next_word if shares else None, "meaning_place": 0})  # fmt: skip
        next_word += 1 if shares else 0
    # Places by meaning are given again over all the candidates, with the new ones among them.
    merged = sorted([*rows, *extra], key=lambda r: -r["similarity"])
    return [{**r, "meaning_place": place} for place, r in enumerate(merged, start=1)]


def messages_above_floor(rows: list[dict]) -> tuple[list[dict], int]:
    """Candidates found by words, or near enough in meaning; and how many were left out."""
    kept = [r for r in rows if r["word_place"] is not None or r["similarity"] >= MESSAGE_FLOOR]
    return kept, len(rows) - len(kept)


def entities_by_meaning_above_floor(rows: list[dict]) -> tuple[list[str], int]:
    kept = [r["uid"] for r in rows if r["score"] >= ENTITY_MEANING_FLOOR]
    return kept, len(rows) - len(kept)


def neighbours_not_in_passages(neighbours: list[dict], passages: list[dict]):
    """A relation whose evidence is a chunk given as a passage is said by that passage already:
    its line is left out, so one fact is not given twice."""
    given = {p["uid"] for p in passages}
    kept = [n for n in neighbours if not given & set(n.get("chunks") or [])]
    return kept, len(neighbours) - len(kept)


def entities_not_in_passages(entities: list[dict], passages: list[dict]):
    """An entity line adds its name, type and description; one whose description a passage
    already holds word for word adds nothing the passage does not say."""
    texts = [p["text"].lower() for p in passages]
    kept = []
    for entity in entities:
        about = (entity.get("description") or "").strip().lower()
        if about and any(about in text for text in texts):
            continue
        kept.append(entity)
    return kept, len(entities) - len(kept)


def omitted_add(omitted: list[dict], part: str, count: int, reason: str) -> None:
    if count > 0:
        omitted.append({"part": part, "count": count, "reason": reason})


BELOW_FLOOR = "below the relevance floor"
IN_PASSAGE = "said by a passage given"
BEYOND_K = "beyond the 2k strongest"
