"""Every refused write of this app is kept as a WriteFailure, whether a page, the API or a job
asked: the refusal is recorded after the transaction rolled back, so nothing is half-written."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record
from memoryproject.api_errors import ApplicationError

F = TypeVar("F", bound=Callable)


def refusal_recorded(kind: str) -> Callable[[F], F]:
    """Wrap a service `fn(scope, **kw)`: an ApplicationError is recorded under `kind`, then raised."""

    def decorator(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(scope: Scope, *args, **kwargs):
            try:
                return fn(scope, *args, **kwargs)
            except ApplicationError as exc:
                write_failure_record(scope, kind=kind, reason=f"{exc.code}: {exc.message}")
                raise

        return wrapper  # type: ignore[return-value]

    return decorator
