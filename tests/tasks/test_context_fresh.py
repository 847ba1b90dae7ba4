"""A context call right after a write: fresh evidence whose SIMILAR_TO edges the sync has not
written yet is reached by the edges it will get, and only within the tenant."""

from __future__ import annotations

from apps.graph import cypher
from apps.tasks.context import task_context
from apps.tasks.services.evidence import check_evidence_add
from apps.tasks.services.task_writes import check_task_create
from apps.tasks.similarity import similarity_sync
from tests.conftest import scope_for

SIMILAR = "MATCH (:Evidence {tenant: $tenant})-[r:SIMILAR_TO]->() RETURN count(r) AS n"
PENDING = "MATCH (e:Evidence {tenant: $tenant, similar_pending: true}) RETURN count(e) AS n"


def _graph(scope):
    logs = check_task_create(scope, description="Read the bearing logs of pump P-7")
    hot = check_evidence_add(scope, task=logs["id"], source="log", strength=0.6,
                             content="The bearing temperature of pump P-7 hit 95 C at night")  # fmt: skip
    walk = check_task_create(scope, description="Walk the plant floor")
    fresh = check_evidence_add(scope, task=walk["id"], source="walk", strength=0.6,
                               content="Pump P-7 bearing temperature reached 95 C overnight")  # fmt: skip
    return logs, hot, fresh


def test_fresh_evidence_ranks_at_once_by_the_edges_the_sync_will_write(scope):
    logs, hot, fresh = _graph(scope)
    assert cypher.read(scope, SIMILAR)[0]["n"] == 0  # no sync has run
    got = task_context(scope, task=logs["id"])
    items = {i["uid"]: i for i in got["items"]}
    path = [logs["id"], "PRODUCED", hot["id"], "SIMILAR_TO", fresh["id"]]
    assert items[fresh["uid"]]["why"]["path"] == path
    # The sync writes that very edge and clears the mark: the same path, now by the edge.
    similarity_sync(scope)
    assert cypher.read(scope, SIMILAR)[0]["n"] == 1 and cypher.read(scope, PENDING)[0]["n"] == 0
    again = {i["uid"]: i for i in task_context(scope, task=logs["id"])["items"]}
    assert again[fresh["uid"]]["why"]["path"] == path


def test_another_tenants_fresh_evidence_never_joins(scope, make_tenant):
    logs, hot, fresh = _graph(scope)
    other = scope_for(make_tenant())
    theirs = _graph(other)
    got = {i["uid"] for i in task_context(scope, task=logs["id"])["items"]}
    assert fresh["uid"] in got
    assert got.isdisjoint({t["uid"] for t in theirs})
