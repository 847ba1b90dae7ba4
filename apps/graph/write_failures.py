"""Refused writes, recorded and bounded: one WriteFailure node per distinct refusal, counted."""

from __future__ import annotations

import hashlib

from apps.graph import cypher
from apps.graph.scope import Scope

MAX_REASON_CHARS = 2000
MAX_KIND_CHARS = 100
MAX_KEY_CHARS = 200
MAX_CONTENT_CHARS = 2000  # seed 001: up to 2,000 characters of the refused content

RECORD = """
MERGE (f:WriteFailure {tenant: $tenant, fingerprint: $fingerprint})
ON CREATE SET f.uid = randomUUID(), f.kind = $kind, f.reason = $reason, f.count = 1,
              f.key = $key, f.content = $content,
              f.actor = $actor, f.subject_user = $subject_user, f.subject_sid = $subject_sid,
              f.created_at = datetime(), f.last_at = datetime()
ON MATCH SET f.count = f.count + 1, f.last_at = datetime()
RETURN f.uid AS uid, f.count AS count
"""


def write_failure_record(
    scope: Scope,
    *,
    kind: str,
    reason: str,
    subject_user: str | None = None,
    subject_sid: str | None = None,
    key: str | None = None,
    content: str | None = None,
) -> dict:
    """Count a refusal; the same (kind, reason, actor, user, key, content) lands on the same
    node. `key` names what the write was about (an entity's key, a uid); `content` is what was
    refused, kept up to MAX_CONTENT_CHARS.
    `subject_user` names the conversation user the refused write was about, so erasing that
    user also erases their refusals; `subject_sid` the session, so erasing one session erases
    the refusals of that session and no others."""
    # A refusal may quote what was refused; a lone surrogate in it must not fail the record.
    kind = _encodable(kind[:MAX_KIND_CHARS])
    reason = _encodable(reason[:MAX_REASON_CHARS])
    key = _encodable(str(key)[:MAX_KEY_CHARS]) if key is not None else None
    content = _encodable(str(content)[:MAX_CONTENT_CHARS]) if content is not None else None
    what = "\x1f".join([kind, reason, scope.actor, subject_user or "", subject_sid or "",
                         key or "", content or ""])  # fmt: skip
    fingerprint = hashlib.sha256(what.encode("utf-8", "replace")).hexdigest()[:40]
    return cypher.write(
        scope,
        RECORD,
        fingerprint=fingerprint,
        kind=kind,
        reason=reason,
        actor=scope.actor,
        subject_user=subject_user,
        subject_sid=subject_sid,
        key=key,
        content=content,
    )[0]


def _encodable(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


def write_failures_list(scope: Scope, *, limit: int = 50) -> list[dict]:
    return cypher.read(
        scope,
        "MATCH (f:WriteFailure {tenant: $tenant}) "
        "RETURN f.kind AS kind, f.reason AS reason, f.count AS count, f.actor AS actor, "
        "f.key AS key, f.content AS content, "
        "toString(f.last_at) AS last_at ORDER BY f.last_at DESC LIMIT $limit",
        limit=limit,
    )
