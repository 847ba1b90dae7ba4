"""With its graph unreachable, the stdio server answers a 503 `graph_unavailable` in bounded time
(its retries stop at half GRAPH_SEARCH_SECONDS), where search_nodes took 67 s to answer a 400
`invalid`."""

from __future__ import annotations

import socket
import sys
import time

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import ROOT
from tests.mcp_server.conftest import call, key_issue, run_apart
from tests.mcp_server.test_stdio import server_env

pytestmark = pytest.mark.django_db(transaction=True)
# Tools whose first work is the graph's, so their time is the graph's: a search embeds its
# query first (its first call loads the model), which a busy machine makes slow on its own.
GRAPH_FIRST = {"get_entity": {"uid": "e1"}, "get_document": {"uid": "d1"},
               "add_memory": {"text": "Corvane is a harbour town."}}  # fmt: skip


def closed_port() -> int:
    with socket.socket() as sock:  # bound, then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SERVER_SECONDS = 5  # the service's search bound (settings.GRAPH_SEARCH_SECONDS), given the server


def timed_calls(raw: str, profile: str, calls: list[tuple[str, dict]]) -> list[dict]:
    env = {**server_env(raw), "NEO4J_BOLT_URL": f"bolt://127.0.0.1:{closed_port()}",
           "GRAPH_SEARCH_SECONDS": str(SERVER_SECONDS)}  # fmt: skip
    params = StdioServerParameters(
        command=sys.executable, cwd=str(ROOT), env=env,
        args=["manage.py", "mcp", "--key-env", "AGENT_KEY", "--profile", profile],
    )  # fmt: skip

    async def main():
        answers = []
        async with Client(params) as client:
            for tool, args in calls:
                started = time.monotonic()
                answers.append(await call(client, tool, **args))
                answers[-1]["seconds"] = time.monotonic() - started
        return answers

    return run_apart(main)


def unavailable(answer: dict) -> bool:
    return answer["is_error"] and (answer["status"], answer["error"]["code"]) == (
        503, "graph_unavailable")  # fmt: skip


def test_an_unreachable_graph_is_a_503_within_the_query_timeout(tenant):
    raw = key_issue(tenant)
    # Each tool twice: a fresh server's first call also pays its own first steps (the key,
    # imports). The graph's part is the driver's backoff within half the timeout (tries at 0,
    # ~1 s and ~3 s: 2.5-3.4 s a call on an idle machine), which three test workers on two
    # cores stretched to 7.3 s (CI of d6bc2cc) and a benchmark beside them to 6.2 s (df29bde):
    # twice the timeout, thrice for the first call, far below the 67 s this guards against.
    calls = [item for item in GRAPH_FIRST.items() for _ in range(2)]
    answers = timed_calls(raw, "default", calls)
    for n, ((tool, _), answer) in enumerate(zip(calls, answers, strict=True)):
        assert unavailable(answer), (tool, answer)
        bound = SERVER_SECONDS * (3 if n == 0 else 2)
        assert answer["seconds"] < bound, (tool, answer)
    # The reported call: a 503 too, never the 400 `invalid` of a crash.
    searches = timed_calls(raw, "memory", [("search_nodes", {"query": "Corvane"})] * 2)
    assert all(unavailable(answer) for answer in searches), searches
