"""The task DAG at 200 tasks, a task page and the ready set, in Debian's chromium."""

from __future__ import annotations

import pytest

from apps.tasks.services.claims import check_task_claim, check_task_finish
from apps.tasks.services.evidence import check_evidence_add, check_evidence_synthesize
from apps.tasks.services.task_writes import TaskCreate, check_tasks_apply
from apps.tenants.models import Role
from tests.browser.test_graph_view_browser import artifact
from tests.conftest import browser_login, nav_click, scope_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def cy(page, what: str):
    return page.evaluate(f"document.getElementById('dag-graph').cy.{what}")


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

    page.set_viewport_size({"width": 1366, "height": 900})
    browser_login(page, live_server, make_person(tenant, Role.VIEWER))
    nav_click(page, "Tasks")
    # A click that navigates returns once the next page started loading: wait until it shows.
    page.wait_for_selector("#dag-graph[data-ready=true]")
    assert cy(page, "nodes().length") == 20  # 10 areas collapsed + 10 lone tasks
    assert page.locator("#dag-table tr.task").count() == 20
    assert "0/19 subtasks done" in cy(page, f"getElementById('{first['id']}').data('label')")
    # Whole titles: no box is narrower than its text, and the canvas spans the page's column.
    assert cy(
        page,
        "nodes().every(n => n.boundingBox({includeLabels: false}).w >= "
        "n.boundingBox({includeNodes: false, includeLabels: true}).w)",
    )
    assert page.locator("#dag-graph .dag-canvas").bounding_box()["width"] > 1000
    page.screenshot(path=str(artifact("task-dag-roots-1366x900")), full_page=True)
    area = cy(page, "nodes().filter(n => n.data('label').includes('Area 3'))[0].id()")
    page.goto(f"{live_server.url}/work/tasks?parent={area}")
    page.wait_for_selector("#dag-graph[data-ready=true]")
    assert cy(page, "nodes().length") == 19
    assert cy(page, "edges().length") == 18
    assert page.locator("#dag-table span.dep").count() == 18
    chain = cy(
        page,
        "nodes().sort((a, b) => a.data('description').localeCompare(b.data('description'), "
        "undefined, {numeric: true})).map(n => n.position('x'))",
    )
    assert chain == sorted(chain) and len(set(chain)) == 19  # the chain reads left to right
    page.screenshot(path=str(artifact("task-dag-chain-1366x900")), full_page=True)
    page.click("#trail >> text=All root tasks")
    page.wait_for_selector(f'#dag-table tr.task[data-id="{lone[0]["id"]}"]', state="attached")

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
