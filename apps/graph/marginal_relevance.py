"""Maximal marginal relevance (Carbonell and Goldstein, 1998): a ranking by similarity to a query
re-ordered so that each next place goes to the candidate most similar to the query and least
similar to the ones already placed. In a long history many near-alike messages (the same status
chatter in slightly different words) can take every first place; one of them then stands for
all, and the places they leave go to messages that say something else."""

from __future__ import annotations

import numpy as np

# The weight of similarity to the query against similarity to those already placed (1 is the
# plain ranking). Chosen on the recall benchmark's tuning seed (11) as the mildest weight with
# its best recall; see the README.
RELEVANCE_WEIGHT = 0.85


def mmr_order(query, vectors, *, weight: float = RELEVANCE_WEIGHT) -> list[int]:
    """Indexes into `vectors` (candidates' embeddings, any norm) in marginal-relevance order;
    the most similar to `query` always comes first. Ties go to the lower index."""
    if len(vectors) == 0:
        return []
    matrix = np.asarray(vectors, dtype=np.float32)
    matrix = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    q = np.asarray(query, dtype=np.float32)
    # einsum's own loop on the calling thread, not numpy's BLAS: it gives these small products
    # to two threads, and one waiting on a busy core took 20-40 ms of a 0.4 ms order (issue 36).
    relevance = np.einsum("ij,j->i", matrix, q / max(float(np.linalg.norm(q)), 1e-12))
    pairwise = np.einsum("ij,kj->ik", matrix, matrix)
    redundancy = np.zeros(len(matrix), dtype=np.float32)  # most similar placed one, so far
    taken = np.zeros(len(matrix), dtype=bool)
    order: list[int] = []
    for _ in range(len(matrix)):
        marginal = weight * relevance - (1 - weight) * redundancy if order else relevance.copy()
        marginal[taken] = -np.inf
        pick = int(np.argmax(marginal))
        order.append(pick)
        taken[pick] = True
        redundancy = pairwise[pick] if len(order) == 1 else np.maximum(redundancy, pairwise[pick])
    return order
