"""The local push walk: it ranks as GDS's PageRank does, stays in its tenant, and weighs edges
by kind so that similarity does not drown the structure."""

from __future__ import annotations

from apps.graph import cypher
from apps.tasks.services.evidence import check_evidence_add
from apps.tasks.services.task_writes import check_task_create
from apps.tasks.similarity import similarity_sync
from apps.tasks.walk import EDGE_WEIGHTS, local_walk, neighbourhood_read
from apps.tasks.walk_reference import reference_walk
from tests.conftest import scope_for

UNIFORM = dict.fromkeys(EDGE_WEIGHTS, 1.0)
# A stray edge between two tenants' nodes, as a faulty import could leave one.
CROSS_EDGE = """
MATCH (a:Evidence {tenant: $tenant, uid: $mine}), (b:Evidence {tenant: $other, uid: $theirs})
CREATE (a)-[:SIMILAR_TO {score: 0.99}]->(b)
"""


def _team(scope):
    """A root with three subtasks, a depending on b, two findings each, and one unrelated task."""
    root = check_task_create(scope, description="Find why pump P-7 overheats")
    tasks = {k: check_task_create(scope, description=f"Pump P-7 check {k}", parent=root["id"])
             for k in ("b", "c")}  # fmt: skip
    tasks["a"] = check_task_create(scope, description="Decide the repair of pump P-7",
                                   parent=root["id"], depends_on=[tasks["b"]["id"]])  # fmt: skip
    found = {}
    texts = {
        "a": ["The repair window is Sunday", "Spare bearings are in stock"],
        "b": ["Bearing temperature hit 95 C", "Vibration doubled since May"],
        "c": ["Coolant level is normal", "The inlet filter is clean"],
    }
    for key, pair in texts.items():
        for n, text in enumerate(pair):
            found[f"{key}{n}"] = check_evidence_add(scope, task=tasks[key]["id"], content=text,
                                                    source="s", strength=0.5)  # fmt: skip
    lone = check_task_create(scope, description="Plan the office party")
    found["lone"] = check_evidence_add(scope, task=lone["id"], content="Cake on Friday",
                                       source="s", strength=0.5)  # fmt: skip
    return root, tasks, found


def test_the_push_ranks_as_the_whole_graph_pagerank_of_gds(scope):
    root, tasks, found = _team(scope)
    similarity_sync(scope)  # whatever SIMILAR_TO edges the real model gives, both walks see them
    seeds, weights = [tasks["a"]["uid"], tasks["b"]["uid"], root["uid"]], [1.0, 0.5, 0.5]
    for edge_weights in (EDGE_WEIGHTS, UNIFORM):
        pushed, _ = local_walk(scope, seeds, seed_weights=weights, weights=edge_weights)
        reference = reference_walk(scope, seeds, seed_weights=weights, weights=edge_weights)
        # Tolerance: the push leaves at most 1e-7 x degree unpushed per node; GDS iterates to
        # 1e-8. The orders agree, and the scores (GDS's are unnormalised) to 0.1 %.
        assert [r["uid"] for r in pushed] == [r["uid"] for r in reference]
        scale = sum(r["score"] for r in reference) / sum(r["score"] for r in pushed)
        for mine, theirs in zip(pushed, reference, strict=True):
            assert abs(mine["score"] * scale - theirs["score"]) <= 1e-3 * theirs["score"]
        assert found["lone"]["uid"] not in {r["uid"] for r in pushed}  # not connected


def test_another_tenants_nodes_never_enter_the_walk(scope, make_tenant):
    root, tasks, found = _team(scope)
    other = scope_for(make_tenant())
    their_root, their_tasks, theirs = _team(other)
    cypher.write(scope, CROSS_EDGE, mine=found["b0"]["uid"], other=other.tenant,
                 theirs=theirs["b0"]["uid"])  # fmt: skip
    around = neighbourhood_read(scope, [tasks["a"]["uid"], root["uid"]])
    their_uids = {v["uid"] for v in theirs.values()} | {t["uid"] for t in their_tasks.values()}
    assert {row["uid"] for row in around.rows}.isdisjoint(their_uids)
    # The stray edge is not even counted in the degree of the node it touches.
    b0 = next(row for row in around.rows if row["uid"] == found["b0"]["uid"])
    assert [kind for _, kind, _ in b0["edges"]] == ["PRODUCED"]
    ranked, _ = local_walk(scope, [tasks["a"]["uid"], root["uid"]])
    assert {r["uid"] for r in ranked}.isdisjoint(their_uids)


def test_weights_by_kind_put_structure_above_similarity(scope):
    """From task a, a sibling's finding is three structural edges away (a, the root, the
    sibling, its finding); paraphrases of a's finding by an unrelated task are two away through
    SIMILAR_TO. Weighed alike, the paraphrases win; weighed by kind, the structure does."""
    root = check_task_create(scope, description="Keep pump P-7 running")
    a = check_task_create(scope, description="Measure the bearing", parent=root["id"])
    sibling = check_task_create(scope, description="Inspect the seals", parent=root["id"])
    mine = check_evidence_add(scope, task=a["id"], content="The pump bearing runs at 95 degrees",
                              source="s", strength=0.5)  # fmt: skip
    seal = check_evidence_add(scope, task=sibling["id"], content="Seal ring shows wear",
                              source="s", strength=0.5)  # fmt: skip
    elsewhere = check_task_create(scope, description="Survey of pumps in other plants")
    echoes = [check_evidence_add(scope, task=elsewhere["id"], content=text, source="s",
                                 strength=0.5)
              for text in ("The pump bearing runs at 95 degrees Celsius",
                           "Pump bearings run at 95 degrees",
                           "The bearing of the pump runs at 95 degrees")]  # fmt: skip
    similarity_sync(scope)
    linked = cypher.read(scope, "MATCH (:Evidence {tenant: $tenant, uid: $uid})-[r:SIMILAR_TO]-() "
                         "RETURN count(r) AS n", uid=mine["uid"])[0]["n"]  # fmt: skip
    assert linked == 3  # the paraphrases are linked by the real model
    seeds = [a["uid"]]  # the task alone: the root as a seed would bring the sibling closer

    def order(weights):
        ranked, _ = local_walk(scope, seeds, weights=weights)
        evidence = [
            r["uid"] for r in ranked if r["uid"] in {seal["uid"]} | {e["uid"] for e in echoes}
        ]
        return evidence

    alike = order(UNIFORM)
    by_kind = order(EDGE_WEIGHTS)
    assert alike[0] != seal["uid"]  # a paraphrase first when similarity weighs like structure
    assert by_kind[0] == seal["uid"]  # the sibling's finding first when weighed by kind
