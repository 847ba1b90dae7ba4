"""Refused writes through the agent API are recorded: a 4xx answer to a key's write becomes a
WriteFailure, counted per distinct refusal (so a client retrying a bad request stays one node)."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS

from apps.graph.scope import Scope
from apps.graph.write_failures import write_failure_record


class RecordsRefusals:
    """Mix into an APIView before APIView. Reads (GET, HEAD, OPTIONS) are not recorded, nor an
    exception marked `recorded` (a service kept it already)."""

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        scope = getattr(self.request, "auth", None)
        if (
            400 <= response.status_code < 500
            and isinstance(scope, Scope)
            and self.request.method not in SAFE_METHODS
            and not getattr(exc, "recorded", False)
        ):
            self.refusal_record(scope, (response.data or {}).get("error", {}))
        return response

    def refusal_record(self, scope: Scope, error: dict) -> None:
        where = f" field={error['field']}" if error.get("field") else ""
        limit = f" limit={error['limit']}" if error.get("limit") is not None else ""
        detail = error.get("fields") or error.get("message", "")
        reason = f"{self.request.method} {self.request.path}{where}{limit}: {detail}"
        write_failure_record(scope, kind=str(error.get("code", "refused")), reason=reason)
