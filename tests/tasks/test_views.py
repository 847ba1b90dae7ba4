"""The work graph's pages: login and role, text escaped, one level of the DAG, other tenants 404."""

from __future__ import annotations

from apps.tasks.services.evidence import check_evidence_add
from apps.tasks.services.task_writes import TaskCreate, check_tasks_apply
from apps.tenants.models import Role
from tests.conftest import scope_for


def test_pages_show_one_level_escape_text_and_keep_tenants_apart(client, tenant, make_tenant,
                                                                 make_person):  # fmt: skip
    scope = scope_for(tenant)
    made = check_tasks_apply(scope, ops=[
        TaskCreate(description="Root <b>one</b>", ref="r"),
        TaskCreate(description="Child a", ref="a", parent="r"),
        TaskCreate(description="Child b", ref="b", parent="r", depends_on=("a",)),
    ])  # fmt: skip
    root, a, b = (m["id"] for m in made)
    check_evidence_add(scope, task=a, content="<script>x</script>", source="s", strength=0.4)
    assert client.get("/work/tasks").status_code == 302  # login first
    client.force_login(make_person(tenant, Role.VIEWER))
    top = client.get("/work/tasks").content.decode()
    assert f'data-id="{root}"' in top and f'data-id="{a}"' not in top  # collapsed by parent
    assert "Root &lt;b&gt;one&lt;/b&gt;" in top and "<b>one</b>" not in top
    level = client.get(f"/work/tasks?parent={root}").content.decode()
    assert f'data-from="{a}" data-to="{b}"' in level
    fragment = client.get(f"/work/tasks?parent={root}", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and f'data-id="{b}"' in fragment
    page = client.get(f"/work/tasks/{a}").content.decode()
    assert "&lt;script&gt;x&lt;/script&gt;" in page and "<script>x" not in page
    assert a in client.get("/work/ready").content.decode()
    assert client.get("/work/tasks?parent=t-none").status_code == 404
    stranger = make_tenant()
    client.force_login(make_person(stranger, Role.VIEWER))
    assert client.get(f"/work/tasks/{a}").status_code in (403, 404)
    assert f'data-id="{root}"' not in client.get("/work/tasks").content.decode()


def test_the_context_page_shows_what_was_ranked_and_why(client, tenant, make_tenant, make_person):
    scope = scope_for(tenant)
    made = check_tasks_apply(scope, ops=[
        TaskCreate(description="Fix pump P-7", ref="r"),
        TaskCreate(description="Read the bearing logs", ref="a", parent="r"),
    ])  # fmt: skip
    root, a = (m["id"] for m in made)
    found = check_evidence_add(scope, task=a, content="Bearing at <b>95 C</b>", source="s",
                               strength=0.4)  # fmt: skip
    client.force_login(make_person(tenant, Role.VIEWER))
    page = client.get(f"/work/tasks/{a}/context").content.decode()
    assert f'id="ctx-{found["id"]}"' in page and f"{a} · PRODUCED · {found['id']}" in page
    assert f'id="ctx-{root}"' in page and "seed: ancestor" in page
    assert "Bearing at &lt;b&gt;95 C&lt;/b&gt;" in page
    assert f"/work/tasks/{a}/context" in client.get(f"/work/tasks/{a}").content.decode()
    bad = client.get(f"/work/tasks/{a}/context?token_budget=100001")
    assert bad.status_code == 400 and b"token_budget" in bad.content
    assert client.get(f"/work/tasks/{a}/context?token_budget=x").status_code == 400
    client.force_login(make_person(make_tenant(), Role.VIEWER))
    assert client.get(f"/work/tasks/{a}/context").status_code in (403, 404)
