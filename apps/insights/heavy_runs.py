"""At most one heavy graph run (a GDS projection and its algorithms) per tenant at a time.

The mark is a cache entry added atomically (`cache.add`), shared by every web process when the
cache is Redis (REDIS_URL), per process otherwise; it expires by itself if a process dies holding
it. A second run meanwhile is refused at once with 429 rather than queued behind the first.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache

from apps.graph.scope import Scope
from memoryproject.api_errors import ApplicationError


class GraphBusy(ApplicationError):
    status = 429

    def __init__(self) -> None:
        super().__init__(
            "Another graph algorithm of this tenant is running; ask again when it is done.",
            code="graph_busy", extra={"retry_after": RETRY_AFTER_SECONDS},
        )  # fmt: skip


RETRY_AFTER_SECONDS = 5


def _key(scope: Scope) -> str:
    return f"insights:heavy:{scope.tenant}"


@contextmanager
def heavy_run(scope: Scope) -> Iterator[None]:
    """Hold the tenant's one heavy-run mark for the block, or raise GraphBusy (429)."""
    token = uuid.uuid4().hex
    if not cache.add(_key(scope), token, settings.GRAPH_ALGORITHMS["heavy_run_seconds"]):
        raise GraphBusy()
    try:
        yield
    finally:
        if cache.get(_key(scope)) == token:  # never free a mark another run holds after expiry
            cache.delete(_key(scope))
