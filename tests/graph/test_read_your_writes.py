"""Read your writes: a request's or a job's reads carry the bookmarks of its earlier writes (on a
routed cluster they may go to a follower), through the same code path on the local server."""

from __future__ import annotations

import uuid

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from neo4j.exceptions import ClientError

from apps.graph import cypher
from apps.graph.cypher import read_your_writes
from memoryproject.celery import app
from memoryproject.read_your_writes import ReadYourWritesMiddleware

WRITE = "CREATE (n:BookmarkProbe {tenant: $tenant, uid: $uid}) RETURN n.uid AS uid"
READ = "MATCH (n:BookmarkProbe {tenant: $tenant, uid: $uid}) RETURN n.uid AS uid"


def probe_write_then_read(scope) -> dict:
    """A write, then what a read in the same unit sees and the unit's bookmarks at that time."""
    uid = uuid.uuid4().hex
    cypher.write(scope, WRITE, uid=uid)
    with read_your_writes() as manager:  # nested: the request's or the job's own manager
        bookmarks = list(manager.get_bookmarks())
    return {"read": cypher.read(scope, READ, uid=uid), "uid": uid, "bookmarks": bookmarks}


def test_a_write_then_a_read_in_one_block_share_its_bookmarks(scope):
    with read_your_writes() as manager:
        assert list(manager.get_bookmarks()) == []
        seen = probe_write_then_read(scope)
        assert seen["bookmarks"], "the write's bookmark is kept for the reads after it"
        assert seen["read"] == [{"uid": seen["uid"]}]
        with read_your_writes() as inner:
            assert inner is manager
    with read_your_writes() as later:  # the next request or job starts with none
        assert later is not manager and list(later.get_bookmarks()) == []


def test_reads_inside_a_block_send_its_bookmarks_to_the_server(scope):
    # A bookmark the server never issued: a read that carries it is refused by Neo4j itself,
    # which proves the read sends the block's bookmarks (a follower would wait for them).
    with read_your_writes() as manager:
        manager.update_bookmarks([], ["not-a-bookmark-of-this-server"])
        with pytest.raises(ClientError) as refused:
            cypher.read(scope, READ, uid="x")
        assert "Bookmark" in (refused.value.code or "")
    assert cypher.read(scope, READ, uid="x") == []  # outside a block, no bookmarks are sent


def test_each_request_is_one_block(scope):
    seen = {}

    def view(request):
        seen.update(probe_write_then_read(scope))
        return HttpResponse("ok")

    ReadYourWritesMiddleware(view)(RequestFactory().get("/api/v1/stats"))
    assert seen["bookmarks"] and seen["read"] == [{"uid": seen["uid"]}]
    # Without the middleware, a nested block is a fresh one that knows no earlier write.
    assert not probe_write_then_read(scope)["bookmarks"]


@app.task(name="tests.bookmark_probe")
def bookmark_probe(tenant_uid: str) -> dict:
    from apps.graph.scope import Scope

    return probe_write_then_read(Scope(tenant=tenant_uid, actor="job", actor_kind="system"))


def test_each_mcp_tool_call_is_one_block(scope):
    import json
    from types import SimpleNamespace

    from apps.mcp_server.key_scopes import SCOPE_STATE_KEY
    from apps.mcp_server.tool_calls import tool_run

    # The SDK's request context as the /mcp app leaves it: the caller's Scope in the ASGI state.
    request = SimpleNamespace(scope={"state": {SCOPE_STATE_KEY: scope}})
    ctx = SimpleNamespace(request_context=SimpleNamespace(request=request))
    answer = tool_run(ctx, needs=next(iter(scope.permissions)), work=probe_write_then_read)
    seen = json.loads(answer.content[0].text)
    assert not answer.is_error and seen["bookmarks"] and seen["read"] == [{"uid": seen["uid"]}]


def test_each_job_is_one_block(tenant):
    seen = bookmark_probe.apply(args=[tenant.uid]).get()
    assert seen["bookmarks"] and seen["read"] == [{"uid": seen["uid"]}]
