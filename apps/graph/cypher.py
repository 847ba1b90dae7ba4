"""Tenant-scoped Cypher execution: every query names `$tenant`, and the scope supplies it.

Queries are written beside the code that uses their answer (services, selectors); this module only
sends them. Reads and writes go through the driver's managed transactions, so transient errors
(deadlocks under concurrent writers) are retried. Round trips are counted for query budgets.

Read your writes: inside `read_your_writes()` (each request and each job enters one) every session
shares one bookmark manager, so a read waits for the block's earlier writes to be visible. On a
routed cluster (`neo4j://`, `neo4j+s://`) reads go to followers, which may lag; on one server the
same code path runs and costs nothing.
"""

from __future__ import annotations

import contextvars
import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.conf import settings
from neo4j import READ_ACCESS, WRITE_ACCESS, GraphDatabase, ManagedTransaction, unit_of_work
from neo4j.api import BookmarkManager
from neo4j.exceptions import ClientError, ServiceUnavailable, SessionExpired, TransientError

from apps.graph.connection import graph_driver
from apps.graph.scope import Scope
from memoryproject.api_errors import ApplicationError
from memoryproject.metrics import GRAPH_ROUND_TRIPS, QUERY_TIMEOUTS

T = TypeVar("T")
_round_trips: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "graph_round_trips", default=None
)


_bookmarks: contextvars.ContextVar[BookmarkManager | None] = contextvars.ContextVar(
    "graph_bookmarks", default=None
)


@contextmanager
def read_your_writes() -> Iterator[BookmarkManager]:
    """Inside the block, each read sees every write the block made before it, on whichever
    cluster member serves it. A nested block keeps the outer one's bookmarks."""
    current = _bookmarks.get()
    if current is not None:
        yield current
        return
    manager = GraphDatabase.bookmark_manager()
    token = _bookmarks.set(manager)
    try:
        yield manager
    finally:
        _bookmarks.reset(token)


# Inside `retried_within`: how long a transaction refused for a passing reason is tried again.
_retry_seconds: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "graph_retry_seconds", default=None
)


class GraphUnavailable(ApplicationError):
    """The graph could not be reached, or stayed busy, for as long as the caller may wait: a
    503 that asks to try again (never the caller's fault)."""

    status = 503

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"The graph database cannot answer now ({reason}); try again later.",
            code="graph_unavailable",
        )


@contextmanager
def retried_within(seconds: float) -> Iterator[None]:
    """Inside the block a transaction the graph refused for a passing reason (unreachable, a
    deadlock) is tried again for `seconds` (the driver's default is 30 s each), then raises
    GraphUnavailable: an interactive caller is answered in bounded time."""
    token = _retry_seconds.set(seconds)
    try:
        yield
    except (ServiceUnavailable, SessionExpired, TransientError) as exc:
        raise GraphUnavailable(type(exc).__name__) from exc
    finally:
        _retry_seconds.reset(token)


def _session(**config: Any):
    seconds = _retry_seconds.get()
    if seconds is not None:
        config["max_transaction_retry_time"] = seconds
    return graph_driver().session(bookmark_manager=_bookmarks.get(), **config)


# The bounded block the reads run in: [deadline in monotonic seconds, from its first read;
# its name; its seconds].
_deadline: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "graph_deadline", default=None
)
TIMED_OUT = (
    "Neo.ClientError.Transaction.TransactionTimedOut",
    "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
)


class QueryTimeout(ApplicationError):
    """A bounded read ran past its time: the database stopped it (503, counted per name)."""

    status = 503

    def __init__(self, name: str, seconds: float) -> None:
        super().__init__(
            f"The {name} took longer than {seconds:g} seconds and was stopped; ask for less or "
            "try again.", code="query_timeout", limit=seconds,
        )  # fmt: skip


@contextmanager
def time_bounded(seconds: float, *, name: str) -> Iterator[None]:
    """Every read inside the block runs under the driver's transaction timeout, so its reads
    take at most `seconds` in all, counted from the first (seed 001: similar, search and
    nearest stop after 5 seconds).
    A read past it raises QueryTimeout, counted under `name`; a nested block keeps the outer."""
    if _deadline.get() is not None:
        yield
        return
    token = _deadline.set([None, name, seconds])  # the deadline is set at the first read
    try:
        yield
    except QueryTimeout:
        QUERY_TIMEOUTS.labels(name=name).inc()
        raise
    finally:
        _deadline.reset(token)


def bounded_read(name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A selector whose reads together stop after `settings.GRAPH_SEARCH_SECONDS` (5)."""

    def decorator(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> T:
            with time_bounded(settings.GRAPH_SEARCH_SECONDS, name=name):
                return fn(*args, **kwargs)

        return wrapper

    return decorator


def _bounded(work: Callable[[Any], T]) -> Callable[[Any], T]:
    # The block's time starts at its first read: the work before it (embedding the query; a
    # cold process loads the model then) is not the database's and took first searches past it.
    bound = _deadline.get()
    if bound is None:
        return work
    if bound[0] is None:
        bound[0] = time.monotonic() + bound[2]
    left = bound[0] - time.monotonic()
    if left < 0.001:  # the driver counts in milliseconds
        raise QueryTimeout(bound[1], bound[2])
    return unit_of_work(timeout=left)(work)


@contextmanager
def _timeouts_raised() -> Iterator[None]:
    bound = _deadline.get()
    try:
        yield
    except ClientError as exc:
        if bound is None or exc.code not in TIMED_OUT:
            raise
        raise QueryTimeout(bound[1], bound[2]) from exc


class UnscopedQuery(ValueError):
    """A query that does not filter by `$tenant` could reach another tenant's data."""


def _check(scope: Scope, query: str, params: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(scope, Scope):
        raise UnscopedQuery("A graph query needs a Scope as its first argument")
    if "$tenant" not in query:
        raise UnscopedQuery("A tenant query must use $tenant")
    if "tenant" in params:
        raise UnscopedQuery("`tenant` comes from the scope, not from the caller")
    return {**params, "tenant": scope.tenant}


def _count() -> None:
    GRAPH_ROUND_TRIPS.inc()
    counter = _round_trips.get()
    if counter is not None:
        counter[0] += 1


@contextmanager
def count_round_trips() -> Iterator[list[int]]:
    """Count the Cypher round trips made inside the block: `with count_round_trips() as n: ...`"""
    counter = [0]
    token = _round_trips.set(counter)
    try:
        yield counter
    finally:
        _round_trips.reset(token)


class ScopedTx:
    """A transaction bound to one scope; `run` checks each query like the module functions do."""

    def __init__(self, scope: Scope, tx: ManagedTransaction) -> None:
        self.scope = scope
        self._tx = tx
        self._at_end: dict[str, dict[str, Any]] = {}

    def run(self, query: str, **params: Any) -> list[dict[str, Any]]:
        _count()
        return [r.data() for r in self._tx.run(query, _check(self.scope, query, params))]

    def at_end(self, query: str, **params: Any) -> None:
        """Run `query` once, after all the work of this unit, just before it commits (the same
        query asked twice runs once, with the last params). For a write that locks a node every
        writer of the tenant shares: held last, it is held only while the commit lasts and
        never while this transaction waits on another lock (no deadlock cycle through it)."""
        self._at_end[query] = params

    def end(self) -> None:
        """Run the queries kept by `at_end` (write_unit calls it)."""
        while self._at_end:
            query = next(iter(self._at_end))
            self.run(query, **self._at_end.pop(query))


def read(scope: Scope, query: str, **params: Any) -> list[dict[str, Any]]:
    """One read query in its own transaction; returns rows as dicts."""
    return _execute(scope, query, params, READ_ACCESS)


def write(scope: Scope, query: str, **params: Any) -> list[dict[str, Any]]:
    """One write query in its own transaction (retried on transient errors)."""
    return _execute(scope, query, params, WRITE_ACCESS)


# A node another transaction deleted while this one waited on its lock (an append waiting on
# the last step of an erasure) surfaces as EntityNotFound: run again, it sees the world without it.
ENTITY_GONE = "Neo.ClientError.Statement.EntityNotFound"
ENTITY_GONE_RETRIES = 3


def _retrying_gone(run: Callable[[], T]) -> T:
    for _ in range(ENTITY_GONE_RETRIES):
        try:
            return run()
        except ClientError as exc:
            if exc.code != ENTITY_GONE:
                raise
    return run()


def write_unit(scope: Scope, work: Callable[[ScopedTx], T]) -> T:
    """Run `work(tx)` in one write transaction: all of it commits or none. May be retried whole,
    so `work` must not have side effects outside the graph."""

    def unit(tx: ManagedTransaction) -> T:
        stx = ScopedTx(scope, tx)
        result = work(stx)
        stx.end()
        return result

    def run() -> T:
        with _session() as session:
            return session.execute_write(unit)

    return _retrying_gone(run)


def read_unit(scope: Scope, work: Callable[[ScopedTx], T]) -> T:
    unit = _bounded(lambda tx: work(ScopedTx(scope, tx)))
    with _timeouts_raised(), _session(default_access_mode=READ_ACCESS) as session:
        return session.execute_read(unit)


def _execute(scope: Scope, query: str, params: dict[str, Any], mode: str) -> list[dict[str, Any]]:
    bound = _check(scope, query, params)
    _count()

    def unit(tx: ManagedTransaction) -> list[dict[str, Any]]:
        return [r.data() for r in tx.run(query, bound)]

    def run() -> list[dict[str, Any]]:
        with _session(default_access_mode=mode) as session:
            if mode == READ_ACCESS:
                return session.execute_read(_bounded(unit))
            return session.execute_write(unit)

    with _timeouts_raised():
        return _retrying_gone(run)


def system_query(query: str, **params: Any) -> list[dict[str, Any]]:
    """A query that is about the database itself (schema, health, version), not a tenant's data.
    Only the graph app's schema and health code may call it (checked by the layout test)."""
    _count()
    with graph_driver().session() as session:
        return [r.data() for r in session.run(query, params)]


def trial_unit(scope: Scope, work: Callable[[ScopedTx], T]) -> T:
    """Run `work(tx)` in one write transaction that is always rolled back: a dry run sees what
    its writes would give, and nothing is kept."""
    with _session() as session:
        tx = session.begin_transaction()
        try:
            stx = ScopedTx(scope, tx)  # type: ignore[arg-type]
            result = work(stx)
            stx.end()
            return result
        finally:
            tx.rollback()
