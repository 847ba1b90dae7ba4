"""Descriptions by the cosine of their embeddings: weak evidence only (two different people with
one generic description embed alike; a description that differs only in a date scores high)."""

from __future__ import annotations

from apps.resolution.comparisons import MISSING, Compared

HIGH = 0.90
MEDIUM = 0.70
LOW = 0.40


def compare_descriptions(semantic: float | None) -> Compared:
    if semantic is None:
        return Compared("description", MISSING)
    if semantic >= HIGH:
        level = "high"
    elif semantic >= MEDIUM:
        level = "medium"
    elif semantic >= LOW:
        level = "low"
    else:
        level = "unrelated"
    return Compared("description", level, f"descriptions at cosine {semantic:.2f}")
