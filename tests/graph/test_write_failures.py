"""Refused writes are recorded on WriteFailure nodes, bounded, and the same one is counted once."""

from apps.graph.write_failures import MAX_REASON_CHARS, write_failure_record, write_failures_list
from tests.conftest import scope_for


def test_the_same_refusal_is_counted_on_one_node(scope):
    for _ in range(3):
        write_failure_record(scope, kind="invalid", reason="content: empty")
    write_failure_record(scope, kind="invalid", reason="content: too long")
    rows = write_failures_list(scope)
    assert sorted((r["reason"], r["count"]) for r in rows) == [
        ("content: empty", 3),
        ("content: too long", 1),
    ]


def test_the_reason_is_bounded(scope):
    write_failure_record(scope, kind="invalid", reason="x" * 10_000)
    assert len(write_failures_list(scope)[0]["reason"]) == MAX_REASON_CHARS


def test_failures_belong_to_one_tenant(make_tenant):
    a, b = scope_for(make_tenant()), scope_for(make_tenant())
    write_failure_record(a, kind="invalid", reason="nope")
    assert write_failures_list(b) == []
