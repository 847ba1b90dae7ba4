"""The MCP server over streamable HTTP, as the ASGI app memoryproject.asgi routes /mcp to. Every
request is authenticated like a REST request (the same keys, scopes, rates and Host check) before
the SDK sees it; the Scope travels to the tools in the ASGI scope's state."""

from __future__ import annotations

import anyio.to_thread
from django.conf import settings
from django.core.exceptions import DisallowedHost
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import INTERNAL_ERROR, INVALID_REQUEST
from rest_framework.exceptions import APIException
from starlette.datastructures import Headers, QueryParams
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from apps.mcp_server.key_scopes import PROFILE_STATE_KEY, SCOPE_STATE_KEY, scope_of_headers
from apps.mcp_server.profiles import profile_checked
from apps.mcp_server.tools import mcp_server
from memoryproject.api_errors import ApplicationError, error_body, exception_handler

PATH = "/mcp"
KEY_HINT = "Send an API key of the tenant: `Authorization: Api-Key <key>` or `X-Api-Key: <key>`."


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
            refusal = rpc_refusal(error_body("bad_request", "The Host is not allowed."), 400)
        except APIException as exc:
            refusal = await anyio.to_thread.run_sync(_refusal, exc)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        try:
            profile = profile_of(scope)
        except ApplicationError as exc:
            body = error_body("bad_request", exc.message, field="profile", limit=exc.limit)
            await rpc_refusal(body, 400)(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state[SCOPE_STATE_KEY], state[PROFILE_STATE_KEY] = key_scope, profile
        refusal = _transport_refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send_json_errors(send))


def profile_of(scope: Scope) -> str:
    """The connection's profile: the `X-MCP-Profile` header, else `?profile=`, else `default`."""
    named = Headers(scope=scope).get("x-mcp-profile")
    if named is None:
        named = QueryParams(scope.get("query_string", b"")).get("profile")
    return profile_checked(named)


def _transport_refusal(scope: Scope) -> JSONResponse | None:
    """What the transport refuses before the SDK reads a byte, in the error shape: the GET
    event stream (a stateless server sends nothing on it, and the SDK held it open with no
    end, a worker's connection each), a body of another media type, a declared length over
    the limit."""
    method = scope["method"]
    if method == "GET":
        body = error_body("method_not_allowed", "This stateless server offers no event stream "
                          "on GET; POST JSON-RPC requests.")  # fmt: skip
        return rpc_refusal(body, 405, headers={"Allow": "POST"})
    if method != "POST":
        return None
    headers = Headers(scope=scope)
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        body = error_body("unsupported_media_type", "The body is JSON (application/json).",
                          field="body")  # fmt: skip
        return rpc_refusal(body, 415)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return _too_large(limit)
    return None


def _too_large(limit: int) -> JSONResponse:
    body = error_body("too_large", f"The request body is larger than {limit} bytes.",
                      field="body", limit=limit)  # fmt: skip
    return rpc_refusal(body, 413)


def send_json_errors(send: Send) -> Send:
    """`send`, with any error the SDK answers outside JSON (its own 413 of a body without a
    length, plain text with no content type) turned into the error shape."""
    held: dict = {}

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] >= 400:
            kind = Headers(raw=message.get("headers", [])).get("content-type", "")
            if not kind.startswith("application/json"):
                held["status"] = message["status"]
                held["text"] = b""
                return
        if "status" in held and message["type"] == "http.response.body":
            held["text"] += message.get("body", b"")
            if message.get("more_body"):
                return
            await _rewritten(held["status"], held["text"], send)
            return
        await send(message)

    return wrapped


async def _rewritten(status: int, text: bytes, send: Send) -> None:
    if status == 413:
        response = _too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    else:
        message = text.decode("utf-8", "replace")[:200] or "The request was refused."
        response = rpc_refusal(error_body("bad_request", message), status)
    await send({"type": "http.response.start", "status": status,
                "headers": response.raw_headers})  # fmt: skip
    await send({"type": "http.response.body", "body": response.body})


def _refusal(exc: APIException) -> JSONResponse:
    response = exception_handler(exc, {})
    headers = {"Retry-After": response["Retry-After"]} if response.has_header("Retry-After") else {}
    body = response.data
    if response.status_code == 401:
        # An API key, not OAuth: no Bearer challenge (with its resource metadata) that sends
        # a host looking for an authorization server; the message says what to send.
        headers["WWW-Authenticate"] = 'Api-Key realm="anamnesis"'
        error = body["error"]
        body = error_body(error["code"], f"{error['message']} {KEY_HINT}")
    return rpc_refusal(body, response.status_code, headers=headers)


def rpc_refusal(body: dict, status: int, *, headers: dict | None = None) -> JSONResponse:
    """A refusal before the SDK reads the request, as a JSON-RPC error (an MCP client shows
    its message, where it showed "Server returned an error response") whose `data` is the
    REST error (`code`, `message`, `field`, `limit`) with the HTTP status. The id is null: the
    request was not read."""
    error = {**body["error"], "status": status}
    code = INVALID_REQUEST if status < 500 else INTERNAL_ERROR
    rpc = {"jsonrpc": "2.0", "id": None,
           "error": {"code": code, "message": error["message"], "data": error}}  # fmt: skip
    return JSONResponse(rpc, status, headers=headers)
