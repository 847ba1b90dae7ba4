"""The vectors a candidate is resolved with: its name with its description (blocking, search),
and its description alone (the description comparison), embedded in one batch, outside any
write transaction."""

from __future__ import annotations

import dataclasses

from apps.graph.embeddings import get_embedder
from apps.resolution.candidates import EntityCandidate


def candidates_embed(entities: list[EntityCandidate]) -> list[EntityCandidate]:
    """The same candidates with embeddings of name plus description (blocking, search) and of
    the description alone (the description comparison), in one batch with the process's model.
    Pure: call it before (outside) the write transaction."""
    return candidates_and_texts_embed(entities, [])[0]


def candidates_and_texts_embed(
    entities: list[EntityCandidate], texts: list[str], *, embed=None
) -> tuple[list[EntityCandidate], list[list[float]]]:
    """`candidates_embed`, and the vectors of `texts` (a window's chunks), in one call of
    `embed` (the model's by default); a text asked twice (a name named in many chunks) is
    embedded once."""
    todo = [i for i, c in enumerate(entities) if c.embedding is None]
    described = [i for i in todo if entities[i].description.strip()]
    asked = (list(texts) + [entities[i].embedding_text() for i in todo]
             + [entities[i].description for i in described])  # fmt: skip
    distinct = list(dict.fromkeys(asked))
    embed = embed or get_embedder().embed
    by_text = dict(zip(distinct, embed(distinct) if distinct else [], strict=True))
    out = list(entities)
    for i in todo:
        candidate = entities[i]
        described_vector = by_text[candidate.description] if i in described else None
        out[i] = dataclasses.replace(
            candidate,
            embedding=tuple(by_text[candidate.embedding_text()]),
            description_embedding=tuple(described_vector) if described_vector else None,
        )
    return out, [by_text[t] for t in texts]
