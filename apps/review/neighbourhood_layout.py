"""An entity's neighbourhood as positions for a server-drawn SVG: the entity in the centre, its
neighbours on a circle. Pure: no graph, no HTTP."""

from __future__ import annotations

import math

WIDTH, HEIGHT = 640, 420
RADIUS = 160
TYPE_COLOURS = {
    "Person": "#2d5bd7", "Organization": "#067647", "Location": "#b54708",
    "Event": "#7a2e98", "Object": "#475467",
}  # fmt: skip


def neighbourhood_layout(data: dict) -> dict:
    cx, cy = WIDTH / 2, HEIGHT / 2
    nodes = {data["centre"]["uid"]: {**data["centre"], "x": cx, "y": cy, "centre": True}}
    others = list(dict.fromkeys(e["other"]["uid"] for e in data["edges"]))
    for i, uid in enumerate(others):
        angle = 2 * math.pi * i / max(len(others), 1) - math.pi / 2
        other = next(e["other"] for e in data["edges"] if e["other"]["uid"] == uid)
        nodes[uid] = {**other, "x": round(cx + RADIUS * math.cos(angle), 1),
                      "y": round(cy + RADIUS * math.sin(angle), 1), "centre": False}  # fmt: skip
    for node in nodes.values():
        node["colour"] = TYPE_COLOURS.get(node.get("type"), "#475467")
    edges = []
    for e in data["edges"]:
        other = nodes[e["other"]["uid"]]
        edges.append({
            "kind": e["kind"], "label": e["label"], "out": e["out"],
            "x1": cx, "y1": cy, "x2": other["x"], "y2": other["y"],
            "lx": round((cx + other["x"]) / 2, 1), "ly": round((cy + other["y"]) / 2, 1),
        })  # fmt: skip
    return {"width": WIDTH, "height": HEIGHT, "nodes": list(nodes.values()), "edges": edges}
