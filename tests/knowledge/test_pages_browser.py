"""The knowledge pages in Debian's chromium: the users with facts and one user's graph."""

from __future__ import annotations

import pytest

from apps.knowledge.services import knowledge_promote_chains
from apps.tenants.models import Role
from tests.conftest import browser_login, nav_click, scope_for
from tests.lessons.conftest import say

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_knowledge_graph_of_a_user(live_server, page, tenant, make_person):
    scope = scope_for(tenant)
    for text in ["I use Go and Docker.", "I use Go.", "Maybe I'm interested in Rust."]:
        say(scope, "ann", text)
    knowledge_promote_chains(scope)
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    nav_click(page, "Knowledge")
    page.click("#users >> text=ann")
    assert page.locator('[data-fact="ann USES go"] [data-weight]').inner_text() == "2"
    assert "docker" in page.locator('[data-label="Tools"]').inner_text()
    assert (
        page.locator('[data-fact="ann EXPRESSED_INTEREST rust"]').get_attribute("class") == "muted"
    )
    assert page.console_errors == []
