"""The API's one body parser: bounded, UTF-8, JSON, checked (memoryproject.json_values.BODY).

Every refusal is an ApplicationError, so it gets the API's JSON error shape: a body over
MAX_REQUEST_BYTES is a 413, bytes that are not UTF-8 or text that is not JSON a 400, and so are a
nesting deep enough to exhaust the parser, NaN, lone surrogates and integers beyond 64 bits.
"""

from __future__ import annotations

import codecs

from django.conf import settings
from rest_framework.parsers import JSONParser

from memoryproject.api_errors import ApplicationError
from memoryproject.json_values import BODY, json_loads


def body_too_large(limit: int) -> ApplicationError:
    return ApplicationError(
        f"The request body is larger than {limit} bytes.",
        code="too_large", field="body", limit=limit, status=413,
    )  # fmt: skip


class CheckedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise body_too_large(limit)
        # Read one byte past the limit: a body without a length cannot slip past it either.
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise body_too_large(limit)
        try:
            text = codecs.decode(raw, "utf-8")
        except UnicodeDecodeError as exc:
            raise ApplicationError(
                f"The body is not valid UTF-8 (byte {exc.start}).", field="body",
                code="invalid_utf8",
            ) from None  # fmt: skip
        if not text.strip():
            return {}
        return json_loads(text, field="body", limits=BODY, top_keys_are_fields=True)
