"""The write rule (seed 001): a row is the full picture of one entity at time t; what it does not
name is no longer true. One receipt per row, in order: created, changed, unchanged, or refused
with the reason (stale, conflict, unknown entry).

A batch is one write transaction: every row of it is written, or (on an error) none. Rows that
the rule refuses are receipts, not errors; they are kept as WriteFailures after the commit.
Rows at or after the current State go in first, in time order; rows that came late then go in
waves (the n-th late row of each entity in wave n), each wave one read and a few writes.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field

from apps.graph.cypher import ScopedTx
from apps.graph.graph_version import do_graph_version_bump
from apps.resolution.gate import PROPOSALS
from apps.resolution.signals import name_normalize
from apps.timeline import state_writes as q
from apps.timeline.late_rows import do_late_wave, native
from apps.timeline.meaning import text_hash
from apps.timeline.relation_windows import (
    do_relations_close,
    do_relations_open,
    do_windows_rebuild,
    relation_changes,
)
from apps.timeline.rows import Row, content_of, time_text


class StateMoved(Exception):
    """Another writer added a State after the one a partial update was made from."""


@dataclass
class Target:
    """One entity of the batch: what the graph holds for it, as this batch changes it."""

    uid: str
    kind: object
    state: dict | None
    first: object = None  # the earliest start this batch gave a State
    current_changed: bool = False
    late: bool = False
    # The values an entity of text had when a row's key took it (ENTITIES_LOCK): kept under the
    # values of its current State, which the write rule replaces whole.
    text_values: str | None = None
    pending: list = field(default_factory=list)  # new States, in time order
    # The States around the entity's earliest row of the batch when that row is late (read with
    # the lock): (the State it falls in or None, the one after it).
    around: tuple | None = None


def _content(state: dict) -> tuple[str, str]:
    return content_of(json.loads(state["values_json"] or "{}"),
                      json.loads(state["relations_json"] or "{}"))  # fmt: skip


def _receipt(row: Row, status: str, reason: str = "", state: str | None = None) -> dict:
    out = {"index": row.index, "kind": row.kind.name, "key": row.key, "t": time_text(row.t),
           "status": status}  # fmt: skip
    if reason:
        out["reason"] = reason
    if state:
        out["state"] = state
    return out


def _new_state(row: Row, target: Target, prev: str | None, content=None) -> dict:
    values_json, relations_json = content or row.content()
    return {
        "uid": uuid.uuid4().hex, "entity": target.uid, "kind": row.kind.name, "key": row.key,
        "valid_from": row.t, "valid_to": None, "seen_last": None, "values_json": values_json,
        "relations_json": relations_json, "entry": row.entry, "words": row.words, "prev": prev,
    }  # fmt: skip


def _start(target: Target, t) -> None:
    if target.first is None or t < target.first:
        target.first = t


def do_rows_write(
    stx: ScopedTx, rows: list[Row], kinds: dict, expect: dict | None = None
) -> list[dict]:
    """The batch inside the caller's write transaction (see the module's docstring)."""
    by = stx.scope.actor
    receipts: dict[int, dict] = {}
    entries = {r.entry for r in rows if r.entry}
    found = {r["uid"] for r in stx.run(q.ENTRIES_FOUND, uids=sorted(entries))} if entries else set()
    live = []
    for row in rows:
        if row.entry and row.entry not in found:
            receipts[row.index] = _receipt(row, "refused", "unknown entry")
        else:
            live.append(row)
    first_t: dict[tuple[str, str], object] = {}
    for row in live:
        key = (row.kind.name, row.key)
        first_t[key] = min(first_t.get(key, row.t), row.t)
    locks = [{"kind": k, "key": key, "type": kinds[k].type, "t": t, "norm": name_normalize(key)}
             for (k, key), t in sorted(first_t.items())]  # fmt: skip
    by_key: dict[tuple[str, str], Target] = {}
    got_rows = stx.run(q.ENTITIES_LOCK, entities=locks, by=by, proposals=PROPOSALS) if locks else []
    for got in got_rows:
        key = (got["kind"], got["key"])
        state = native(got["state"])
        if expect is not None and (state or {}).get("uid") != expect.get(key):
            raise StateMoved(key)
        by_key[key] = Target(uid=got["uid"], kind=kinds[got["kind"]], state=state,
                             text_values=got["text_values"])  # fmt: skip
        if got["after_uid"] is not None:  # the row is late: the States around it
            after = native(got["after"]) if got["after"] is not None else dict(state)
            by_key[key].around = (native(got["around"]), after)
    late: dict[tuple[str, str], list[Row]] = {}
    seen: list[dict] = []
    # Sorted by time, the rows before the current State come first: those are late.
    for row in sorted(live, key=lambda r: (r.t, r.index)):
        target = by_key[(row.kind.name, row.key)]
        if target.state is not None and row.t < target.state["valid_from"]:
            late.setdefault((row.kind.name, row.key), []).append(row)
            continue
        status, reason = _in_order(row, target, seen)
        written = target.state["uid"] if status in ("created", "changed") else None
        receipts[row.index] = _receipt(row, status, reason, written)
    _append(stx, by_key.values(), seen, kinds, by)
    _late_waves(stx, late, by_key, receipts, kinds, by)
    _entities_set(stx, by_key.values())
    if any(r["status"] in ("created", "changed") for r in receipts.values()):
        do_graph_version_bump(stx)  # kept whole-graph answers (apps.insights) see new States
    return [receipts[row.index] for row in rows]


def _in_order(row: Row, target: Target, seen: list) -> tuple[str, str]:
    cur = target.state
    if cur is None:
        _pending(row, target, None, {})
        _start(target, row.t)
        return "created", ""
    same = _content(cur) == row.content()
    if row.t == cur["valid_from"]:
        return ("unchanged", "") if same else ("refused", "conflict: another row has this time")
    if same:
        if cur["seen_last"] is None or row.t > cur["seen_last"]:
            cur["seen_last"] = row.t
            if cur not in target.pending:
                seen.append({"state": cur["uid"], "t": row.t})
        return "unchanged", ""
    if cur["seen_last"] is not None and row.t <= cur["seen_last"]:
        return "refused", "stale: the current State was repeated after this time"
    _pending(row, target, cur["uid"], json.loads(cur["relations_json"] or "{}"))
    return "changed", ""


def _pending(row: Row, target: Target, prev: str | None, before: dict) -> None:
    state = _new_state(row, target, prev)
    state["changes"] = relation_changes(target.uid, before, row.relations, row.t, row.kind)
    target.state = state
    target.pending.append(state)
    target.current_changed = True


def _append(stx: ScopedTx, targets, seen: list, kinds: dict, by: str) -> None:
    """New States in waves (the n-th new State of each entity in wave n, so its prev exists),
    each wave's relation edges closed and opened after it (the entities' current values are set
    once for the batch, after the late rows: `_entities_set`)."""
    waves: list[list[dict]] = []
    for target in targets:
        for n, state in enumerate(target.pending):
            if n == len(waves):
                waves.append([])
            waves[n].append(state)
    for wave in waves:
        stx.run(q.STATES_APPEND, states=[_state_params(s) for s in wave], by=by)
        do_relations_close(stx, closes=[c for s in wave for c in s["changes"][0]])
        do_relations_open(stx, opens=[o for s in wave for o in s["changes"][1]], kinds=kinds,
                          by=by)  # fmt: skip
    if seen:
        stx.run(q.STATES_SEEN, seen=seen)


def _state_params(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "changes"}


def _entities_set(stx, targets) -> None:
    rows = []
    for target in targets:
        state = target.state if target.current_changed else None
        values = state and state["values_json"]
        if values and target.text_values:
            merged = {**json.loads(target.text_values), **json.loads(values)}
            values = json.dumps(merged, sort_keys=True, ensure_ascii=False)
        embed = target.kind.embed if state else ()
        rows.append({
            "uid": target.uid, "first": target.first,
            "state": state and state["uid"], "since": state and state["valid_from"],
            "values_json": values if values != "{}" else None,
            "embed_hash": text_hash(embed, json.loads(values or "{}")) if embed else None,
        })  # fmt: skip
    if rows:
        stx.run(q.ENTITIES_SET, entities=rows)


def _late_waves(stx, late, by_key, receipts, kinds, by) -> None:
    touched: dict[str, object] = {}
    depth = max((len(rows) for rows in late.values()), default=0)
    for n in range(depth):
        wave = [rows[n] for rows in late.values() if len(rows) > n]
        kind_of = {by_key[(row.kind.name, row.key)].uid: row.kind for row in wave}
        done, windows = do_late_wave(stx, wave, by_key, by, first=n == 0)
        receipts.update(done)
        touched.update({uid: kind_of[uid] for uid in windows if kind_of[uid].relations})
    if touched:
        do_windows_rebuild(stx, entities=sorted(touched), kinds_of=touched, kinds=kinds, by=by)
