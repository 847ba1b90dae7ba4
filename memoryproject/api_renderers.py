"""The API's JSON renderer: UTF-8 as usual, and never a 500 for text that cannot be UTF-8.

Input checks refuse lone surrogates now (memoryproject.json_values), but a value stored before
they did reads back with one; such an answer is sent with every non-ASCII character escaped
(`\\ud800` is valid JSON), instead of failing the whole read of the tenant."""

from __future__ import annotations

from rest_framework.renderers import JSONRenderer


class SafeJSONRenderer(JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            escaped = type(self)()
            escaped.ensure_ascii = True
            return JSONRenderer.render(escaped, data, accepted_media_type, renderer_context)
