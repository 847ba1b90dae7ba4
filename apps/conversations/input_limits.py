"""What a conversation input may look like: formats and sizes, checked once for the API, the
pages and the services (a refused input never reaches the graph)."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from memoryproject.api_errors import ApplicationError

USER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:+-]{0,127}$")
SID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")
ROLE_RE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
MAX_USER_CHARS = 128
MAX_SID_CHARS = 64
MAX_BY_CHARS = 200
MAX_MENTIONS = 50
MAX_MENTION_CHARS = 200
MAX_SUMMARY_CHARS = 20_000
MAX_LAST = 200
MAX_SEARCH_CHARS = 500
MAX_K = 50
MAX_TOKEN_BUDGET = 32_000


def validate_user(user: str, field: str = "user") -> str:
    if not isinstance(user, str) or not USER_RE.match(user):
        raise ApplicationError(
            "A user is 1-128 letters, digits or ._@:+- and starts with a letter or digit.",
            field=field,
            limit=MAX_USER_CHARS,
        )
    return user


def validate_sid(sid: str, field: str = "sid") -> str:
    if not isinstance(sid, str) or not SID_RE.match(sid):
        raise ApplicationError(
            "A session id is 1-64 letters, digits or ._:- and starts with a letter or digit.",
            field=field,
            limit=MAX_SID_CHARS,
        )
    return sid


def validate_role(role: str) -> str:
    if not isinstance(role, str) or not ROLE_RE.match(role):
        raise ApplicationError(
            "A role is 1-32 lowercase letters, digits, _ or - and starts with a letter.",
            field="role",
            limit=32,
        )
    return role


def validate_text(text: str, *, limit: int, field: str = "text") -> str:
    if not isinstance(text, str) or not text.strip():
        raise ApplicationError("The text is empty.", field=field, limit=limit)
    if len(text) > limit:
        raise ApplicationError(
            f"The text has {len(text)} characters; the limit is {limit}.", field=field, limit=limit
        )
    return text


def validate_by(by: str) -> str:
    if not isinstance(by, str) or not by.strip() or len(by) > MAX_BY_CHARS:
        raise ApplicationError(
            "`by` names who wrote it, 1-200 characters.", field="by", limit=MAX_BY_CHARS
        )
    return by


def validate_mentions(mentions) -> list[str]:
    mentions = list(mentions or [])
    if len(mentions) > MAX_MENTIONS:
        raise ApplicationError(
            f"At most {MAX_MENTIONS} mentions.", field="mentions", limit=MAX_MENTIONS
        )
    cleaned = []
    for name in mentions:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_MENTION_CHARS:
            raise ApplicationError(
                "A mention is an entity uid or name of 1-200 characters.",
                field="mentions",
                limit=MAX_MENTION_CHARS,
            )
        if name.strip() not in cleaned:
            cleaned.append(name.strip())
    return cleaned


def validate_at(at) -> str | None:
    """An ISO-8601 time with its zone (when it was said), or None for now."""
    if at in (None, ""):
        return None
    if isinstance(at, datetime):
        value = at
    else:
        try:
            value = datetime.fromisoformat(str(at).replace("Z", "+00:00"))
        except ValueError:
            raise ApplicationError("`at` is an ISO-8601 time.", field="at") from None
    if value.tzinfo is None:
        raise ApplicationError("`at` needs a time zone (e.g. Z).", field="at")
    return value.isoformat()


def validate_count(value: int, *, field: str, limit: int, minimum: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= limit:
        raise ApplicationError(f"`{field}` is {minimum}-{limit}.", field=field, limit=limit)
    return value


def owner_key(tenant: str, user: str) -> str:
    """A word for one user's messages in the full-text index, so a search asks the index for
    that user's messages only. A hash: it never spells the user's name."""
    return "u" + hashlib.sha256(f"{tenant}\x1f{user}".encode()).hexdigest()[:24]


def user_words_query(tenant: str, user: str, terms: str) -> str:
    """The message_text query for one user's messages holding any of `terms` (a fulltext_terms
    OR query); '' when there are no terms."""
    return f"+owner_key:{owner_key(tenant, user)} +text:({terms})" if terms else ""


def mention_norm(name: str) -> str:
    """The entity key's normalization (the resolution gate's), so a mention by name finds the
    entity the gate would."""
    from apps.resolution.signals import name_normalize

    return name_normalize(name)
