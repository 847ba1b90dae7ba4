"""A bound on the request line, answered in the API's error shape.

The web server refuses what it cannot buffer with its own plain answer (uvicorn's h11, as
bin/run-local starts it: 16 KiB of request line and headers), so every URL longer than
MAX_URL_CHARS and within that gets this JSON 414 instead."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse

from memoryproject.api_errors import api_error_response


class RequestLineLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.MAX_URL_CHARS
        length = len(request.path) + len(request.META.get("QUERY_STRING", ""))
        if length > limit:
            message = f"The URL is longer than {limit} characters."
            answer = api_error_response(
                request, 414, "uri_too_long", message, field="url", limit=limit
            )
            if answer is None:
                answer = HttpResponse(message, status=414, content_type="text/plain")
            return answer
        return self.get_response(request)
