"""Every refused write is kept as a WriteFailure, counted per distinct refusal (a client retrying
the same bad request stays one node), whoever refused it, by one of two doors:

- a service wrapped in `refusal_recorded(kind)` records its own refusals (pages, the API and jobs
  call it alike), after its transaction rolled back, so nothing is half-written;
- an API view that mixes in `RecordsRefusals` records what the request layer refused (bad input,
  404, 409...), unless a service recorded it already (`exc.recorded`).

Both go through `refusal_record`, which marks the exception recorded."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import TypeVar

from rest_framework.permissions import SAFE_METHODS

from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record
from memoryproject.api_errors import ApplicationError
from memoryproject.metrics import REFUSED_WRITES

F = TypeVar("F", bound=Callable)


def refusal_record(
    scope: Scope,
    *,
    kind: str,
    reason: str,
    subject_user: str | None = None,
    subject_sid: str | None = None,
    exc: BaseException | None = None,
    key: str | None = None,
    content: object = None,
) -> None:
    """Count one refusal; `subject_user`/`subject_sid` name the conversation it was about (so
    erasing the user erases it); `key` what it was about, `content` what was refused (bounded
    to 2,000 characters). `exc` is marked, so no other door counts it again."""
    write_failure_record(scope, kind=kind, reason=reason, subject_user=subject_user,
                         subject_sid=subject_sid, key=key,
                         content=None if content is None else content_text(content))  # fmt: skip
    code = getattr(exc, "code", None) or reason.split(":", 1)[0]
    known = isinstance(code, str) and re.fullmatch(r"[a-z_]{1,40}", code)
    REFUSED_WRITES.labels(kind=kind[:40], reason=code if known else "other").inc()
    if exc is not None:
        exc.recorded = True  # type: ignore[attr-defined]


KEY_NAMES = ("key", "uid", "id", "episode", "task", "name", "kind")


def key_of(*sources: dict) -> str | None:
    """What a refused write was about: the first key-like name its arguments give."""
    for source in sources:
        for name in KEY_NAMES:
            value = source.get(name) if isinstance(source, dict) else None
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)
    return None


def content_text(content: object) -> str:
    """The refused content as text, cut at 2,000 characters (objects as sorted JSON)."""
    if isinstance(content, str):
        return content[:2000]
    try:
        return json.dumps(content, sort_keys=True, default=str, ensure_ascii=False)[:2000]
    except (TypeError, ValueError):
        return repr(content)[:2000]


def refusal_recorded(kind: str) -> Callable[[F], F]:
    """Wrap a service `fn(scope, **kw)`: an ApplicationError is recorded under `kind`, then raised."""

    def decorator(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(scope: Scope, *args, **kwargs):
            try:
                return fn(scope, *args, **kwargs)
            except ApplicationError as exc:
                if not getattr(exc, "recorded", False):
                    refusal_record(scope, kind=kind, reason=f"{exc.code}: {exc.message}",
                                   exc=exc, key=key_of(kwargs), content=kwargs)  # fmt: skip
                raise

        return wrapper  # type: ignore[return-value]

    return decorator


class RecordsRefusals:
    """Mix into an APIView before APIView. Reads (GET, HEAD, OPTIONS) are not recorded, nor an
    exception a service recorded already. `refusal_kind` names what the view writes (the error's
    code when unset); a view whose refusals belong to a conversation user overrides
    `refusal_subject`."""

    refusal_kind: str | None = None

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        scope = getattr(self.request, "auth", None)
        if (
            400 <= response.status_code < 500
            and isinstance(scope, Scope)
            and self.request.method not in SAFE_METHODS
            and not getattr(exc, "recorded", False)
        ):
            self.refusal_record(scope, (response.data or {}).get("error", {}), exc)
        return response

    def refusal_record(self, scope: Scope, error: dict, exc: BaseException | None = None) -> None:
        where = f" field={error['field']}" if error.get("field") else ""
        limit = f" limit={error['limit']}" if error.get("limit") is not None else ""
        detail = error.get("fields") or error.get("message", "")
        reason = f"{self.request.method} {self.request.path}{where}{limit}: {detail}"
        kind = self.refusal_kind or str(error.get("code", "refused"))
        try:
            data = self.request.data
        except Exception:  # the body itself was refused (415, 400, 413): nothing to keep
            data = None
        refusal_record(scope, kind=kind, reason=reason, exc=exc,
                       key=key_of(getattr(self, "kwargs", None) or {}, data or {}),
                       content=data or None)  # fmt: skip
