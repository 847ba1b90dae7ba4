"""Reciprocal rank fusion: one ranking out of several (full-text, vector...) by places only, since
scores of different indexes do not compare."""

from __future__ import annotations

RRF_K = 60  # the usual constant: damps the weight of the first places


def rrf_fuse(rankings: dict[str, list[str]], *, k: int = RRF_K) -> list[dict]:
    """`{name: [uid, ...] best first}` -> `[{uid, score, ranks: {name: place}}]`, best first, ties
    by uid (deterministic)."""
    fused: dict[str, dict] = {}
    for name, uids in rankings.items():
        for place, uid in enumerate(uids, start=1):
            item = fused.setdefault(uid, {"uid": uid, "score": 0.0, "ranks": {}})
            item["score"] += 1.0 / (k + place)
            item["ranks"][name] = place
    return sorted(fused.values(), key=lambda item: (-item["score"], item["uid"]))
