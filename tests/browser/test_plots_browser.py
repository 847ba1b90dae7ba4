"""In Debian's chromium at 1366x900 and 1920x1080: the plots people look at (review trends,
ingestion per day on the console, an entity's values over time, an agent's trust over time)
are drawn with bars and their numbers in a table, the usage page shows readings rather than
"No reading yet" when there is data, and each screen is saved to the browser tests' artifacts."""

import pytest
from playwright.sync_api import expect

from apps.graph import cypher
from apps.lessons.services.episodes import check_entry_record, check_episode_open
from apps.tenants.models import Job, JobStatus
from apps.timeline.services import check_rows_write
from tests.browser.test_page_width_browser import admin_with_demo_data
from tests.conftest import scope_for, screenshot
from tests.timeline.conftest import kinds_declare, row

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = [(1366, 900), (1920, 1080)]


def plot_drawn(page, plot_id: str) -> int:
    figure = page.locator(f"#{plot_id}")
    expect(figure.locator("svg[role=img]")).to_be_visible()
    bars = figure.locator("rect.bar").count()
    rows = figure.locator("details.plot-numbers tbody tr").count()
    assert bars > 0 and rows > 0, (plot_id, bars, rows)
    return bars


def test_plots_are_drawn_with_their_numbers(live_server, page, tenant, make_person):
    from django.utils import timezone

    admin_with_demo_data(page, live_server, tenant, make_person)
    scope = scope_for(tenant)
    kinds_declare(scope)
    check_rows_write(scope, rows=[row("pump-7", f"2026-0{m}-01T00:00:00Z", temp=20.0 + 4 * m)
                                  for m in range(1, 7)])  # fmt: skip
    uid = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, kind: 'Device', key: 'pump-7'}) "
                      "RETURN e.uid AS uid")[0]["uid"]  # fmt: skip
    episode = check_episode_open(scope, title="pump 7")["id"]
    check_entry_record(scope, episode=episode, type="look")
    Job.objects.create(tenant=tenant, kind="document_ingest", status=JobStatus.DONE,
                       finished_at=timezone.now())  # fmt: skip

    screens = [
        ("/review/trends/", ["review-over-time", "review-histogram"], "plots-review-trends"),
        (f"/console/{tenant.slug}/", ["ingest-throughput"], "plots-console-usage"),
        (f"/entities/{uid}/", ["entity-values-temp"], "plots-entity-values"),
        (f"/memory/agents/{scope.actor}", ["trust-over-time"], "plots-agent-trust"),
    ]
    for path, plots, name in screens:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            for plot_id in plots:
                page.locator(f"#{plot_id}").wait_for()
                plot_drawn(page, plot_id)
            page.locator(f"#{plots[0]}").scroll_into_view_if_needed()
            screenshot(page, f"{name}-{width}x{height}")

    page.goto(f"{live_server.url}/entities/{uid}/")
    expect(page.locator("#entity-values-temp rect.bar")).to_have_count(6)  # htmx loads it
    page.goto(f"{live_server.url}/console/{tenant.slug}/")
    expect(page.locator("#usage-history")).to_be_visible()
    assert page.locator("#usage-history-empty").count() == 0
    page.goto(f"{live_server.url}/memory/agents/{scope.actor}")
    expect(page.locator("#trust-score")).not_to_have_text("no evidence yet")
    assert page.console_errors == [], page.console_errors
