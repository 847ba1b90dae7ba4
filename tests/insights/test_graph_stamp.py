"""The graph's stamp (seed 001): made with the tenant, shown in the stats and in kept answers, and
another one when the graph is made again or a write deletes (a late row that replaces a NEXT
link, forgetting a session): then no answer kept before is given. Written through the real
services and read through the API where a caller reads it."""

from apps.conversations import erasure
from apps.graph import cypher
from apps.graph.graph_version import graph_stamp_read
from apps.insights import selectors
from apps.timeline.kinds import check_kind_declare
from apps.timeline.services import check_rows_write
from tests.conftest import graph_wipe_tenant, scope_for
from tests.conversations.test_messages import say
from tests.insights.known_graph import known_graph_write

STAMPS = "MATCH (s:GraphStamp {tenant: $tenant}) RETURN s.id AS id"


def _groups(client) -> dict:
    response = client.get("/api/v1/graph/groups")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_new_tenant_has_one_stamp_shown_in_its_stats_and_answers(tenant, make_tenant,
                                                                    make_api_client):  # fmt: skip
    scope = scope_for(tenant)
    stamps = cypher.read(scope, STAMPS)
    assert len(stamps) == 1 and len(stamps[0]["id"]) >= 32
    client = make_api_client(tenant)
    assert client.get("/api/v1/stats").json()["graph_stamp"] == stamps[0]["id"]
    known_graph_write(scope)
    first, again = _groups(client), _groups(client)
    assert (first["kept"], again["kept"]) == (False, True)
    assert first["stamp"] == again["stamp"] == stamps[0]["id"]
    other = scope_for(make_tenant())
    assert graph_stamp_read(other)[0] not in (None, stamps[0]["id"])


def test_a_graph_made_again_has_another_stamp_and_no_answer_from_before(tenant, make_api_client):
    scope = scope_for(tenant)
    client = make_api_client(tenant)
    known_graph_write(scope)
    before = _groups(client)
    assert _groups(client)["kept"]
    # The graph is deleted and made again under the tenant's id (a database restored or remade
    # behind the application): its version counts from 0 again, here to the same number.
    version = graph_stamp_read(scope)[1]
    graph_wipe_tenant(tenant.uid)
    assert graph_stamp_read(scope) == (None, 0)
    known_graph_write(scope)
    known_graph_write(scope)  # no version raised: the known graph is written behind the services
    assert graph_stamp_read(scope) == (None, version)
    after = _groups(client)
    assert after["kept"] is False and after["stamp"] != before["stamp"]
    assert after["nodes"] == 2 * before["nodes"]  # the graph of now, not the answer kept before


def test_a_late_row_that_replaces_a_next_link_gives_a_new_stamp(tenant):
    scope = scope_for(tenant)
    check_kind_declare(scope, kind={"name": "Room", "key": "code"})
    check_kind_declare(scope, kind={"name": "Device", "key": "serial",
                                    "values": {"status": "string"},
                                    "relations": {"IN": {"target": "Room", "one": True}}})  # fmt: skip

    def row(t: str, status: str, room: str = "r1") -> dict:
        return {"kind": "Device", "key": "d1", "t": t, "values": {"status": status},
                "relations": {"IN": room}}  # fmt: skip

    check_rows_write(scope, rows=[row("2026-01-01T10:00:00Z", "ok"),
                                  row("2026-01-01T14:00:00Z", "hot", "r2")])  # fmt: skip
    assert not selectors.graph_groups(scope)["kept"]
    kept = selectors.graph_groups(scope)
    assert kept["kept"]
    # A late row that says what the next State says only moves its start: nothing is deleted.
    check_rows_write(scope, rows=[row("2026-01-01T13:00:00Z", "hot", "r2")])
    assert graph_stamp_read(scope)[0] == kept["stamp"]
    receipt = check_rows_write(scope, rows=[row("2026-01-01T12:00:00Z", "warm")])[0]
    assert receipt["status"] == "changed" and receipt["reason"] == "late: put into the history"
    after = selectors.graph_groups(scope)
    assert not after["kept"] and after["stamp"] != kept["stamp"]


def test_forgetting_a_session_gives_a_new_stamp(tenant):
    scope = scope_for(tenant)
    known_graph_write(scope)
    say(scope, "Ann keeps notes about the lighthouse", user="ann")
    selectors.graph_groups(scope)
    kept = selectors.graph_groups(scope)
    assert kept["kept"]
    erasure.messages_erase(scope, user="ann", sid=None)
    after = selectors.graph_groups(scope)
    assert not after["kept"] and after["stamp"] != kept["stamp"]
