"""The agent API of tasks: scopes, bounds with field and limit, 409s with reasons, isolation."""

from __future__ import annotations

from apps.tasks.services.page_ingest import pages_ingest_run


def test_task_flow_over_the_api(api_client):
    root = api_client.post("/api/v1/tasks", {"description": "Plan the audit"}, format="json")
    assert root.status_code == 201
    rid = root.json()["id"]
    batch = api_client.post(
        "/api/v1/tasks/batch",
        {"ops": [
            {"op": "create", "ref": "a", "description": "Collect logs", "parent": rid},
            {"op": "create", "ref": "b", "description": "Read logs", "depends_on": ["a"],
             "parent": rid},
        ]},
        format="json",
    )  # fmt: skip
    assert batch.status_code == 200, batch.json()
    a, b = (r["id"] for r in batch.json()["results"])
    ready = api_client.get("/api/v1/tasks/ready").json()["results"]
    assert [t["id"] for t in ready] == [rid, a]
    claimed = api_client.post("/api/v1/tasks/claim", {"lease_seconds": 60}, format="json").json()[
        "task"
    ]
    assert claimed["id"] == rid
    assert api_client.post(f"/api/v1/tasks/{rid}/release").json()["status"] == "PENDING"
    api_client.post("/api/v1/tasks/claim", {"lease_seconds": 60}, format="json")
    api_client.post("/api/v1/tasks/claim", {"lease_seconds": 60}, format="json")
    done = api_client.post(
        f"/api/v1/tasks/{a}/complete", {"result_summary": "logs in /srv"}, format="json"
    )
    assert done.json()["status"] == "DONE"
    immutable = api_client.patch(f"/api/v1/tasks/{a}", {"description": "x"}, format="json")
    assert immutable.status_code == 409
    assert immutable.json()["error"]["code"] == "task_immutable"
    cycle = api_client.post(
        "/api/v1/tasks/batch",
        {"ops": [{"op": "patch", "task": rid, "parent": b}]},
        format="json",
    )
    assert cycle.status_code == 409 and cycle.json()["error"]["code"] == "cycle"
    assert rid in cycle.json()["error"]["cycle"]
    detail = api_client.get(f"/api/v1/tasks/{b}").json()
    assert detail["ready"] is True and detail["depends_on"] == [{"id": a, "status": "DONE"}]
    empty = api_client.post("/api/v1/tasks/claim", {"lease_seconds": 60, "kind": "none"},
                            format="json")  # fmt: skip
    assert empty.status_code == 200 and empty.json() == {"task": None}


def test_bounds_answer_field_and_limit(api_client):
    long = api_client.post("/api/v1/tasks", {"description": "x" * 4001}, format="json")
    assert long.status_code == 400 and long.json()["error"]["field"] == "description"
    lease = api_client.post("/api/v1/tasks/claim", {"lease_seconds": 10**9}, format="json")
    assert lease.status_code == 400 and lease.json()["error"]["field"] == "lease_seconds"
    ops = [{"op": "create", "description": "x"}] * 101
    assert api_client.post("/api/v1/tasks/batch", {"ops": ops}, format="json").status_code == 400
    unknown = api_client.post("/api/v1/tasks", {"description": "x", "status": "DONE"},
                              format="json")  # fmt: skip
    assert unknown.status_code == 400
    assert api_client.get("/api/v1/tasks/" + "x" * 65).status_code == 400


def test_scopes_and_tenant_isolation(tenant, make_tenant, make_api_client, api_client):
    mine = api_client.post("/api/v1/tasks", {"description": "mine"}, format="json").json()
    reader = make_api_client(tenant, scopes=["memory:read"])
    assert reader.get(f"/api/v1/tasks/{mine['id']}").status_code == 200
    assert reader.post("/api/v1/tasks", {"description": "x"}, format="json").status_code == 403
    assert reader.post("/api/v1/tasks/claim", {"lease_seconds": 5},
                       format="json").status_code == 403  # fmt: skip
    stranger = make_api_client(make_tenant())
    assert stranger.get(f"/api/v1/tasks/{mine['id']}").status_code == 404
    assert stranger.get(f"/api/v1/tasks/{mine['uid']}").status_code == 404
    assert stranger.post(f"/api/v1/tasks/{mine['id']}/release").status_code == 404
    assert stranger.get("/api/v1/tasks/ready").json()["results"] == []


def test_evidence_pages_synthesis_and_sync_over_the_api(tenant, api_client, make_api_client):
    task = api_client.post("/api/v1/tasks", {"description": "Why do pumps fail?"},
                           format="json").json()["id"]  # fmt: skip
    one = api_client.post(f"/api/v1/tasks/{task}/evidence",
                          {"content": "Seals wear out", "source": "manual", "strength": 0.9},
                          format="json")  # fmt: skip
    assert one.status_code == 201 and one.json()["id"].startswith("e-")
    bad = api_client.post(f"/api/v1/tasks/{task}/evidence",
                          {"content": "x", "source": "s", "strength": 2}, format="json")  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "strength"
    pages = api_client.post(f"/api/v1/tasks/{task}/pages",
                            {"pages": [{"url": "https://ex.org/p", "content": "Pumps fail when "
                                        "their seals wear out or their bearings run dry."}]},
                            format="json")  # fmt: skip
    assert pages.status_code == 202
    pages_ingest_run(job_uid=pages.json()["job"])  # the worker's side, in this process
    done = api_client.get(pages.json()["url"]).json()
    assert done["status"] == "done" and len(done["result"]["created"]) == 1
    page_id = done["result"]["created"][0]["id"]
    summary = api_client.post("/api/v1/evidence/synthesis",
                              {"task": task, "content": "Seals and bearings",
                               "sources": [one.json()["id"], page_id]}, format="json")  # fmt: skip
    assert summary.status_code == 201
    shown = api_client.get(f"/api/v1/evidence/{page_id}").json()
    assert shown["superseded"] is True and shown["superseded_by"] == [summary.json()["id"]]
    job = api_client.post("/api/v1/tasks/similarity-sync")
    assert job.status_code == 202 and job.json()["url"].startswith("/api/v1/jobs/")
    reader = make_api_client(tenant, scopes=["memory:read"])
    assert reader.get(f"/api/v1/evidence/{page_id}").status_code == 200
    assert reader.post("/api/v1/tasks/similarity-sync").status_code == 403
    assert reader.post(f"/api/v1/tasks/{task}/pages", {"pages": []},
                       format="json").status_code == 403  # fmt: skip


def test_other_tenant_cannot_reach_evidence_over_the_api(api_client, make_tenant, make_api_client):
    task = api_client.post("/api/v1/tasks", {"description": "t"}, format="json").json()["id"]
    made = api_client.post(f"/api/v1/tasks/{task}/evidence",
                           {"content": "c", "source": "s", "strength": 0.5}, format="json")  # fmt: skip
    stranger = make_api_client(make_tenant())
    assert stranger.get(f"/api/v1/evidence/{made.json()['id']}").status_code == 404
    assert stranger.post(f"/api/v1/tasks/{task}/evidence",
                         {"content": "c", "source": "s", "strength": 0.5},
                         format="json").status_code == 404  # fmt: skip
    assert stranger.post(f"/api/v1/tasks/{task}/context", {}, format="json").status_code == 404
