"""Context by Personalized PageRank: seeds, paths, supersession, the budget, tenants."""

from __future__ import annotations

import pytest

from apps.graph import cypher
from apps.tasks.context import task_context
from apps.tasks.services.evidence import check_evidence_add, check_evidence_synthesize
from apps.tasks.services.task_writes import check_task_create
from memoryproject.api_errors import ApplicationError, NotFoundError
from tests.conftest import scope_for
from tests.lessons.conftest import entity_make

PROJECTIONS = """
CALL gds.graph.list() YIELD graphName
WITH graphName WHERE graphName STARTS WITH $tenant
RETURN count(*) AS n
"""


def _work_graph(scope):
    root = check_task_create(scope, description="Investigate pump overheating")
    a = check_task_create(scope, description="Read the bearing logs", parent=root["id"])
    b = check_task_create(scope, description="Check the coolant", parent=root["id"])
    other = check_task_create(scope, description="Inspect the kitchen")
    party = check_task_create(scope, description="Plan the office party")
    pump = entity_make(scope, "Pump P-7")
    add = lambda t, text, **kw: check_evidence_add(  # noqa: E731
        scope, task=t["id"], content=text, source="s", strength=0.6, **kw
    )
    return {
        "root": root, "a": a, "b": b, "other": other,
        "a1": add(a, "Bearing temperature of P-7 hit 95 C", mentions=[pump]),
        "a2": add(a, "Grease was last changed in March"),
        "b1": add(b, "Coolant level is normal"),
        "u1": add(other, "Pump P-7 sits next to the kitchen", mentions=[pump]),
        "party": add(party, "Cake is ordered for Friday"),
    }  # fmt: skip


def test_context_ranks_nearby_work_and_says_why(scope):
    g = _work_graph(scope)
    got = task_context(scope, task=g["a"]["id"], token_budget=4000)
    items = {i["id"]: i for i in got["items"]}
    assert got["seeds"] == [g["a"]["uid"], g["root"]["uid"]]
    assert items[g["root"]["id"]]["why"] == {"seed": "ancestor", "path": None}
    assert items[g["a1"]["id"]]["why"]["path"] == [g["a"]["id"], "PRODUCED", g["a1"]["id"]]
    assert items[g["b1"]["id"]]["why"]["path"] == [
        g["root"]["id"],
        "SUBTASK_OF",
        g["b"]["id"],
        "PRODUCED",
        g["b1"]["id"],
    ]
    # Reached through the entity both mention, though its task is unrelated.
    assert items[g["u1"]["id"]]["why"]["path"] == [
        g["a"]["id"],
        "PRODUCED",
        g["a1"]["id"],
        "MENTIONS",
        "Pump P-7",
        "MENTIONS",
        g["u1"]["id"],
    ]
    assert g["party"]["id"] not in items  # no walk reaches it
    assert g["a"]["id"] not in items  # the task itself is what asks
    ranked = [i["id"] for i in got["items"]]
    assert ranked.index(g["a1"]["id"]) < ranked.index(g["b1"]["id"])
    assert cypher.read(scope, PROJECTIONS)[0]["n"] == 0  # the projection was dropped


def test_superseded_evidence_leaves_context_and_budget_holds(scope):
    g = _work_graph(scope)
    summary = check_evidence_synthesize(scope, task=g["a"]["id"], sources=[g["a1"]["id"]],
                                        content="P-7 bearings run hot: 95 C")  # fmt: skip
    got = task_context(scope, task=g["a"]["id"])
    ids = [i["id"] for i in got["items"]]
    assert summary["id"] in ids and g["a1"]["id"] not in ids
    small = task_context(scope, task=g["a"]["id"], token_budget=12)
    assert 0 < small["tokens"] <= 12 and len(small["items"]) < len(got["items"])
    assert task_context(scope, task=g["a"]["id"], limit=2)["items"].__len__() == 2


def test_bounds_and_tenants(scope, make_tenant):
    g = _work_graph(scope)
    with pytest.raises(ApplicationError) as refused:
        task_context(scope, task=g["a"]["id"], token_budget=100_001)
    assert refused.value.field == "token_budget"
    other = scope_for(make_tenant())
    with pytest.raises(NotFoundError):
        task_context(other, task=g["a"]["uid"])
    # Another tenant's graph of the same shape: none of its nodes ever shows up here.
    theirs = _work_graph(other)
    got = task_context(scope, task=g["a"]["id"])
    assert {i["uid"] for i in got["items"]}.isdisjoint({v["uid"] for v in theirs.values()})


def test_context_over_the_api(tenant, api_client, make_api_client):
    scope = scope_for(tenant)
    g = _work_graph(scope)
    reader = make_api_client(tenant, scopes=["memory:read"])
    answer = reader.post(f"/api/v1/tasks/{g['a']['id']}/context", {"token_budget": 50},
                         format="json")  # fmt: skip
    assert answer.status_code == 200 and answer.json()["tokens"] <= 50
    bad = reader.post(f"/api/v1/tasks/{g['a']['id']}/context", {"limit": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "limit"


def test_the_tasks_it_depends_on_are_seeds_and_their_findings_come_first(scope):
    first = check_task_create(scope, description="Measure the bearing temperature")
    second = check_task_create(scope, description="Decide on the repair",
                               depends_on=[first["id"]])  # fmt: skip
    found = check_evidence_add(scope, task=first["id"], content="Bearing at 95 C", source="s",
                               strength=0.5)  # fmt: skip
    got = task_context(scope, task=second["id"])
    assert got["seeds"] == [second["uid"], first["uid"]]
    items = {i["id"]: i for i in got["items"]}
    assert items[first["id"]]["why"] == {"seed": "dependency", "path": None}
    assert items[found["id"]]["why"]["path"] == [first["id"], "PRODUCED", found["id"]]


def test_a_call_reads_the_neighbourhood_in_one_query_and_projects_nothing(scope):
    g = _work_graph(scope)
    with cypher.count_round_trips() as trips:
        got = task_context(scope, task=g["a"]["id"])
    assert got["items"]
    # The task's uid, its seeds, the neighbourhood, the chosen items' details.
    assert trips[0] <= 4
    assert cypher.read(scope, PROJECTIONS)[0]["n"] == 0
