"""The graph version bump: raised once per committed write, never by a rolled-back one, and run
last in its transaction, so a writer still busy after asking for it does not hold back another
writer of the same tenant."""

import threading

import pytest

from apps.graph import cypher
from apps.graph.graph_version import do_graph_version_bump, graph_version

WAIT_SECONDS = 60
TOUCH = "CREATE (n:Marker {tenant: $tenant, uid: $uid}) RETURN n.uid AS uid"


def _write(stx, uid: str) -> None:
    stx.run(TOUCH, uid=uid)
    do_graph_version_bump(stx)
    do_graph_version_bump(stx)  # asked twice in one transaction: raised once


def test_each_committed_write_raises_the_version_once_and_a_failed_one_not_at_all(scope):
    before = graph_version(scope)
    cypher.write_unit(scope, lambda stx: _write(stx, "a"))
    assert graph_version(scope) == before + 1

    def failing(stx):
        _write(stx, "b")
        raise RuntimeError("the write fails after asking for the bump")

    with pytest.raises(RuntimeError):
        cypher.write_unit(scope, failing)
    assert graph_version(scope) == before + 1


def test_a_writer_busy_after_its_bump_does_not_hold_another_writer_of_the_tenant(scope):
    """Writer A asks for the bump, then keeps working (a window's relations after its
    entities); writer B of the same tenant commits meanwhile. With the bump taken where it was
    asked, B would wait on A's lock on the version until A committed."""
    before = graph_version(scope)
    bumped, release, outcome = threading.Event(), threading.Event(), {}

    def slow_writer():
        def work(stx):
            _write(stx, "slow")
            bumped.set()
            assert release.wait(WAIT_SECONDS)  # still in the transaction, after the bump

        try:
            cypher.write_unit(scope, work)
            outcome["slow"] = "committed"
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            outcome["slow"] = exc

    thread = threading.Thread(target=slow_writer)
    thread.start()
    try:
        assert bumped.wait(WAIT_SECONDS)
        fast = threading.Thread(
            target=lambda: cypher.write_unit(scope, lambda stx: _write(stx, "fast"))
        )
        fast.start()
        fast.join(WAIT_SECONDS)
        assert not fast.is_alive(), "the second writer waited on the first"
        assert graph_version(scope) == before + 1
    finally:
        release.set()
        thread.join(WAIT_SECONDS)
    assert outcome == {"slow": "committed"}
    assert graph_version(scope) == before + 2
