"""The /mcp transport against hostile and unusual requests (issue 38): no endless GET stream,
errors in the REST error shape with a JSON content type, tools that refuse what they do not
take."""

from __future__ import annotations

import httpx
import pytest
from django.conf import settings

from tests.mcp_server.conftest import key_issue, over_http, transport_refusal

pytestmark = pytest.mark.django_db(transaction=True)
INIT = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    error = transport_refusal(response)
    assert error["code"] == code, error
    return error


def test_the_get_stream_is_refused_at_once(live_asgi, tenant):
    headers = {"X-Api-Key": key_issue(tenant), "Accept": "text/event-stream"}
    # A held stream would run into this timeout instead of answering.
    answer = httpx.get(f"{live_asgi}/mcp", headers=headers, timeout=30)
    refused(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "POST"


def test_bodies_of_another_type_or_too_large_answer_in_the_error_shape(live_asgi, tenant):
    headers = {"X-Api-Key": key_issue(tenant), "Accept": "application/json, text/event-stream"}
    url = f"{live_asgi}/mcp"
    plain = httpx.post(url, content=b"hello", headers={**headers, "Content-Type": "text/plain"},
                       timeout=60)  # fmt: skip
    assert refused(plain, 415, "unsupported_media_type")["field"] == "body"
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    big = b'{"x": "' + b"a" * limit + b'"}'
    json_headers = {**headers, "Content-Type": "application/json"}
    declared = httpx.post(url, content=big, headers=json_headers, timeout=60)
    assert refused(declared, 413, "too_large")["limit"] == limit

    def chunks():  # no Content-Length: the SDK counts the bytes and refuses them itself
        for start in range(0, len(big), 65536):
            yield big[start : start + 65536]

    chunked = httpx.post(url, content=chunks(), headers=json_headers, timeout=60)
    assert refused(chunked, 413, "too_large")["limit"] == limit
    # The server still answers a good request.
    assert httpx.post(url, json=INIT, headers=json_headers, timeout=60).status_code == 200


def test_tools_refuse_unknown_arguments_and_long_kinds(live_asgi, tenant):
    raw = key_issue(tenant)

    async def steps(client):
        tools = (await client.list_tools()).tools
        typo = await client.call_tool("ready_tasks", {"limt": 5})
        long_kind = await client.call_tool("entity_history", {"kind": "K" * 41, "key": "k"})
        fine = await client.call_tool("entity_history", {"kind": "Device", "key": "k"})
        return tools, typo, long_kind, fine

    tools, typo, long_kind, fine = over_http(live_asgi, raw, steps)
    for tool in tools:
        assert tool.input_schema.get("additionalProperties") is False, tool.name
    schemas = {tool.name: tool.input_schema for tool in tools}
    assert schemas["entity_history"]["properties"]["kind"]["maxLength"] == 40
    for tool, name in (("get_entity", "uid"), ("job_progress", "job"), ("task_context", "task")):
        assert schemas[tool]["properties"][name]["maxLength"] == 64, tool
    assert typo.is_error and "limt" in typo.content[0].text
    assert long_kind.is_error and "kind" in long_kind.content[0].text
    assert not fine.is_error
