"""The one rule of a search's input, shared by the API and the page (check_search validates,
then asks the selector)."""

from __future__ import annotations

from apps.graph.scope import Scope
from apps.search.selectors import KINDS, search_everything
from memoryproject.api_errors import ApplicationError

MAX_QUERY_CHARS = 500
MAX_LIMIT = 50
MAX_USER_CHARS = 200


def check_search(scope: Scope, *, q: str, kinds: str | None = None, limit: int | str = 20,
                 user: str | None = None) -> dict:  # fmt: skip
    """`q` 1-500 characters; `kinds` a comma-separated subset of KINDS (all when empty);
    `limit` 1-50. A refusal names the field and its limit."""
    q = (q or "").strip()
    if not q:
        raise ApplicationError("q is required: the words to search for.", field="q")
    if len(q) > MAX_QUERY_CHARS:
        raise ApplicationError(f"q holds at most {MAX_QUERY_CHARS} characters.", field="q",
                               limit=MAX_QUERY_CHARS, code="too_long")  # fmt: skip
    wanted = tuple(k.strip() for k in (kinds or "").split(",") if k.strip()) or KINDS
    unknown = [k for k in wanted if k not in KINDS]
    if unknown:
        raise ApplicationError(f"in takes {', '.join(KINDS)}; not {', '.join(unknown)}.",
                               field="in", limit=list(KINDS))  # fmt: skip
    try:
        limit = int(limit)
    except (TypeError, ValueError):
        raise ApplicationError("limit is a whole number.", field="limit", limit=MAX_LIMIT) from None
    if not 1 <= limit <= MAX_LIMIT:
        raise ApplicationError(f"limit is between 1 and {MAX_LIMIT}.", field="limit",
                               limit=MAX_LIMIT)  # fmt: skip
    if user is not None and not 0 < len(user) <= MAX_USER_CHARS:
        raise ApplicationError(f"user holds 1 to {MAX_USER_CHARS} characters.", field="user",
                               limit=MAX_USER_CHARS)  # fmt: skip
    found = search_everything(scope, q=q, kinds=wanted, limit=limit, user=user)
    return {"q": q, "in": list(wanted), "limit": limit, **found}
