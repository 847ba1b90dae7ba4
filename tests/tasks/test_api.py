"""The agent API of tasks: scopes, bounds with field and limit, 409s with reasons, isolation."""

from __future__ import annotations


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
