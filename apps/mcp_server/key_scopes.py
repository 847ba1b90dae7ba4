"""Which tenant and rights an MCP call has: the caller's API key, checked by the same
authentication as the REST API (`ApiKeyAuthentication`: hash, revocation, expiry, the throttle on
bad keys) and the same per-key and per-address rates, per HTTP request or, over stdio, per call
with the key the process was started with."""

from __future__ import annotations

import io

from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import HttpRequest
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated, Throttled

from apps.graph.scope import Scope
from apps.tenants.auth import ApiKeyAuthentication
from apps.tenants.throttles import AddressRateThrottle, KeyRateThrottle

# Where the HTTP app leaves the authenticated Scope for the tools: the ASGI scope's `state`, which
# the SDK's Request (handed to the tool as `ctx.request_context.request`) reads back.
SCOPE_STATE_KEY = "anamnesis_scope"
PROFILE_STATE_KEY = "anamnesis_profile"  # the connection's profile, beside it


def scope_of_headers(asgi_scope: dict) -> Scope:
    """The Scope of an HTTP request to /mcp, or the REST API's refusal as an APIException
    (401 without a valid key, 429 over a rate), or DisallowedHost for a Host that Django's
    ALLOWED_HOSTS refuses. Uses the ORM: call it from a thread."""
    request = ASGIRequest(asgi_scope, io.BytesIO(b""))
    request.get_host()
    request.user, request.auth = None, None
    try:
        found = ApiKeyAuthentication().authenticate(request)
        throttle = AddressRateThrottle() if found is None else KeyRateThrottle()
        if found is not None:
            request.user, request.auth = found
        if not throttle.allow_request(request, None):
            raise Throttled(wait=throttle.wait())
        if found is None:
            raise NotAuthenticated()
        return found[1]
    finally:
        close_old_connections()


def scope_of_key(raw_key: str) -> Scope:
    """The Scope of a raw key given to the stdio server (checked again at every call, so a
    revoked key stops working at once). Raises AuthenticationFailed."""
    request = HttpRequest()
    request.META = {"HTTP_AUTHORIZATION": f"Api-Key {raw_key}", "REMOTE_ADDR": "127.0.0.1"}
    found = ApiKeyAuthentication().authenticate(request)
    if found is None:
        raise AuthenticationFailed("No API key was given.")
    return found[1]
