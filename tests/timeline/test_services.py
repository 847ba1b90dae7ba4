"""Partial updates: what is named changes from t on, the rest stays; optimistic and bounded."""

from __future__ import annotations

import threading

import pytest

from apps.graph.write_failures import write_failures_list
from apps.timeline import selectors
from apps.timeline.services import check_row_update, check_rows_write
from memoryproject.api_errors import ApplicationError
from tests.timeline.conftest import row

T1 = "2026-01-01T00:00:00Z"


def test_an_update_changes_what_it_names_and_keeps_the_rest(kinds):
    check_rows_write(kinds, rows=[row("d1", T1, status="ok", temp=1,
                                      relations={"LOCATED_IN": "r1", "USED_BY": ["red"]})])  # fmt: skip
    got = check_row_update(kinds, kind="Device", key="d1", t="2026-01-01T13:00:00Z",
                           values={"status": "hot", "temp": None})  # fmt: skip
    assert got["status"] == "changed"
    check_row_update(kinds, kind="Device", key="d1", t="2026-01-01T14:00:00Z",
                     relations={"LOCATED_IN": "r2"})  # fmt: skip
    last = selectors.history(kinds, kind="Device", key="d1")[-1]
    assert last["values"] == {"status": "hot"}
    assert last["relations"] == {"LOCATED_IN": ["r2"], "USED_BY": ["red"]}
    assert selectors.related(kinds, kind="Device", key="d1", rel="LOCATED_IN") == ["r2"]


def test_an_update_before_the_current_state_is_stale_and_kept(kinds):
    check_rows_write(kinds, rows=[row("d1", "2026-01-02T00:00:00Z", status="ok")])
    with pytest.raises(ApplicationError) as refused:
        check_row_update(kinds, kind="Device", key="d1", t=T1, values={"status": "x"})
    assert refused.value.code == "stale" and refused.value.status == 409
    assert write_failures_list(kinds)[0]["kind"] == "row"
    with pytest.raises(ApplicationError) as unknown:
        check_row_update(kinds, kind="Device", key="nope", t=T1, values={"status": "x"})
    assert unknown.value.status == 404


def test_an_update_that_always_finds_another_writer_is_busy(kinds, monkeypatch):
    from apps.timeline import services as partial

    check_rows_write(kinds, rows=[row("d1", T1, status="ok")])
    reads = []
    original = partial.cypher.read

    def read_then_someone_writes(scope, query, **params):
        found = original(scope, query, **params)
        if query is not partial.CURRENT:
            return found
        reads.append(1)
        check_rows_write(kinds, rows=[row("d1", f"2026-01-01T00:00:{len(reads):02d}Z",
                                          status=f"other{len(reads)}")])  # fmt: skip
        return found

    monkeypatch.setattr(partial.cypher, "read", read_then_someone_writes)
    with pytest.raises(ApplicationError) as refused:
        check_row_update(kinds, kind="Device", key="d1", t="2026-01-02T00:00:00Z",
                         values={"temp": 1})  # fmt: skip
    assert refused.value.code == "busy" and len(reads) == 5


def test_eight_writers_updating_one_entity_lose_no_change(kinds):
    from apps.timeline.kinds import check_kind_declare

    names = [f"v{i}" for i in range(8)]
    check_kind_declare(kinds, kind={"name": "Panel", "key": "id",
                                    "values": {n: "integer" for n in names}})  # fmt: skip
    check_rows_write(kinds, rows=[{"kind": "Panel", "key": "p1", "t": T1, "values": {}}])
    done, errors = [], []

    def writer(i: int) -> None:
        t = 10 + i
        for _ in range(60):  # a time another writer passed is stale: take a later one
            try:
                got = check_row_update(kinds, kind="Panel", key="p1",
                                       t=f"2026-01-02T00:{t // 60:02d}:{t % 60:02d}Z",
                                       values={names[i]: i})  # fmt: skip
                done.append((i, got["status"]))
                return
            except ApplicationError as exc:
                if exc.code not in ("stale", "busy", "conflict"):
                    errors.append(exc)
                    return
                t += 8
        errors.append("gave up")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors and sorted(done) == [(i, "changed") for i in range(8)]
    states = selectors.history(kinds, kind="Panel", key="p1")
    # Each write added its value onto the State before it: the last holds all eight.
    assert len(states) == 9
    assert states[-1]["values"] == {n: i for i, n in enumerate(names)}
    assert [len(s["values"]) for s in states] == list(range(9))
