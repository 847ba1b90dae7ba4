"""The web server of bench/context_latency.py's profile: uvicorn on the service's ASGI app, as
`make run` serves it, with timers wrapped around the stages of a request (nothing else
changes). Each request's stages go as one JSON line to the file named second:

    .venv/bin/python bench/context_profile_server.py PORT STAGES.jsonl

Stages, in ms (absent when the request did not pass there):
- asgi_total: from the ASGI call to the last byte of the body handed to uvicorn;
- to_django: from the ASGI call to Django's first middleware (the body read, the request
  built, the hop to the sync thread); middleware_in / middleware_out: the middleware before the
  view and after it (less the render); render: the JSON renderer; to_send: from the middleware's
  end to the response's start handed to uvicorn (the hop back);
- auth, permissions, throttles (DRF's initial), parse (the body parsed and validated);
- check_context: the context call; in it embed (the question), store, searches_wait (waiting
  for the searches' threads), around, block, trace, write_unit (the transaction, commit
  included) and its commit (write_unit less the work in it), after_append (the queued work).
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryproject.settings")

STAGES: contextvars.ContextVar[dict | None] = contextvars.ContextVar("stages", default=None)


def _now() -> float:
    return time.perf_counter()


def _add(name: str, ms: float) -> None:
    stages = STAGES.get()
    if stages is not None:
        stages[name] = round(stages.get(name, 0.0) + ms, 3)


def timed(name: str, fn):
    def wrapper(*args, **kwargs):
        started = _now()
        try:
            return fn(*args, **kwargs)
        finally:
            _add(name, (_now() - started) * 1000)

    wrapper.__wrapped__ = fn
    return wrapper


def mark(name: str) -> None:
    stages = STAGES.get()
    if stages is not None:
        stages.setdefault("_marks", {})[name] = _now()


def patch_all() -> None:
    from rest_framework.views import APIView

    from apps.conversations import api, context
    from apps.graph import cypher
    from memoryproject import api_renderers, request_metrics

    for name, stage in (("perform_authentication", "auth"), ("check_permissions", "permissions"),
                        ("check_throttles", "throttles")):  # fmt: skip
        setattr(APIView, name, timed(stage, getattr(APIView, name)))
    api.validated = timed("parse", api.validated)
    renderer = api_renderers.SafeJSONRenderer
    renderer.render = timed("render", renderer.render)

    outer = request_metrics.RequestMetricsMiddleware.__call__

    def middleware_call(self, request):
        mark("django_in")
        try:
            return outer(self, request)
        finally:
            mark("django_out")

    request_metrics.RequestMetricsMiddleware.__call__ = middleware_call
    dispatch = APIView.dispatch

    def dispatched(self, request, *args, **kwargs):
        mark("view_in")
        try:
            return dispatch(self, request, *args, **kwargs)
        finally:
            mark("view_out")

    APIView.dispatch = dispatched
    context.check_context = timed("check_context", context.check_context)
    context.embed_one = timed("embed", context.embed_one)
    context.do_message_append_in = timed("store", context.do_message_append_in)
    context.prompt_block = timed("block", context.prompt_block)
    context.do_trace_record_in = timed("trace", context.do_trace_record_in)
    context.after_append = timed("after_append", context.after_append)
    context._gathered = timed("gathered", context._gathered)
    context.entities_around = timed("around", context.entities_around)
    write_unit = cypher.write_unit

    def write_unit_timed(scope, work):
        inside = [0.0]

        def work_timed(unit):
            started = _now()
            try:
                return work(unit)
            finally:
                inside[0] += _now() - started

        started = _now()
        try:
            return write_unit(scope, work_timed)
        finally:
            total = (_now() - started) * 1000
            _add("write_unit", total)
            _add("commit", total - inside[0] * 1000)

    cypher.write_unit = write_unit_timed


def profiled(app, out):
    async def wrapper(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        stages: dict = {"path": scope["path"], "method": scope["method"]}
        token = STAGES.set(stages)
        started = _now()

        async def send_timed(message):
            if message["type"] == "http.response.start":
                mark("response_start")
                stages["status"] = message["status"]
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                mark("response_end")

        try:
            await app(scope, receive, send_timed)
        finally:
            STAGES.reset(token)
            marks = stages.pop("_marks", {})

            def span(a, b):
                if a in marks and b in marks:
                    return round((marks[b] - marks[a]) * 1000, 3)
                return None

            stages["asgi_total"] = round(
                ((marks.get("response_end") or _now()) - started) * 1000, 3
            )
            if "django_in" in marks:
                stages["to_django"] = round((marks["django_in"] - started) * 1000, 3)
            view = span("view_in", "view_out")
            stages["middleware_in"] = span("django_in", "view_in")
            out_ms = span("view_out", "django_out")
            if out_ms is not None:
                stages["middleware_out"] = round(out_ms - stages.get("render", 0.0), 3)
            stages["view"] = view
            stages["to_send"] = span("django_out", "response_start")
            stages["send"] = span("response_start", "response_end")
            out.write(json.dumps({k: v for k, v in stages.items() if v is not None}) + "\n")
            out.flush()

    return wrapper


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    import uvicorn

    from memoryproject.asgi import application

    patch_all()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the 404s asked on purpose
    with open(path, "a") as out:  # noqa: PTH123
        uvicorn.run(profiled(application, out), host="127.0.0.1", port=port, workers=1,
                    log_level="warning", lifespan="on")  # fmt: skip


if __name__ == "__main__":
    main()
