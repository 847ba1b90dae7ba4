"""A host written for another memory's MCP server calls ours with that server's argument names
and reads our answers as it reads theirs: Graphiti's and Mem0's hosts against the default
profile, the reference memory server's against the memory profile. The calls are recorded in
fixtures/peer_host_calls.json and replayed through the SDK's client over HTTP and stdio."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mcp_server.conftest import call, key_issue, over_http
from tests.mcp_server.test_stdio import over_stdio

pytestmark = pytest.mark.django_db(transaction=True)
HOSTS = json.loads((Path(__file__).parent / "fixtures" / "peer_host_calls.json").read_text())


def replay(*hosts: str):
    """`steps(client)` making the hosts' calls in order: {host: {label: answer}}; and after
    Graphiti's write, our read of the document it made."""

    async def steps(client):
        got = {}
        for host in hosts:
            got[host] = {c["label"]: await call(client, c["tool"], **c["arguments"])
                         for c in HOSTS[host]["calls"]}  # fmt: skip
        if "graphiti" in got:
            document = got["graphiti"]["add"]["document"]
            got["graphiti"]["document"] = await call(client, "get_document", uid=document)
        return got

    return steps


def check_graphiti(got: dict) -> None:
    add = got["add"]
    assert not add["is_error"] and add["stored"] == "document", add
    assert isinstance(add["message"], str) and add["document"] in add["message"]
    document = got["document"]
    assert (document["title"], document["source"]) == ("Corvane founding", "town archive")
    # group_id is kept, not a namespace of its own; source names Graphiti's format here.
    assert document["metadata"] == {"group_id": "main", "format": "text"}
    for label, most in (("nodes", 5), ("facts", 10)):
        found = got[label]
        assert not found["is_error"] and 0 < len(found["results"]) <= most, found
        assert "group_ids" in found["ignored"]
    assert any("Corvane" in r["memory"] for r in got["nodes"]["results"])
    assert got["status"] == {"status": "ok", "message": got["status"]["message"],
                             "is_error": False}  # fmt: skip
    unknown = got["unknown"]
    assert unknown["status"] == 400 and unknown["error"]["field"] == "center_node_uuid"
    assert "query" in unknown["error"]["limit"]


def check_mem0(got: dict) -> None:
    assert not got["add"]["is_error"] and got["add"]["stored"] == "document", got["add"]
    results = got["search"]["results"]
    # OpenMemory's answer: results with an id, the memory's text and a score.
    assert results and all({"id", "memory", "score"} <= set(r) for r in results)
    assert all(r["id"] == r["uid"] for r in results)
    assert any("Corvane" in r["memory"] for r in results)
    window = got["search_window"]
    assert not window["is_error"] and len(window["results"]) <= 5 and window["limit"] == 5


def check_reference(got: dict) -> None:
    assert not any(answer["is_error"] for answer in got.values()), got
    assert [e["name"] for e in got["create"]["entities"]] == ["Corvane", "Ilse Varga"]
    # As the reference server answers: only what it did not have.
    assert got["create_again"]["entities"] == [] and got["relate_again"]["relations"] == []
    assert got["relate"]["relations"] == [
        {"from": "Ilse Varga", "to": "Corvane", "relationType": "founded"}
    ]
    assert got["observe"]["results"] == [
        {"entityName": "Corvane", "addedObservations": ["Has a red lighthouse"]}
    ]
    assert "Corvane" in {e["name"] for e in got["search"]["entities"]}
    # open_nodes answers the relations of the named entities to any other.
    opened = got["open"]
    assert [e["name"] for e in opened["entities"]] == ["Ilse Varga"]
    assert [(r["from"], r["to"], r["relationType"].lower()) for r in opened["relations"]] == [
        ("Ilse Varga", "Corvane", "founded")
    ]
    assert {"Corvane", "Ilse Varga"} <= {e["name"] for e in got["graph"]["entities"]}
    for label in ("unobserve", "unrelate", "delete"):
        assert got[label]["success"] is True and got[label]["jobs"], got[label]


def check(got: dict) -> None:
    checks = {"graphiti": check_graphiti, "mem0": check_mem0, "reference": check_reference}
    for host, answers in got.items():
        checks[host](answers)


# A tenant of its own for the reference host: it creates Corvane, which Graphiti's text taught.
def test_peer_hosts_over_http(live_asgi, make_tenant):
    default, memory = key_issue(make_tenant()), key_issue(make_tenant())
    check(over_http(live_asgi, default, replay("graphiti", "mem0"), profile=None))
    check(over_http(live_asgi, memory, replay("reference"), profile="memory"))


def test_peer_hosts_over_stdio(make_tenant):
    default, memory = key_issue(make_tenant()), key_issue(make_tenant())
    check(over_stdio(default, replay("graphiti", "mem0"), profile="default"))
    check(over_stdio(memory, replay("reference"), profile="memory"))
