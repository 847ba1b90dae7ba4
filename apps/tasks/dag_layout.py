"""Where each task of one DAG level goes in the server-drawn SVG: left to right by dependency
depth (a task right of everything it depends on), columns of at most ROWS boxes, so 200 tasks
stay readable; an arrow per DEPENDS_ON between tasks shown together."""

from __future__ import annotations

BOX_W, BOX_H = 230, 46
GAP_X, GAP_Y = 50, 14
ROWS = 20
PAD = 10


def dag_layout(tasks: list[dict]) -> dict:
    """{width, height, boxes: [{...task, x, y}], arrows: [{x1, y1, x2, y2}]} for the template."""
    shown = {t["id"]: t for t in tasks}
    depth: dict[str, int] = {}

    def depth_of(task_id: str, trail: frozenset = frozenset()) -> int:
        if task_id not in depth:
            deps = [d for d in shown[task_id]["depends_on"] if d in shown and d not in trail]
            depth[task_id] = 1 + max((depth_of(d, trail | {task_id}) for d in deps), default=-1)
        return depth[task_id]

    layers: dict[int, list[dict]] = {}
    for task in tasks:
        layers.setdefault(depth_of(task["id"]), []).append(task)
    boxes, column = {}, 0
    for level in sorted(layers):
        members = layers[level]
        for start in range(0, len(members), ROWS):
            for row, task in enumerate(members[start : start + ROWS]):
                boxes[task["id"]] = {**task, "x": PAD + column * (BOX_W + GAP_X),
                                     "y": PAD + row * (BOX_H + GAP_Y)}  # fmt: skip
            column += 1
    arrows = [
        {"x1": boxes[d]["x"] + BOX_W, "y1": boxes[d]["y"] + BOX_H // 2,
         "x2": box["x"] - 4, "y2": box["y"] + BOX_H // 2, "from": d, "to": box["id"]}
        for box in boxes.values() for d in box["depends_on"] if d in boxes
    ]  # fmt: skip
    rows = max((min(len(m), ROWS) for m in layers.values()), default=0)
    return {
        "width": max(PAD * 2 + column * (BOX_W + GAP_X), 300),
        "height": max(PAD * 2 + rows * (BOX_H + GAP_Y), 80),
        "boxes": list(boxes.values()),
        "arrows": arrows,
        "box_w": BOX_W,
        "box_h": BOX_H,
    }
