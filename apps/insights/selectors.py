"""The graph as a whole, read: groups, important entities, brokers, communities (GDS through
apps/graph/algorithms.py) and the connection between two entities (apps/insights/connection.py).

Each answer names the oldest first among equals, so the same graph gets the same answer. Without
`at` an answer is kept until the graph changes (kept_answers.py); computing one takes the
tenant's one heavy-run mark (heavy_runs.py, 429 when taken) and is refused before projecting
when GDS estimates more memory than the tenant's `graph_memory_mb` (400); when Neo4j still
refuses memory (others hold it), 503.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings

from apps.graph import algorithms
from apps.graph.algorithms import GraphOutOfMemory, GraphTooLarge, View
from apps.graph.scope import Scope
from apps.insights.heavy_runs import RETRY_AFTER_SECONDS, heavy_run
from apps.insights.kept_answers import kept_answer_stamped
from memoryproject.api_errors import ApplicationError

NAMED_BY = 3  # a community is named by its most important members
SCORE_DIGITS = 9


def iso_time(value: Any) -> str | None:
    """A Neo4j or Python date-time as ISO 8601 text."""
    if value is None:
        return None
    return value.iso_format() if hasattr(value, "iso_format") else value.isoformat()


def _age(row: dict) -> tuple:
    """Oldest first; a node without a creation time after those with one, then by uid."""
    created = row.get("created_at")
    return (created is None, iso_time(created) or "", row["uid"])


def _answer(scope: Scope, question: dict, at: datetime | None, compute: Callable[[], dict]) -> dict:
    def heavy() -> dict:
        with heavy_run(scope):
            try:
                return compute()
            except GraphTooLarge as exc:
                raise ApplicationError(str(exc), code="graph_too_large", field=exc.setting,
                                       limit=exc.limit) from exc  # fmt: skip
            except GraphOutOfMemory as exc:
                raise ApplicationError(
                    f"The graph database has not enough free memory for this now ({exc}); "
                    "ask again later.", code="graph_out_of_memory", status=503,
                    extra={"retry_after": RETRY_AFTER_SECONDS},
                ) from exc  # fmt: skip

    if at is not None:
        return {**heavy(), "at": iso_time(at), "kept": False}
    answer, kept, stamp = kept_answer_stamped(scope, question, heavy)
    return {**answer, "at": None, "kept": kept, "stamp": stamp}


def _entity(row: dict, **extra) -> dict:
    return {"uid": row["uid"], "name": row.get("name") or row.get("title") or "",
            "type": "Episode" if row.get("record") else row.get("type") or "", **extra}  # fmt: skip


def graph_groups(scope: Scope, *, at: datetime | None = None, records: bool = False,
                 limit: int = 20, members: int = 10, kinds: list[str] | None = None,
                 relations: list[str] | None = None) -> dict:  # fmt: skip
    """Weakly connected groups (relations either way; with `records`, episodes ABOUT entities
    join them, never at a time), largest first: each with its size, its count of records, and
    its oldest `members`; a group is named by its oldest member's uid. `kinds` keeps the
    entities of those kinds only, `relations` the relations of those predicates only."""
    kinds = sorted(set(kinds)) if kinds else None
    relations = sorted(set(relations)) if relations else None
    view = View(at=at, episodes=records and at is None, kinds=tuple(kinds) if kinds else None,
                predicates=tuple(relations) if relations else None)  # fmt: skip

    def compute() -> dict:
        by_group: dict[int, list[dict]] = {}
        for row in algorithms.connected_nodes(scope, view):
            by_group.setdefault(row["group"], []).append(row)
        groups = [sorted(rows, key=_age) for rows in by_group.values()]
        groups.sort(key=lambda rows: (-len(rows), _age(rows[0])))
        return {
            "total": len(groups),
            "nodes": sum(len(rows) for rows in groups),
            "groups": [
                {
                    "id": rows[0]["uid"],
                    "size": len(rows),
                    "records": sum(1 for r in rows if r["record"]),
                    "members": [_entity(r) for r in rows[:members]],
                }  # fmt: skip
                for rows in groups[:limit]
            ],
        }

    question = {"q": "groups", "records": records, "limit": limit, "members": members,
                "kinds": kinds, "relations": relations}  # fmt: skip
    return _answer(scope, question, at, compute)


def graph_important(scope: Scope, *, at: datetime | None = None, predicate: str | None = None,
                    limit: int = 20) -> dict:  # fmt: skip
    """PageRank along the relations (of `predicate`, or all), scores adding up to 1 over every
    entity of the tenant (then): the `limit` highest."""
    view = View(at=at, predicate=predicate, directed=True)

    def compute() -> dict:
        rows = algorithms.pagerank(scope, view, limit=limit)
        return {"results": [_entity(r, score=round(r["score"], SCORE_DIGITS)) for r in rows]}

    question = {"q": "important", "predicate": predicate, "limit": limit}
    return {**_answer(scope, question, at, compute), "predicate": predicate}


def betweenness_sample(nodes: int, relations: int) -> int | None:
    """Sources to count paths from: all (None, exact) while that follows at most
    `betweenness_steps` relations, else as many as that allows, never under the minimum."""
    bounds = settings.GRAPH_ALGORITHMS
    sample = max(bounds["betweenness_min_sample"], bounds["betweenness_steps"] // max(relations, 1))
    return None if sample >= nodes else sample


MAX_SAMPLE = 10_000


def graph_between(scope: Scope, *, at: datetime | None = None, predicate: str | None = None,
                  limit: int = 20, sample: int | None = None) -> dict:  # fmt: skip
    """Betweenness along the direction of the relations: who stands on the shortest chains
    between others. Exact on a small graph; on a larger one estimated from `sample` sources
    (stated in the answer) and scaled up. A caller's `sample` (1 to MAX_SAMPLE) chooses how many
    sources; as many as the graph has nodes, or more, is the exact count."""
    view = View(at=at, predicate=predicate, directed=True)
    if sample is not None and not 1 <= sample <= MAX_SAMPLE:
        raise ApplicationError(f"sample is 1 to {MAX_SAMPLE} sources.", field="sample",
                               limit=MAX_SAMPLE)  # fmt: skip

    def compute() -> dict:
        size = algorithms.graph_size(scope, view)
        if sample is None:
            chosen = betweenness_sample(size["nodes"], size["relations"])
        else:
            chosen = None if sample >= size["nodes"] else sample
        rows = algorithms.betweenness(scope, view, sample=chosen, limit=limit)
        return {
            "exact": chosen is None, "sample": chosen, "nodes": size["nodes"],
            "results": [_entity(r, score=round(r["score"], 6)) for r in rows],
        }  # fmt: skip

    question = {"q": "between", "predicate": predicate, "limit": limit, "sample": sample}
    return {**_answer(scope, question, at, compute), "predicate": predicate}


def _communities(scope: Scope, at: datetime | None) -> dict:
    """Every Leiden community, largest first, named by its most important members, with the
    community of each entity: {communities: [...], of: {uid: index}}."""
    groups, ranks = algorithms.ranked_communities(scope, View(at=at))
    rank_of = {row["uid"]: i for i, row in enumerate(ranks)}
    by_group: dict[int, list[dict]] = {}
    for row in ranks:
        by_group.setdefault(groups.get(row["uid"], -1), []).append(row)
    found = []
    for rows in by_group.values():
        rows.sort(key=lambda r: rank_of[r["uid"]])
        oldest = min(rows, key=_age)
        found.append((rows, oldest))
    found.sort(key=lambda item: (-len(item[0]), _age(item[1])))
    communities, of = [], {}
    for index, (rows, _) in enumerate(found):
        top = rows[:NAMED_BY]
        communities.append({
            "id": top[0]["uid"], "name": ", ".join(r["name"] for r in top), "size": len(rows),
            "members": [_entity(r, score=round(r["score"], SCORE_DIGITS)) for r in top],
        })  # fmt: skip
        of.update({r["uid"]: index for r in rows})
    return {"communities": communities, "of": of}


def graph_communities(scope: Scope, *, at: datetime | None = None, limit: int = 20) -> dict:
    """Leiden communities of the entity graph (weighted, either way), largest first, each
    named by its most important members (PageRank on the same projection: relations both
    ways), with its size."""
    answer = _answer(scope, {"q": "communities"}, at, lambda: _communities(scope, at))
    communities = answer["communities"]
    return {"total": len(communities), "communities": communities[:limit],
            "at": answer["at"], "kept": answer["kept"], "stamp": answer.get("stamp")}  # fmt: skip


def entity_community(scope: Scope, *, uid: str, at: datetime | None = None) -> dict | None:
    """The community of one entity (as in graph_communities), or None when it has none."""
    answer = _answer(scope, {"q": "communities"}, at, lambda: _communities(scope, at))
    index = answer["of"].get(uid)
    return None if index is None else answer["communities"][index]
