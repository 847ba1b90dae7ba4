"""The DAG drawing: dependencies left of dependents, columns bounded, arrows only among shown."""

from __future__ import annotations

from apps.tasks.dag_layout import BOX_H, ROWS, dag_layout


def task(id_, deps=()):
    return {"id": id_, "status": "PENDING", "description": id_, "depends_on": list(deps),
            "subtasks": 0, "subtasks_done": 0}  # fmt: skip


def test_dependencies_go_left_and_arrows_join_shown_tasks():
    laid = dag_layout([task("a"), task("b", ["a"]), task("c", ["a", "b", "elsewhere"])])
    x = {b["id"]: b["x"] for b in laid["boxes"]}
    assert x["a"] < x["b"] < x["c"]
    assert {(a["from"], a["to"]) for a in laid["arrows"]} == {("a", "b"), ("a", "c"), ("b", "c")}


def test_two_hundred_tasks_wrap_into_bounded_columns():
    laid = dag_layout([task(f"t{i}") for i in range(200)])
    assert len(laid["boxes"]) == 200
    assert laid["height"] <= 20 + ROWS * (BOX_H + 14)
    assert len({b["x"] for b in laid["boxes"]}) == 200 // ROWS
    assert len({(b["x"], b["y"]) for b in laid["boxes"]}) == 200  # no two boxes overlap
