"""Reviewer pages in Debian's chromium: timeline, lessons, playbooks and the switch, handoffs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.lessons.services.episodes import (
    check_entry_record,
    check_episode_close,
    check_episode_open,
)
from apps.lessons.services.handoffs import check_handoff_give
from apps.lessons.services.lessons import check_lesson_learn, check_lesson_weigh
from apps.lessons.services.playbooks import check_playbook_run, check_playbook_write
from apps.tenants.models import Role
from tests.conftest import browser_login, htmx_settled, nav_click, scope_for
from tests.lessons.conftest import closed_episode, entity_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_episode_timeline_lessons_and_handoffs(live_server, page, tenant, make_person):
    scope = scope_for(tenant, actor="agent:watcher")
    d1 = entity_make(scope, "Pump d1")
    ep = check_episode_open(scope, title="d1 overheats", about=[d1])["id"]
    seen = check_entry_record(
        scope,
        episode=ep,
        type="observation",
        text="<b>hot</b>",
        values={"status": "hot"},
        cites=[{"kind": "entity", "id": d1}],
    )
    check_entry_record(
        scope, episode=ep, type="forecast", cites=[{"kind": "entry", "id": seen["id"]}]
    )
    check_episode_close(scope, episode=ep, outcome={"failed": False})
    other = closed_episode(scope, title="second")
    check_lesson_learn(scope, key="hot-ok", statement="Hot <i>d1</i> survives", supported_by=[ep])
    check_lesson_weigh(scope, key="hot-ok", episode=other, agrees=False)
    check_handoff_give(
        scope, key="h1", to="agent:planner", points_to=[{"kind": "episode", "id": ep}]
    )

    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    nav_click(page, "Episodes")
    page.click("text=d1 overheats")
    # A click that navigates returns once the next page started loading: wait until it shows.
    expect(page.locator("#timeline li.entry")).to_have_count(3)
    assert page.locator("#entry-1").inner_text().count("<b>hot</b>") == 1  # escaped, shown as text
    assert "cites entity: Pump d1" in page.locator("#entry-1").inner_text()
    assert "cites entry: observation #1" in page.locator("#entry-2").inner_text()
    assert page.locator("[data-status]").inner_text() == "closed"

    nav_click(page, "Lessons")
    assert page.locator("#lessons tbody tr").inner_text().strip() == "No lessons."  # weight 0 < 1
    page.click("text=Show all")
    page.click("text=Hot <i>d1</i> survives")
    assert page.locator("[data-weight]").inner_text() == "0"
    assert sorted(
        page.locator("#evidence tr[data-side]").evaluate_all(
            "rows => rows.map(r => r.dataset.side)"
        )
    ) == ["against", "for"]

    nav_click(page, "Handoffs")
    section = page.locator('[data-receiver="agent:planner"]')
    assert "d1 overheats" in section.inner_text() and "given" in section.inner_text()
    assert page.console_errors == []


def test_playbook_versions_runs_and_the_reviewer_switch(live_server, page, tenant, make_person):
    scope = scope_for(tenant)
    eps = [closed_episode(scope) for _ in range(4)]
    check_playbook_write(
        scope,
        key="hot",
        trigger={"status": "hot"},
        steps=[{"do": "check the fan"}],
        supported_by=eps[:3],
    )
    check_playbook_write(
        scope,
        key="hot",
        trigger={"status": "hot"},
        steps=[{"do": "swap the fan"}],
        supported_by=eps[1:],
    )
    check_playbook_run(scope, key="hot", episode=eps[0], succeeded=False)

    viewer = make_person(tenant, Role.VIEWER)
    browser_login(page, live_server, viewer)
    page.goto(f"{live_server.url}/memory/playbooks/hot")
    assert page.locator("#switch-button").count() == 0
    page.context.clear_cookies()

    reviewer = make_person(tenant, Role.REVIEWER)
    browser_login(page, live_server, reviewer)
    nav_click(page, "Playbooks")
    page.click("#playbooks >> text=hot")
    expect(page.locator("article.version")).to_have_count(2)
    assert "Version 2 (current)" in page.locator("article.version").first.inner_text()
    assert "swap the fan" in page.locator("article.version").first.inner_text()
    assert "check the fan" in page.locator("article.version").nth(1).inner_text()
    assert page.locator("#runs tr[data-succeeded=false]").count() == 1

    page.fill("#switch input[name=reason]", "fan recalled")
    page.click("#switch-button")
    page.wait_for_selector("#switch [data-enabled]:text('off')")
    assert f"user:{reviewer.username}" in page.locator("[data-switched-by]").inner_text()
    assert "fan recalled" in page.locator("[data-switched-by]").inner_text()
    htmx_settled(page)  # the button was swapped in with the switch
    page.click("#switch-button")
    page.wait_for_selector("#switch [data-enabled]:text('on')")
    assert page.console_errors == []
