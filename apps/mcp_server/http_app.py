"""The MCP server over streamable HTTP, as the ASGI app memoryproject.asgi routes /mcp to. Every
request is authenticated like a REST request (the same keys, scopes, rates and Host check) before
the SDK sees it; the Scope travels to the tools in the ASGI scope's state."""

from __future__ import annotations

import anyio.to_thread
from django.conf import settings
from django.core.exceptions import DisallowedHost
from mcp.server.transport_security import TransportSecuritySettings
from rest_framework.exceptions import APIException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from apps.mcp_server.key_scopes import SCOPE_STATE_KEY, scope_of_headers
from apps.mcp_server.tools import mcp_server
from memoryproject.api_errors import error_body, exception_handler

PATH = "/mcp"


def mcp_http_app() -> ASGIApp:
    app = mcp_server().streamable_http_app(
        streamable_http_path=PATH,
        # Each request carries its key and is answered on its own: no session to pin to a
        # process, so any replica answers any call.
        stateless_http=True,
        json_response=True,
        max_request_body_size=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        # The SDK's DNS-rebinding guard protects servers that trust the caller's network; ours
        # needs an API key no browser sends by itself, and checks the Host as Django does.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return KeyAuthenticated(app)


class KeyAuthenticated:
    """Refuses, in the REST API's error shape, a request without a valid key (401), over a rate
    (429) or to a host not in ALLOWED_HOSTS (400); passes the others on with their Scope."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: the SDK's session manager starts and stops
            await self.app(scope, receive, send)
            return
        refusal = None
        try:
            key_scope = await anyio.to_thread.run_sync(scope_of_headers, scope)
        except DisallowedHost:
            refusal = JSONResponse(error_body("bad_request", "The Host is not allowed."), 400)
        except APIException as exc:
            refusal = await anyio.to_thread.run_sync(_refusal, exc)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        scope.setdefault("state", {})[SCOPE_STATE_KEY] = key_scope
        await self.app(scope, receive, send)


def _refusal(exc: APIException) -> JSONResponse:
    response = exception_handler(exc, {})
    headers = {"Retry-After": response["Retry-After"]} if response.has_header("Retry-After") else {}
    if response.status_code == 401:
        headers["WWW-Authenticate"] = "Api-Key"
    return JSONResponse(response.data, response.status_code, headers=headers)
