"""Profiles over streamable HTTP, driven by the SDK's client (which checks every structured
answer against its tool's output schema): each profile's tool list, the choice by header or
query, the key's scopes per tool, and the default profile's loop for its tenant only."""

from __future__ import annotations

import json

import httpx
import pytest
from mcp.shared.exceptions import MCPError

from apps.review import services as review_services
from apps.tenants.models import KeyScope
from tests.conftest import scope_for, wait_for
from tests.mcp_server.conftest import (
    FACTS,
    READ_ONLY,
    call,
    key_issue,
    over_http,
    transport_refusal,
)
from tests.review.review_fixtures import anthropic_pair, pending_pairs

pytestmark = pytest.mark.django_db(transaction=True)
DEFAULT = {"add_memory", "search_memory", "get_context", "append_message", "get_entity",
           "get_document", "forget", "get_status"}  # fmt: skip
MEMORY = {"create_entities", "create_relations", "add_observations", "delete_entities",
          "delete_observations", "delete_relations", "read_graph", "search_nodes",
          "open_nodes"}  # fmt: skip


def listed(base_url, raw, profile):
    async def steps(client):
        return {tool.name: tool for tool in (await client.list_tools()).tools}

    return over_http(base_url, raw, steps, profile=profile)


def test_each_profile_lists_its_tools_with_schemas_that_tell_the_truth(live_asgi, tenant):
    raw = key_issue(tenant)
    default = listed(live_asgi, raw, None)
    assert set(default) == DEFAULT and len(default) <= 10
    work = listed(live_asgi, raw, "work")
    assert {"claim_task", "release_task", "add_evidence", "task_context", "lessons"} <= set(work)
    full = listed(live_asgi, raw, "full")
    assert set(default) | set(work) <= set(full) and not MEMORY & set(full)
    for tool in full.values():  # one paragraph, an output schema, closed arguments
        assert "\n" not in tool.description and "  " not in tool.description, tool.name
        assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
        assert tool.input_schema.get("additionalProperties") is False, tool.name
    entity = full["add_memory"].input_schema["$defs"]["EntityFact"]
    assert entity["additionalProperties"] is False
    assert entity["properties"]["type"]["enum"] == [
        "Person", "Organization", "Location", "Event", "Object"]  # fmt: skip
    predicate = full["add_facts"].input_schema["$defs"]["RelationFact"]["properties"]["predicate"]
    assert "WORKS_FOR" in predicate["examples"] and "RELATES_TO" in predicate["description"]
    ref = full["record_entry"].input_schema["$defs"]["Ref"]["properties"]["kind"]
    assert set(ref["enum"]) == {"entry", "episode", "entity", "lesson", "playbook"}
    search = full["search_memory"].input_schema["properties"]["kinds"]
    assert "passages" in str(search) and "facts" in str(search)
    assert full["forget"].annotations.destructive_hint is True


def test_the_profile_is_chosen_by_header_or_query_and_an_unknown_one_is_refused(live_asgi, tenant):
    raw = key_issue(tenant)
    headers = {"Authorization": f"Api-Key {raw}", "Accept": "application/json, text/event-stream"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    by_query = httpx.post(f"{live_asgi}/mcp?profile=work", json=body, headers=headers, timeout=300)
    assert by_query.status_code == 200
    assert "claim_task" in {tool["name"] for tool in by_query.json()["result"]["tools"]}
    wrong = httpx.post(f"{live_asgi}/mcp", json=body, timeout=300,
                       headers={**headers, "X-MCP-Profile": "everything"})  # fmt: skip
    assert wrong.status_code == 400
    error = transport_refusal(wrong)
    assert error["field"] == "profile" and "default" in error["limit"]

    async def outside(client):
        return await call(client, "claim_task", kind="lab", lease_seconds=60)

    refused = over_http(live_asgi, raw, outside, profile="default")
    assert refused["is_error"] and refused["status"] == 404 and refused["error"]["field"] == "name"


def test_a_read_only_key_sees_no_write_tool_in_any_profile(live_asgi, tenant):
    raw = key_issue(tenant, scopes=READ_ONLY)
    for profile in ("default", "work", "full"):
        tools = listed(live_asgi, raw, profile)
        assert tools, profile
        assert all(tool.annotations.read_only_hint for tool in tools.values()), profile
    assert set(listed(live_asgi, raw, None)) == {"search_memory", "get_entity", "get_document",
                                                 "get_status"}  # fmt: skip


def test_the_default_profile_runs_an_agents_loop_in_one_call_each(
    live_asgi, tenant, make_tenant, celery_worker
):
    raw = key_issue(tenant)
    theirs_key = key_issue(make_tenant())

    async def theirs(client):
        return await call(client, "add_memory", text="Zebulon Quark keeps a secret lab in Oslo.")

    their_doc = over_http(live_asgi, theirs_key, theirs, profile=None)["document"]

    async def steps(client):
        got = {"facts": await call(client, "add_memory", **FACTS,
                                   text="Ada Lovelace wrote about the Analytical Engine.")}  # fmt: skip
        got["text"] = await call(client, "add_memory", source="notes",
                                 text="Ada Lovelace met Charles Babbage in London in 1833.")  # fmt: skip
        got["long"] = await call(client, "add_memory", text="Charles Babbage designed engines. "
                                 * 700)  # fmt: skip
        got["nothing"] = await call(client, "add_memory")
        got["status"] = await call(client, "get_status", job=got["long"]["job"])
        got["search"] = await call(client, "search_memory", q="Babbage in London", limit=5)
        got["only"] = await call(client, "search_memory", q="Lovelace", kinds=["entities"])
        ada = got["facts"]["receipts"][0]["entity_uid"]
        got["entity"] = await call(client, "get_entity", uid=ada)
        got["document"] = await call(client, "get_document", uid=got["text"]["document"])
        got["context"] = await call(client, "get_context", user="u1", session="s1",
                                    message="Whom did Ada Lovelace meet?")  # fmt: skip
        got["answer"] = await call(client, "append_message", user="u1", session="s1",
                                   role="assistant", text="Charles Babbage.", by="agent")  # fmt: skip
        got["theirs"] = await call(client, "get_document", uid=their_doc)
        got["their_search"] = await call(client, "search_memory", q="Zebulon Quark secret lab")
        got["forget"] = await call(client, "forget", what="document", id=got["text"]["document"])
        got["merge"] = await call(client, "forget", what="merge", id="m1")
        got["user"] = await call(client, "forget", what="user", id="u1")
        return got

    got = over_http(live_asgi, raw, steps, profile=None)
    assert got["facts"]["stored"] == "facts"
    assert [r["action"] for r in got["facts"]["receipts"][:2]] == ["created", "created"]
    assert got["text"]["stored"] == "document" and got["text"]["status"] == "done"
    assert got["long"]["stored"] == "document" and got["long"]["status"] == "queued"
    assert got["nothing"]["status"] == 400 and got["nothing"]["error"]["field"] == "text"
    assert got["status"]["uid"] == got["long"]["job"]
    assert any("Babbage" in r["snippet"] for r in got["search"]["results"])
    assert {r["kind"] for r in got["only"]["results"]} == {"entity"}
    assert got["entity"]["values"] == {"born": 1815}
    assert "Babbage" in got["document"]["content"]
    assert "Ada Lovelace" in str(got["context"]) and got["answer"]["no"] == 2
    assert got["theirs"]["status"] == 404
    assert "Zebulon" not in str(got["their_search"]["results"])
    assert got["forget"]["forgot"] == "document" and got["forget"]["job"]
    # Each kind of forgetting needs its REST route's scope.
    assert got["merge"]["status"] == 403 and got["user"]["status"] == 403

    async def gone(client):
        return await call(client, "get_document", uid=got["text"]["document"])

    wait_for(lambda: over_http(live_asgi, raw, gone, profile=None)["is_error"],
             message="the document was not deleted")  # fmt: skip


def test_forget_undoes_a_merge_with_the_review_scope(live_asgi, tenant):
    scope = scope_for(tenant)
    anthropic_pair(scope)
    [pair] = pending_pairs(scope)
    merged = review_services.check_review_confirm(scope, review_uid=pair["uid"])
    reviewer = key_issue(tenant, scopes=[KeyScope.MEMORY_READ, KeyScope.REVIEW])
    assert "forget" in listed(live_asgi, reviewer, None)

    async def steps(client):
        return await call(client, "forget", what="merge", id=merged["merge_uid"])

    undone = over_http(live_asgi, reviewer, steps, profile=None)
    assert undone["forgot"] == "merge" and undone["review_uid"] == pair["uid"]
    assert len(pending_pairs(scope)) == 1


def test_an_entity_a_document_and_a_task_are_resources_for_their_tenant_only(
    live_asgi, tenant, make_tenant
):
    raw, theirs = key_issue(tenant), key_issue(make_tenant())

    async def write(client):
        facts = await call(client, "add_memory", **FACTS, text="Ada Lovelace, 1815.")
        task = await call(client, "create_task", description="read the notes")
        return facts["receipts"][0]["entity_uid"], facts["document"], task["id"]

    ada, document, task = over_http(live_asgi, raw, write)
    uris = [f"anamnesis://entities/{ada}", f"anamnesis://documents/{document}",
            f"anamnesis://tasks/{task}"]  # fmt: skip

    async def read(client):
        templates = (await client.list_resource_templates()).resource_templates
        got = [json.loads((await client.read_resource(uri)).contents[0].text) for uri in uris]
        return {t.uri_template for t in templates}, got

    templates, (entity, doc, one_task) = over_http(live_asgi, raw, read, profile=None)
    assert templates == {"anamnesis://entities/{uid}", "anamnesis://documents/{uid}",
                         "anamnesis://tasks/{task}"}  # fmt: skip
    assert entity["name"] == "Ada Lovelace" and doc["uid"] == document
    assert one_task["description"] == "read the notes"

    async def read_theirs(client):
        refused = []
        for uri in uris:
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            refused.append(str(caught.value))
        return refused

    assert all("not_found" in text for text in over_http(live_asgi, theirs, read_theirs))


def test_add_memory_keeps_the_source_and_title_of_facts(live_asgi, tenant):
    async def steps(client):
        named = await call(client, "add_memory", **FACTS, source="mcp-check",
                           text="Ada Lovelace wrote about the Analytical Engine.")  # fmt: skip
        titled = await call(client, "add_memory", **FACTS, source="mcp-check", title="Notes",
                            text="Ada Lovelace, 1815, wrote about the engine.")  # fmt: skip
        bare = await call(client, "add_memory", **FACTS, source="mcp-check")
        ada = named["receipts"][0]["entity_uid"]
        documents = [await call(client, "get_document", uid=named["document"]),
                     await call(client, "get_document", uid=titled["document"])]  # fmt: skip
        return documents, await call(client, "get_entity", uid=ada), bare

    (named, titled), ada, bare = over_http(live_asgi, key_issue(tenant), steps, profile=None)
    assert (named["source"], named["title"]) == ("mcp-check", None)
    assert (titled["source"], titled["title"]) == ("mcp-check", "Notes")
    shown = {m["document_title"] for m in ada["mentions"]}
    assert shown == {"mcp-check", "Notes"} and "facts" not in shown, ada["mentions"]
    # Without text no document keeps them: the answer says the source went unused.
    assert bare["document"] is None and "source" in bare["ignored"]
