"""The conversation pages (no browser): a session's messages appear once, in the table, as text."""

from __future__ import annotations

from apps.conversations import services
from apps.tenants.models import Role
from tests.conftest import scope_for


def test_a_session_page_lists_its_messages_once_and_no_flash_messages(client, tenant,
                                                                      make_person):  # fmt: skip
    scope = scope_for(tenant)
    for text in ("first <b>note</b>", "second note"):
        services.check_message_append(scope, user="ann", sid="main", role="user", text=text,
                                      by="ann")  # fmt: skip
    client.force_login(make_person(tenant, Role.REVIEWER))
    response = client.get("/conversations/users/ann/sessions/main/")
    assert response.status_code == 200
    page = response.content.decode()
    # The messages used to fill base.html's flash list too, each shown as a raw Python dict.
    assert 'class="messages"' not in page and "'uid':" not in page
    assert page.count("first &lt;b&gt;note&lt;/b&gt;") == 1 and "<b>note</b>" not in page
    assert page.count("second note") == 1 and page.count("<tr data-no=") == 2
