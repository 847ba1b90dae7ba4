"""The full profile has a tool for every REST write an agent can make: the write routes are read
off the URL conf, so a new route without a tool fails here until it gets one."""

from __future__ import annotations

import pytest
from django.urls import URLPattern

from apps.mcp_server.profiles import profile_tools
from apps.mcp_server.tools import mcp_server
from apps.mcp_server.tools.rest_routes import ROUTES
from memoryproject.urls import api_v1
from tests.mcp_server.conftest import run_apart

WRITES = ("post", "put", "patch", "delete")
# Write routes served by a hand-made tool: (route name, method) -> tool.
FULL_COVERED = {
    ("api-documents", "post"): "ingest_document",
    ("api-document", "delete"): "forget",
    ("api-facts", "post"): "add_facts",
    ("api-merge-undo", "post"): "forget",
    ("api-erasures", "post"): "forget",
    ("api-messages", "post"): "append_message",
    ("api-context", "post"): "context",
    ("api-episodes", "post"): "open_episode",
    ("api-entries", "post"): "record_entry",
    ("api-episode-close", "post"): "close_episode",
    ("api-handoffs", "post"): "hand_off",
    ("api-handoff-accept", "post"): "accept_handoff",
    ("api-tasks", "post"): "create_task",
    ("api-tasks-claim", "post"): "claim_task",
    ("api-task-release", "post"): "release_task",
    ("api-task-complete", "post"): "complete_task",
    ("api-task-fail", "post"): "fail_task",
    ("api-task-context", "post"): "task_context",
    ("api-task-evidence", "post"): "add_evidence",
}
# Write routes an agent's key does not make: none today (an entry needs its reason).
EXCLUDED: dict[tuple[str, str], str] = {}


def write_routes() -> set[tuple[str, str]]:
    found = set()
    for route in api_v1:
        if not isinstance(route, URLPattern):
            continue
        view = getattr(route.callback, "view_class", None)
        found |= {(route.name, m) for m in WRITES if view is not None and hasattr(view, m)}
    return found


@pytest.fixture(scope="module")
def full_tools() -> set[str]:
    server = mcp_server()
    names = [tool.name for tool in run_apart(server.list_tools)]
    return set(profile_tools("full", names))


def test_every_rest_write_route_has_a_tool_in_the_full_profile(full_tools):
    routes = write_routes()
    assert len(routes) >= 40  # the URL conf was read
    tools = {**FULL_COVERED, **ROUTES}
    missing = sorted(routes - set(tools) - set(EXCLUDED))
    assert missing == [], f"REST write routes without an MCP tool: {missing}"
    assert not set(tools) - routes, "a tool names a route that is gone"
    assert set(tools.values()) <= full_tools


def test_a_generated_tool_takes_its_schema_from_the_route():
    server = mcp_server()
    confirm = server._tool_manager.get_tool("confirm_review")
    assert confirm.parameters["required"] == ["uid"]
    assert confirm.parameters["additionalProperties"] is False
    survivor = confirm.parameters["$defs"]["ConfirmIn"]["properties"]["survivor"]
    assert survivor["maxLength"] == 64
    assert server.tool_needs["confirm_review"] == ("review",)
