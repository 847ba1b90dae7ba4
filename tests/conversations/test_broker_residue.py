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


def broker_rows() -> list[tuple[bool, str]]:
    """(visible, the decoded body) of every message in the SQLite broker."""
    from sqlalchemy import create_engine, text

    url = settings.CELERY_BROKER_URL
    if not url.startswith("sqla+"):
        pytest.skip("the broker is not kombu's SQLAlchemy transport")
    engine = create_engine(url.removeprefix("sqla+"))
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT visible, payload FROM kombu_message")).all()
    engine.dispose()
    found = []
    for visible, payload in rows:
        message = json.loads(payload)
        body = message.get("body", "")
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body).decode("utf-8", "replace")
        found.append((bool(visible), body))
    return found


def test_an_erased_user_is_not_named_in_the_broker(monkeypatch, request, make_tenant):
    monkeypatch.setenv("TEST_WORKER_CONCURRENCY", "1")
    request.getfixturevalue("celery_worker")
    scope = scope_for(make_tenant())
    user = f"erin-{uuid.uuid4().hex[:8]}"
    say(scope, "The pump in hall 3 hums.", user=user)
    job = erasure.check_erasure_start(scope, user=user)
    assert any(user in body for _, body in broker_rows())  # the task's arguments, queued
    wait_for(lambda: Job.objects.get(uid=job.uid).status == "done", timeout=300,
             message="the erasure did not finish")  # fmt: skip
    wait_for(lambda: not any(user in body for _, body in broker_rows()), timeout=60,
             message="the broker still names the erased user")  # fmt: skip
