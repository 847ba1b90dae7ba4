"""Writes of versioned entities: rows by the write rule, and partial updates.

Partial updates change what is named from time t on, keep the rest as the current State says.

Optimistic: the full row is made from the current State and written only if that State is still
the current one; if another writer added a State in between, it reads again. After 5 reads that
each found another writer, the update is refused as busy. A time before the current State is
stale (for an earlier time, send the full row); the same time as the current State conflicts.
"""

from __future__ import annotations

import json

from apps.graph import cypher
from apps.graph.scope import Scope
from apps.timeline.kinds import kind_get, kinds_get
from apps.timeline.late_rows import native
from apps.timeline.rows import parse_time, time_text, validate_batch
from apps.timeline.write_rule import StateMoved, do_rows_write
from memoryproject.api_errors import ApplicationError, ConflictError, NotFoundError
from memoryproject.refusals import refusal_record, refusal_recorded

MAX_READS = 5


@refusal_recorded("row")
def check_rows_write(scope: Scope, *, rows: list, expect: dict | None = None) -> list[dict]:
    """Write a batch of at most 500 rows by the write rule; one receipt per row, in order.
    Bad input is a 400 before anything is written. `expect` ((kind, key) -> State uid) makes the
    write conditional: StateMoved if another writer added a State since (partial updates)."""
    names = (
        {r.get("kind") for r in rows if isinstance(r, dict)} if isinstance(rows, list) else set()
    )
    kinds = kinds_get(scope, names={n for n in names if isinstance(n, str)})
    targets = {rel.target for spec in kinds.values() for rel in spec.relations.values()}
    kinds.update(kinds_get(scope, names=targets - set(kinds)))
    checked = validate_batch(rows, kinds)
    receipts = cypher.write_unit(scope, lambda stx: do_rows_write(stx, checked, kinds, expect))
    for receipt in receipts:
        if receipt["status"] == "refused":
            raw = json.dumps(rows[receipt["index"]], sort_keys=True, default=str)[:1500]
            refusal_record(scope, kind="row", reason=f"{receipt['reason']}: {raw}")
    return receipts


CURRENT = """
MATCH (e:Entity {tenant: $tenant, kind: $kind, key: $key})
OPTIONAL MATCH (s:State {tenant: $tenant, uid: e.last_state}) USING INDEX SEEK s:State(uid)
RETURN e.last_state AS last, s {.uid, .valid_from, .values_json, .relations_json} AS state
"""


@refusal_recorded("row")
def check_row_update(
    scope: Scope,
    *,
    kind: str,
    key: str,
    t: str,
    values: dict | None = None,
    relations: dict | None = None,
    entry: str | None = None,
) -> dict:
    """Change the named values (None removes one) and relations (the targets given replace that
    relation's targets; relations not named keep theirs) from t on. Returns the receipt of the
    write rule; refusals are 409 (stale, conflict, busy) or 400, and kept as WriteFailures."""
    spec = kind_get(scope, name=kind)
    at = parse_time(t, field="t")
    if values is not None and not isinstance(values, dict):
        raise ApplicationError("values is an object.", field="values")
    if relations is not None and not isinstance(relations, dict):
        raise ApplicationError("relations is an object.", field="relations")
    kinds = {spec.name: spec}
    kinds.update(kinds_get(scope, names={r.target for r in spec.relations.values()}))
    for _ in range(MAX_READS):
        found = cypher.read(scope, CURRENT, kind=kind, key=key)
        if not found or found[0]["last"] is None:
            raise NotFoundError(f"No {kind} with this key has a State yet.", field="key")
        state = native(found[0]["state"])
        if state is None:
            # The entity names a State the index does not show yet: a writer is committing it
            # (read committed lets one read see the entity's new pointer before the index entry).
            continue
        if at < state["valid_from"]:
            raise ConflictError("This time is before the current State; send the full row.",
                                field="t", code="stale")  # fmt: skip
        row = {
            "kind": kind,
            "key": key,
            "t": time_text(at),
            "values": {
                name: value
                for name, value in {**json.loads(state["values_json"]), **(values or {})}.items()
                if value is not None
            },
            "relations": {**json.loads(state["relations_json"]), **(relations or {})},
        }
        if entry is not None:
            row["entry"] = entry
        checked = validate_batch([row], kinds)
        try:
            receipt = cypher.write_unit(
                scope,
                lambda stx, checked=checked, uid=state["uid"]: do_rows_write(
                    stx, checked, kinds, expect={(kind, key): uid}
                ),
            )[0]
        except StateMoved:
            continue
        if receipt["status"] == "refused":
            code = receipt["reason"].split(":")[0].replace(" ", "_")
            raise ConflictError(receipt["reason"], field="t", code=code)
        return receipt
    raise ConflictError(f"Other writers changed this entity {MAX_READS} times in a row.",
                        field="key", code="busy", limit=MAX_READS)  # fmt: skip
