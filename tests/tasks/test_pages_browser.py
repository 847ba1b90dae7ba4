"""The task DAG at 200 tasks, a task page and the ready set, in Debian's chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.tasks.services.claims import check_task_claim, check_task_finish
from apps.tasks.services.evidence import check_evidence_add, check_evidence_synthesize
from apps.tasks.services.task_writes import TaskCreate, check_tasks_apply
from apps.tenants.models import Role
from tests.conftest import browser_login, scope_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_dag_of_200_tasks_task_page_and_ready_set(live_server, page, tenant, make_person):
    scope = scope_for(tenant, actor="agent:planner")
    # 10 parents of 19 subtasks each (a chain of dependencies in each) and 10 lone tasks: 200.
    for p in range(10):
        ops = [TaskCreate(description=f"Area {p}", ref="p")]
        ops += [TaskCreate(description=f"Step {p}.{i}", ref=f"s{i}", parent="p",
                           depends_on=(f"s{i - 1}",) if i else ()) for i in range(19)]  # fmt: skip
        check_tasks_apply(scope, ops=ops)
    lone = check_tasks_apply(scope, ops=[TaskCreate(description=f"Lone {i}") for i in range(10)])
    first = check_task_claim(scope, lease_seconds=600)  # the oldest: Area 0
    e1 = check_evidence_add(scope, task=first["id"], content="Valve <b>V-1</b> leaks",
                            source="inspection", strength=0.82)  # fmt: skip
    e2 = check_evidence_add(scope, task=first["id"], content="Valve V-1 drips", source="log",
                            strength=0.4)  # fmt: skip
    summary = check_evidence_synthesize(scope, task=first["id"], content="V-1 leaks",
                                        sources=[e1["id"], e2["id"]])  # fmt: skip
    check_task_finish(scope, task=first["id"], status="DONE", result_summary="found the leak")

    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    page.click("nav >> text=Tasks")
    # A click that navigates returns once the next page started loading: wait until it shows.
    expect(page.locator("#dag-svg g.task")).to_have_count(20)  # 10 areas collapsed + 10 lone tasks
    assert "0/19 subtasks done" in page.locator(f'g.task[data-id="{first["id"]}"]').text_content()
    page.locator('g.task:has-text("Area 3") a').first.click()
    page.wait_for_selector("#dag-svg g.task >> nth=18")
    assert page.locator("#dag-svg g.task").count() == 19
    assert page.locator("#dag-svg line.dep").count() == 18
    xs = [page.locator("#dag-svg g.task").nth(i).bounding_box()["x"] for i in range(19)]
    assert xs == sorted(xs) and len(set(xs)) == 19  # the chain reads left to right
    page.click("#trail >> text=All root tasks")
    page.wait_for_selector(f'g.task[data-id="{lone[0]["id"]}"]')

    page.goto(f"{live_server.url}/work/tasks/{first['id']}")
    assert page.locator("#task-status").inner_text() == "DONE"
    row = page.locator(f"#evidence tr#{e1['id']}")
    assert "Valve <b>V-1</b> leaks" in row.inner_text()  # escaped, shown as text
    assert "superseded by " + summary["id"] in row.inner_text()
    assert "supersedes" in page.locator(f"#evidence tr#{summary['id']}").inner_text()
    assert "0.82" in row.inner_text()
    assert "agent:planner" in page.locator("#claims").inner_text()

    page.goto(f"{live_server.url}/work/ready")
    ready = page.locator("#ready tbody").inner_text()
    assert lone[0]["id"] in ready and first["id"] not in ready
