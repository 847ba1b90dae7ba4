"""After a conversation erasure, the broker keeps no message that names the erased user
(issue 38): kombu's SQLAlchemy transport kept every delivered task message, arguments and
all, until the erasure task and beat purge them."""

from __future__ import annotations

import base64
import json
import uuid

import pytest
from django.conf import settings

from apps.conversations import erasure
from apps.tenants.models import Job
from tests.conftest import scope_for, wait_for
from tests.conversations.test_messages import say

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _decoded(payload: str | bytes) -> str:
    message = json.loads(payload)
    body = message.get("body", "")
    if message.get("properties", {}).get("body_encoding") == "base64":
        body = base64.b64decode(body).decode("utf-8", "replace")
    return body


def _redis_payloads(url: str) -> list[bytes]:
    """Every message kombu's Redis transport holds: its queues (lists) and the unacknowledged
    (a hash), so CI's Redis broker is checked as strictly as the SQLite one."""
    import redis

    client = redis.Redis.from_url(url)
    found = []
    for key in client.scan_iter(count=500):
        kind = client.type(key)
        if kind == b"list":
            found += client.lrange(key, 0, -1)
        elif kind == b"hash":
            found += [v for v in client.hvals(key) if v.startswith(b"[") or v.startswith(b"{")]
    client.close()
    payloads = []
    for raw in found:
        value = json.loads(raw)
        # The unacknowledged hash keeps [message, exchange, routing key].
        payloads.append(json.dumps(value[0]) if isinstance(value, list) else raw)
    return payloads


def broker_bodies() -> list[str]:
    """The decoded body of every message the broker still holds, on either transport."""
    url = settings.CELERY_BROKER_URL
    if url.startswith("redis"):
        return [_decoded(p) for p in _redis_payloads(url)]
    from sqlalchemy import create_engine, text

    assert url.startswith("sqla+"), url
    engine = create_engine(url.removeprefix("sqla+"))
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT payload FROM kombu_message")).all()
    engine.dispose()
    return [_decoded(payload) for (payload,) in rows]


def test_an_erased_user_is_not_named_in_the_broker(request, make_tenant):
    request.getfixturevalue("celery_worker")
    scope = scope_for(make_tenant())
    user = f"erin-{uuid.uuid4().hex[:8]}"
    say(scope, "The pump in hall 3 hums.", user=user)
    job = erasure.check_erasure_start(scope, user=user)
    if settings.CELERY_BROKER_URL.startswith("sqla+"):  # kept there once delivered, until purged
        assert any(user in body for body in broker_bodies())
    wait_for(lambda: Job.objects.get(uid=job.uid).status == "done", timeout=300,
             message="the erasure did not finish")  # fmt: skip
    wait_for(lambda: not any(user in body for body in broker_bodies()), timeout=60,
             message="the broker still names the erased user")  # fmt: skip
