"""A page with nothing in it yet shows the REST call (with this host's address) and the MCP
tool that fills it, not just "No playbooks."."""

import pytest
from django.test import Client

from apps.tenants.models import Role

EMPTY_PAGES = {
    "/memory/playbooks": ("/api/v1/playbooks", "write_playbook"),
    "/memory/episodes": ("/api/v1/episodes", "open_episode"),
    "/memory/lessons": ("/api/v1/lessons", "write_lesson"),
    "/memory/handoffs": ("/api/v1/handoffs", "hand_off"),
    "/conversations/": ("/api/v1/users/ada/sessions/s1/messages", "append_message"),
    "/memory/knowledge": ("/api/v1/knowledge/promotions", "promote_knowledge"),
    "/memory/kinds": ("/api/v1/kinds", "declare_kind"),
    "/work/tasks": ("/api/v1/tasks", "create_task"),
}


@pytest.mark.parametrize("path", sorted(EMPTY_PAGES))
def test_an_empty_page_says_how_to_fill_it(tenant, make_person, path):
    viewer = make_person(tenant, Role.REVIEWER)  # conversations are shown from reviewer up
    client = Client()
    client.login(username=viewer.username, password=viewer.raw_password)
    html = client.get(path).content.decode()
    route, tool = EMPTY_PAGES[path]
    assert "data-fill-hint" in html, path
    assert f"curl -X POST http://testserver{route} " in html
    assert f"<code>{tool}</code>" in html
