"""The user's related messages for a context call: MESSAGE_HITS' candidates (apps.conversations
.context) ranked by reciprocal rank over their places by meaning and by words, above the floor."""

from __future__ import annotations

from apps.conversations import context_floors as floors
from apps.graph.marginal_relevance import mmr_order
from apps.graph.rank_fusion import rrf_fuse


def messages_fused(rows: list[dict], *, k: int, depth: int, vector=None) -> tuple[list[dict], int]:
    """The k best candidates above the floor by reciprocal rank over their places by meaning
    and by words, and how many of the k best without the floor it left out. The places by
    meaning are in marginal-relevance order (the closest first, then each next the closest
    that is least like those before it), so a crowd of near-alike messages cannot take all of
    them. Only the first third of k places by words take part: a message among them that is
    also near in meaning comes first, and a name found by words alone gets in, but a common
    word the question shares with many messages (or a word of two senses) never pushes more
    than a third of the closest by meaning out."""
    by_uid = {r["message"]["uid"]: r for r in rows}
    words = sorted((r for r in rows if r["word_place"] is not None), key=lambda r: r["word_place"])
    words = words[: word_places(k)]
    near = [
        r for r in sorted(rows, key=lambda r: r["meaning_place"]) if r["meaning_place"] <= depth
    ]
    if vector is not None and near:
        near = [near[i] for i in mmr_order(vector, [r["vector"] for r in near])]
    fused = rrf_fuse({"meaning": [r["message"]["uid"] for r in near],
                      "words": [r["message"]["uid"] for r in words]})  # fmt: skip
    kept, _ = floors.messages_above_floor([{**by_uid[f["uid"]], "fused": f} for f in fused])
    wanted = {f["uid"] for f in fused[:k]}
    below = len(wanted - {r["message"]["uid"] for r in kept[:k]})
    return [
        {**r["message"], "score": round(r["fused"]["score"], 5),
         "similarity": round(r["similarity"], 5), "ranks": r["fused"]["ranks"]}
        for r in kept[:k]
    ], below  # fmt: skip


def word_places(k: int) -> int:
    return max(1, k // 3)
