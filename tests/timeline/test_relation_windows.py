"""Relations of kinds keep their windows: closed, never deleted; late rows move windows."""

from __future__ import annotations

import datetime as dt

from apps.graph import cypher
from apps.timeline import selectors
from apps.timeline.services import check_rows_write
from tests.timeline.conftest import row

T1, T2, T3 = (f"2026-01-0{d}T00:00:00Z" for d in (1, 2, 3))


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def related(scope, rel, when=None):
    return selectors.related(scope, kind="Device", key="d1", rel=rel, at=when and at(when))


def edges(scope):
    rows = cypher.read(scope, "MATCH (:Entity {tenant: $tenant, key: 'd1'})-[r:RELATED_TO]->(x) "
                       "RETURN r.predicate AS rel, x.key AS target, r.valid_from AS f, "
                       "r.valid_to AS t, r.by AS by, r.recorded_at AS rec")  # fmt: skip
    return sorted(
        (r["rel"], r["target"], r["f"].to_native().day, r["t"] and r["t"].to_native().day)
        for r in rows
        if r["f"] != r["t"]
    )


def test_a_relation_missing_from_a_new_row_is_closed_not_deleted(kinds):
    check_rows_write(kinds, rows=[row("d1", T1, status="ok",
                                      relations={"LOCATED_IN": "r1", "USED_BY": ["red", "blue"]})])  # fmt: skip
    check_rows_write(kinds, rows=[row("d1", T2, status="hot",
                                      relations={"LOCATED_IN": "r2", "USED_BY": ["blue"]})])  # fmt: skip
    assert related(kinds, "LOCATED_IN") == ["r2"]
    assert related(kinds, "USED_BY", "2026-01-01T12:00:00Z") == ["blue", "red"]
    assert edges(kinds) == [("LOCATED_IN", "r1", 1, 2), ("LOCATED_IN", "r2", 2, None),
                            ("USED_BY", "blue", 1, None), ("USED_BY", "red", 1, 2)]  # fmt: skip
    room = {"kind": "Device", "key": "d1"}
    assert selectors.pointing_at(kinds, kind="Room", key="r1", rel="LOCATED_IN") == []
    assert selectors.pointing_at(kinds, kind="Room", key="r1", rel="LOCATED_IN",
                                 at=at("2026-01-01T06:00:00Z")) == [room]  # fmt: skip
    meta = cypher.read(kinds, "MATCH (:Entity {tenant: $tenant})-[r:RELATED_TO]->() "
                       "RETURN DISTINCT r.by AS by, r.recorded_at IS NOT NULL AS rec")  # fmt: skip
    assert meta == [{"by": kinds.actor, "rec": True}]
    # Targets are entities of the target kind, existing from the first time they were named.
    r1 = cypher.read(kinds, "MATCH (e:Entity {tenant: $tenant, kind: 'Room', key: 'r1'}) "
                     "RETURN e.created_at AS c, e.type AS type")[0]  # fmt: skip
    assert r1["c"].to_native() == at(T1) and r1["type"] == "Object"


def test_a_late_row_splits_a_window_and_another_moves_one(kinds):
    check_rows_write(kinds, rows=[row("d1", T1, relations={"LOCATED_IN": "r1"}),
                                  row("d1", T3, relations={"LOCATED_IN": "r1"}, status="x")])  # fmt: skip
    assert edges(kinds) == [("LOCATED_IN", "r1", 1, None)]
    check_rows_write(kinds, rows=[row("d1", T2, relations={"LOCATED_IN": "r9"})])
    assert related(kinds, "LOCATED_IN", "2026-01-02T12:00:00Z") == ["r9"]
    assert edges(kinds) == [("LOCATED_IN", "r1", 1, 2), ("LOCATED_IN", "r1", 3, None),
                            ("LOCATED_IN", "r9", 2, 3)]  # fmt: skip


def test_a_one_at_a_time_relation_takes_one_target(kinds):
    from apps.timeline.kinds import kind_get
    from apps.timeline.rows import validate_targets

    spec = kind_get(kinds, name="Device")
    assert validate_targets(spec, "LOCATED_IN", "r1", field="f") == ["r1"]
    assert validate_targets(spec, "USED_BY", ["b", "a", "a"], field="f") == ["a", "b"]


def test_facts_from_text_get_windows_and_one_at_a_time_closes_the_earlier(kinds):
    from apps.resolution.candidates import EntityCandidate, Provenance, RelationCandidate
    from apps.resolution.services import entities_resolve

    people = [EntityCandidate("Ada Quill", "Person"), EntityCandidate("Acme Rooms", "Location"),
              EntityCandidate("Brick Hall", "Location"), EntityCandidate("Cole Yard", "Location")]  # fmt: skip
    day = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)

    def fact(obj: int, days: int, predicate="LOCATED_IN"):
        when = day + dt.timedelta(days=days)
        return RelationCandidate(0, predicate, obj, valid_from=when)

    # In the order they are written: an older fact goes into history (it closes where the later
    # target starts), a later one closes the open target, another predicate stays open.
    facts = [fact(2, 5), fact(1, 0), fact(3, 10), fact(1, 9, predicate="LIKES")]
    entities_resolve(kinds, entities=people, relations=facts,
                     provenance=Provenance(agent="agent:text"))  # fmt: skip
    rows = cypher.read(kinds, "MATCH (:Entity {tenant: $tenant, name: 'Ada Quill'})"
                       "-[r:RELATED_TO]->(x) "
                       "RETURN r.predicate AS p, x.name AS x, r.valid_from AS f, r.valid_to AS t, "
                       "r.by AS by")  # fmt: skip
    got = sorted((r["p"], r["x"], r["f"].to_native().day, r["t"] and r["t"].to_native().day,
                  r["by"]) for r in rows)  # fmt: skip
    assert got == [("LIKES", "Acme Rooms", 10, None, "agent:text"),
                   ("LOCATED_IN", "Acme Rooms", 1, 6, "agent:text"),
                   ("LOCATED_IN", "Brick Hall", 6, 11, "agent:text"),
                   ("LOCATED_IN", "Cole Yard", 11, None, "agent:text")]  # fmt: skip
