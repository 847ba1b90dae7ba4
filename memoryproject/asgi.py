"""The service's one entry point (`bin/run-local` serves it with uvicorn): /mcp goes to the MCP
server's streamable HTTP app, everything else to Django. The lifespan is the MCP app's (Django's
ASGI handler has none), which runs the SDK's session manager."""

import os

import django
from django.core.handlers.asgi import ASGIHandler, ASGIRequest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")
django.setup(set_prefix=False)

from memoryproject.access_log import access_log_redact  # noqa: E402  (after Django's setup)

access_log_redact()


class TenantScopedASGIRequest(ASGIRequest):
    """Pages keep their tenant Scope in `request.scope` (apps.tenants.middleware), where Django's
    ASGI request keeps the ASGI scope; after building the request Django reads that only for the
    scheme, so the scheme is read from a copy."""

    def __init__(self, scope, body_file):
        self.asgi_scope = scope
        super().__init__(scope, body_file)

    def _get_scheme(self):
        return self.asgi_scope.get("scheme") or super(ASGIRequest, self)._get_scheme()


class DjangoASGIHandler(ASGIHandler):
    request_class = TenantScopedASGIRequest


def service_app():
    """Django and a new MCP app (whose session manager runs once per app, so a second server in
    one process, as in tests, builds its own)."""
    from apps.mcp_server.http_app import PATH, mcp_http_app

    django_app, mcp_app = DjangoASGIHandler(), mcp_http_app()

    async def app(scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] == "lifespan" or (
            scope["type"] == "http" and (path == PATH or path.startswith(PATH + "/"))
        ):
            await mcp_app(scope, receive, send)
        else:
            await django_app(scope, receive, send)

    return app


application = service_app()
