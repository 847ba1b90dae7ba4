"""In Debian's chromium with every request outside this machine refused: the API docs (Swagger
UI and ReDoc) still render their operations, from the service's own static files."""

from urllib.parse import urlsplit

import pytest

from apps.tenants.models import Role
from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def block_the_outside(page) -> list[str]:
    blocked: list[str] = []

    def handle(route):
        url = route.request.url
        if urlsplit(url).hostname in LOCAL_HOSTS or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.context.route("**/*", handle)
    return blocked


def test_swagger_ui_and_redoc_render_with_the_network_blocked(
    live_server, page, tenant, make_person
):
    blocked = block_the_outside(page)
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))

    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(
        ".opblock-summary-path[data-path='/api/v1/documents']", timeout=120_000
    )  # slow to render on a busy machine
    assert page.locator(".opblock").count() >= 20
    assert page.locator(".swagger-ui .info .title").inner_text().startswith("Anamnesis API")

    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector(
        "[data-section-id^='operation/']", timeout=120_000
    )  # slow to render on a busy machine
    assert page.locator("[data-section-id^='operation/']").count() >= 20
    assert "Counts of the caller's tenant's memory" in page.inner_text("body")

    assert blocked == []
    assert page.console_errors == []
