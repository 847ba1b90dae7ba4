"""Searches stop after GRAPH_SEARCH_SECONDS (seed 001: 5 seconds): the database stops the read
through the driver's transaction timeout, the API answers 503 in the error shape, and it is
counted."""

from __future__ import annotations

import time

import pytest

from apps.graph import cypher
from memoryproject.metrics import QUERY_TIMEOUTS

SLOW = """
UNWIND range(1, 2000000000) AS x
WITH x WHERE x % 7 = 0 AND $tenant IS NOT NULL
RETURN count(x) AS n
"""


def timeouts(name: str) -> float:
    return QUERY_TIMEOUTS.labels(name=name)._value.get()


def test_the_database_stops_a_bounded_read_at_its_time(scope):
    before = timeouts("slow read")
    started = time.monotonic()
    with pytest.raises(cypher.QueryTimeout) as stopped:
        with cypher.time_bounded(0.5, name="slow read"):
            cypher.read(scope, SLOW)
    took = time.monotonic() - started
    assert stopped.value.status == 503 and stopped.value.code == "query_timeout"
    assert stopped.value.limit == 0.5
    assert took < 4, took  # stopped by the database, not run to its end (minutes)
    assert timeouts("slow read") == before + 1
    # Outside a bounded block reads have no timeout; a quick one inside passes.
    with cypher.time_bounded(5, name="slow read"):
        assert cypher.read(scope, "RETURN $tenant AS t")[0]["t"] == scope.tenant


def test_a_search_past_its_time_is_a_503_in_the_error_shape(api_client, settings):
    roomy = settings.GRAPH_SEARCH_SECONDS
    settings.GRAPH_SEARCH_SECONDS = 1e-9  # gone before the first read
    before = timeouts("search")
    answer = api_client.get("/api/v1/search", {"q": "engine"})
    assert answer.status_code == 503
    error = answer.json()["error"]
    assert error["code"] == "query_timeout" and error["limit"] == 1e-9
    assert "search" in error["message"]
    assert timeouts("search") == before + 1
    settings.GRAPH_SEARCH_SECONDS = roomy
    assert api_client.get("/api/v1/search", {"q": "engine"}).status_code == 200


pytestmark = pytest.mark.django_db
