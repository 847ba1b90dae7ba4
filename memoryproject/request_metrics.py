"""Request rate and latency by route (memoryproject/metrics.py): the route is the URL pattern
that served the request (`api/v1/episodes/<str:uid>`), so the labels stay few whatever the ids."""

from __future__ import annotations

import time

from memoryproject.metrics import REQUEST_SECONDS, REQUESTS


class RequestMetricsMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        route = "/" + match.route if match is not None and match.route else "unmatched"
        method = request.method if request.method in KNOWN_METHODS else "other"
        REQUESTS.labels(route=route, method=method, status=str(response.status_code)).inc()
        REQUEST_SECONDS.labels(route=route, method=method).observe(time.perf_counter() - started)
        return response


KNOWN_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
