"""A task's prepared_prompt and antifocus: kept, bounded, over the API and on the task page;
the antifocus leaves what is close to it by meaning out of the task's context."""

from __future__ import annotations

import pytest

from apps.tasks.context import task_context
from apps.tasks.selectors import task_detail
from apps.tasks.services.evidence import check_evidence_add
from apps.tasks.services.task_writes import TaskPatch, check_task_create, check_tasks_apply
from memoryproject.api_errors import ApplicationError, NotFoundError
from tests.conftest import scope_for


def test_fields_are_kept_bounded_and_patched(scope, make_tenant):
    made = check_task_create(scope, description="Find why pump P-7 overheats",
                             prepared_prompt="You are a pump engineer. Read the logs.",
                             antifocus="the office party")  # fmt: skip
    got = task_detail(scope, task=made["id"])
    assert got["prepared_prompt"] == "You are a pump engineer. Read the logs."
    assert got["antifocus"] == "the office party"
    check_tasks_apply(scope, ops=[TaskPatch(task=made["id"], antifocus="catering")])
    got = task_detail(scope, task=made["id"])
    assert got["antifocus"] == "catering" and got["prepared_prompt"].startswith("You are")
    for field, limit in (("prepared_prompt", 8000), ("antifocus", 300)):
        with pytest.raises(ApplicationError) as refused:
            check_task_create(scope, description="x", **{field: "y" * (limit + 1)})
        assert refused.value.field == field
    with pytest.raises(NotFoundError):
        task_detail(scope_for(make_tenant()), task=made["uid"])


def test_antifocus_leaves_matching_evidence_out_of_the_context(scope):
    task = check_task_create(scope, description="Find why pump P-7 overheats",
                             antifocus="the office party cake and catering")  # fmt: skip
    add = lambda text: check_evidence_add(scope, task=task["id"], content=text,  # noqa: E731
                                          source="s", strength=0.6)  # fmt: skip
    hot, cake = add("Bearing of pump P-7 runs at 95 C"), add("The office party cake and catering")
    got = task_context(scope, task=task["id"])
    ids = [i["id"] for i in got["items"]]
    assert hot["id"] in ids and cake["id"] not in ids
    assert got["antifocus_excluded"] == [cake["id"]]
    plain = check_task_create(scope, description="Find why pump P-7 overheats, again")
    check_evidence_add(scope, task=plain["id"], content="The office party cake and catering",
                       source="s", strength=0.6)  # fmt: skip
    assert task_context(scope, task=plain["id"])["antifocus_excluded"] == []


def test_fields_over_the_api_and_on_the_page(tenant, api_client, make_person, client):
    from apps.tenants.models import Role

    made = api_client.post("/api/v1/tasks", {"description": "Check the coolant",
                                             "prepared_prompt": "Be brief.",
                                             "antifocus": "the kitchen"}, format="json")  # fmt: skip
    assert made.status_code == 201
    uid = made.json()["uid"]
    body = api_client.get(f"/api/v1/tasks/{uid}").json()
    assert body["prepared_prompt"] == "Be brief." and body["antifocus"] == "the kitchen"
    bad = api_client.patch(f"/api/v1/tasks/{uid}", {"antifocus": "k" * 301}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "antifocus"
    client.force_login(make_person(tenant, Role.VIEWER))
    page = client.get(f"/work/tasks/{made.json()['id']}").content.decode()
    assert "the kitchen" in page and "Be brief." in page
