"""The `memory` profile: a host written for the MCP reference memory server calls its tools with
its shapes and gets its answers, with our identity resolution and provenance underneath."""

from __future__ import annotations

import pytest

from tests.conftest import wait_for
from tests.mcp_server.conftest import call, key_issue, over_http
from tests.mcp_server.test_profiles import MEMORY, listed

pytestmark = pytest.mark.django_db(transaction=True)


def by_name(graph: dict) -> dict:
    return {e["name"]: e for e in graph["entities"]}


def test_a_reference_memory_host_works_unchanged(live_asgi, tenant, make_tenant, celery_worker):
    raw, theirs = key_issue(tenant), key_issue(make_tenant())
    assert set(listed(live_asgi, raw, "memory")) == MEMORY

    async def steps(client):
        got = {"entities": await call(client, "create_entities", entities=[
            {"name": "Maria Okafor", "entityType": "person",
             "observations": ["Speaks Igbo and French", "Leads the Lagos office"]},
            {"name": "Okafor Shipping", "entityType": "company", "observations": []},
        ])}  # fmt: skip
        got["relations"] = await call(
            client,
            "create_relations",
            relations=[
                {"from": "Maria Okafor", "to": "Okafor Shipping", "relationType": "works_for"}
            ],
        )
        got["observed"] = await call(
            client,
            "add_observations",
            observations=[{"entityName": "Maria Okafor", "contents": ["Prefers morning meetings"]}],
        )
        got["unknown"] = await call(
            client,
            "add_observations",
            observations=[{"entityName": "Nobody Here", "contents": ["x"]}],
        )
        got["open"] = await call(client, "open_nodes", names=["Maria Okafor", "Okafor Shipping"])
        got["search"] = await call(client, "search_nodes", query="Okafor")
        got["graph"] = await call(client, "read_graph")
        got["extra"] = await call(
            client,
            "create_entities",
            entities=[{"name": "X", "entityType": "person", "colour": "red"}],
        )
        got["unobserved"] = await call(
            client,
            "delete_observations",
            deletions=[
                {"entityName": "Maria Okafor", "observations": ["Prefers morning meetings"]}
            ],
        )
        return got

    got = over_http(live_asgi, raw, steps, profile="memory")
    assert not any(got[k]["is_error"] for k in ("entities", "relations", "observed")), got
    assert [e["name"] for e in got["entities"]["entities"]] == ["Maria Okafor", "Okafor Shipping"]
    assert {r["action"] for r in got["entities"]["receipts"]} <= {"created", "merged", "unchanged"}
    assert got["relations"]["relations"][0]["from"] == "Maria Okafor"
    assert got["observed"]["results"][0]["addedObservations"] == ["Prefers morning meetings"]
    assert got["unknown"]["status"] == 404 and got["unknown"]["error"]["field"] == "entityName"
    entities = by_name(got["open"])
    maria = entities["Maria Okafor"]
    assert (
        maria["entityType"] == "person" and entities["Okafor Shipping"]["entityType"] == "company"
    )
    assert set(maria["observations"]) >= {"Speaks Igbo and French", "Leads the Lagos office",
                                          "Prefers morning meetings"}  # fmt: skip
    assert got["open"]["relations"] == [
        {"from": "Maria Okafor", "to": "Okafor Shipping", "relationType": "WORKS_FOR"}
    ]
    assert "Maria Okafor" in by_name(got["search"]) and "Okafor Shipping" in by_name(got["graph"])
    assert got["extra"]["status"] == 400 and "colour" in got["extra"]["error"]["message"]
    assert got["unobserved"]["success"] and len(got["unobserved"]["jobs"]) == 1

    async def maria_now(client):
        return by_name(await call(client, "open_nodes", names=["Maria Okafor"]))

    wait_for(
        lambda: (
            "Prefers morning meetings"
            not in str(over_http(live_asgi, raw, maria_now, profile="memory"))
        ),
        message="observation kept",
    )

    async def other_tenant(client):
        return await call(client, "read_graph"), await call(
            client, "delete_entities", entityNames=["Maria Okafor"]
        )

    their_graph, their_delete = over_http(live_asgi, theirs, other_tenant, profile="memory")
    assert their_graph["entities"] == [] and their_delete["jobs"] == []

    async def delete(client):
        unrelated = await call(
            client,
            "delete_relations",
            relations=[
                {"from": "Maria Okafor", "to": "Okafor Shipping", "relationType": "works_for"}
            ],
        )
        return unrelated, await call(client, "delete_entities", entityNames=["Maria Okafor"])

    unrelated, deleted = over_http(live_asgi, raw, delete, profile="memory")
    assert len(unrelated["jobs"]) == 1 and deleted["jobs"]
    wait_for(lambda: "Maria Okafor" not in over_http(live_asgi, raw, maria_now, profile="memory"),
             message="the entity was not deleted")  # fmt: skip
