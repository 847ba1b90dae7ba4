"""Rows that came late, put into the history at their time (seed 001, the write rule).

A late row ends the State it falls in at its time and holds until the next State starts. When it
says what the next State says, that State starts earlier instead. A late row at or before the
`seen_last` of the State it falls in is stale: the State held again after it, at a time no longer
known exactly, so it is refused rather than placed wrong. The entity keeps its current values:
a late row is never the current State.
"""

from __future__ import annotations

import json

from apps.graph.cypher import ScopedTx
from apps.graph.graph_version import do_graph_stamp_renew
from apps.timeline import state_writes as q
from apps.timeline.rows import Row, content_of


def native(state: dict | None) -> dict | None:
    """A State read from the graph with Python datetimes, comparable with a row's `t`."""
    if state is None:
        return None
    out = dict(state)
    for name in ("valid_from", "seen_last"):
        if out.get(name) is not None:
            out[name] = out[name].to_native()
    return out


def _said(state: dict | None) -> tuple[str, str]:
    """What a State says (`content_of`), comparable with `Row.content()`; nothing for none."""
    if state is None:
        return content_of({}, {})
    return content_of(json.loads(state["values_json"] or "{}"),
                      json.loads(state["relations_json"] or "{}"))  # fmt: skip


def same(state: dict, row: Row) -> bool:
    return _said(state) == row.content()


def _relations(state: dict | None) -> str:
    return _said(state)[1]


def _around(stx: ScopedTx, wave: list[Row], by_key: dict, first: bool) -> list:
    """(row, the State it falls in, the one after it) for each row of the wave. The first wave
    takes what the lock read (the entity's earliest row of the batch: apps/timeline/
    state_writes.py ENTITIES_LOCK), so a batch with one late row per entity reads no more."""
    out, ask = [], []
    for row in wave:
        target = by_key[(row.kind.name, row.key)]
        if first and target.around is not None:
            out.append((row, *target.around))
        else:
            ask.append(row)
    if ask:
        rows = {row.index: row for row in ask}
        params = [{"index": r.index, "entity": by_key[(r.kind.name, r.key)].uid, "t": r.t}
                  for r in ask]  # fmt: skip
        for got in stx.run(q.STATES_AROUND, rows=params):
            out.append((rows[got["index"]], native(got["state"]), native(got["next"])))
    return out


def do_late_wave(
    stx: ScopedTx, wave: list[Row], by_key: dict, by: str, *, first: bool = False
) -> tuple[dict[int, dict], set[str]]:
    """One wave (at most one late row per entity): one read (none for the first), then the
    writes it decides.
    Returns the receipts and the entities whose relation windows the wave changed: a late row
    that names the relations of the State it falls in leaves every window as it was, so those
    entities need no rebuild (most late rows of a feed only correct a value)."""
    from apps.timeline.write_rule import _new_state, _receipt, _start

    inserts, moves, seen, receipts, windows = [], [], [], {}, set()
    for row, state, after in _around(stx, wave, by_key, first):
        target = by_key[(row.kind.name, row.key)]
        # Each content once per row (JSON in and out is most of this loop's time).
        says, said, said_after = row.content(), _said(state), after and _said(after)
        if state is not None and row.t == state["valid_from"]:
            status, reason = ("unchanged", "") if said == says else (
                "refused", "conflict: another row has this time")  # fmt: skip
            receipts[row.index] = _receipt(row, status, reason)
        elif state is not None and said == says:
            seen.append({"state": state["uid"], "t": row.t})
            receipts[row.index] = _receipt(row, "unchanged")
        elif state is not None and state["seen_last"] is not None and row.t <= state["seen_last"]:
            reason = "stale: the State it falls in was repeated after this time"
            receipts[row.index] = _receipt(row, "refused", reason)
        elif after is None:  # only after an earlier wave moved a State before it: see seen_last
            receipts[row.index] = _receipt(row, "refused", "stale: a later row said otherwise")
        elif said_after == says:
            moves.append({"next": after["uid"], "prev": state and state["uid"], "t": row.t})
            if said[1] != said_after[1]:
                windows.add(target.uid)
            _start(target, row.t)
            receipts[row.index] = _receipt(row, "changed", "late: the next State starts earlier",
                                           after["uid"])  # fmt: skip
        else:
            new = _new_state(row, target, state and state["uid"], says)
            new["next"] = after["uid"]
            inserts.append({k: v for k, v in new.items() if k not in ("valid_to", "seen_last")})
            if said[1] != says[1]:
                windows.add(target.uid)
            _start(target, row.t)
            receipts[row.index] = _receipt(row, "changed", "late: put into the history",
                                           new["uid"])  # fmt: skip
    if inserts:
        stx.run(q.STATES_INSERT, states=inserts, by=by)
        do_graph_stamp_renew(stx)  # the one write of the rule that deletes (a NEXT link)
    if moves:
        stx.run(q.STATES_START_EARLIER, moves=moves)
    if seen:
        stx.run(q.STATES_SEEN, seen=seen)
    return receipts, windows
