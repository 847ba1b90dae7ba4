"""The conversation tasks run in-process here (the real worker is in test_worker.py)."""

import pytest

from apps.conversations import tasks


@pytest.mark.django_db
def test_tasks_queued_for_a_tenant_deleted_since_do_nothing(tenant):
    uid = tenant.uid
    tenant.delete()
    assert tasks.messages_embed(uid) == tasks.GONE
    assert tasks.session_summarize(uid, "ann", "main") == tasks.GONE
