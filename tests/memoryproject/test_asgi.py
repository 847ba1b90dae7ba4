"""The service's ASGI entry point (what `make run` serves): Django's pages and API beside the
MCP server at /mcp, each answering as it does alone."""

from __future__ import annotations

import httpx
import pytest

from tests.mcp_server.conftest import (  # noqa: F401 - the live server fixture
    key_issue,
    live_asgi,
    transport_refusal,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_pages_api_and_mcp_answer_from_one_app(live_asgi, tenant):  # noqa: F811
    # A page runs the tenant middleware, which keeps its Scope in `request.scope`.
    login = httpx.get(f"{live_asgi}/accounts/login/?next=/review/", timeout=300)
    assert login.status_code == 200 and "csrfmiddlewaretoken" in login.text
    assert httpx.get(f"{live_asgi}/review/", timeout=300).status_code == 302
    key = {"X-Api-Key": key_issue(tenant)}
    health = httpx.get(f"{live_asgi}/api/v1/health", headers=key, timeout=300)
    assert health.json()["service"]["name"] == "anamnesis"
    assert httpx.get(f"{live_asgi}/api/v1/nowhere", headers=key, timeout=300).status_code == 404
    long_url = httpx.get(f"{live_asgi}/api/v1/stats?q={'a' * 5000}", headers=key, timeout=300)
    assert long_url.status_code == 414 and long_url.json()["error"]["limit"] == 4096
    mcp = httpx.post(f"{live_asgi}/mcp", json={}, timeout=300)
    assert mcp.status_code == 401 and transport_refusal(mcp)["code"] == "not_authenticated"
