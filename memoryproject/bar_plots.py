"""Bar plots drawn on the server as SVG geometry (templates/plots/bars.html draws it): no
JavaScript, and the template puts the same numbers in a table beside it. Pure: no graph, no HTTP.

`bar_plot(labels, series)` groups one bar per series under each label; the y axis starts at 0
and ends at a round number at or above the highest value."""

from __future__ import annotations

import math

WIDTH, HEIGHT = 960, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 40
COLOURS = ["#2d5bd7", "#067647", "#b54708", "#7a2e98", "#c11574"]
MAX_X_LABELS = 16


def _round_top(value: float) -> float:
    """The smallest 1, 2 or 5 times a power of ten at or above `value` (1 for nothing)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)


def bar_plot(labels: list[str], series: dict[str, list[float]], *, width: int = WIDTH,
             height: int = HEIGHT) -> dict:  # fmt: skip
    """{width, height, bars: [{x, y, w, h, colour, series, label, value}], ticks: [{y, text}],
    x_labels: [{x, text}], legend: [{series, colour}], rows: [{label, values}], empty}."""
    top = _round_top(max((v for values in series.values() for v in values), default=0))
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    slot = plot_w / max(len(labels), 1)
    bar_w = max(slot * 0.8 / max(len(series), 1), 1)
    bars = []
    for s, (name, values) in enumerate(series.items()):
        for i, value in enumerate(values):
            h = plot_h * value / top
            bars.append({
                "x": round(LEFT + i * slot + slot * 0.1 + s * bar_w, 1), "y": round(TOP + plot_h - h, 1),
                "w": round(bar_w, 1), "h": round(h, 1), "colour": COLOURS[s % len(COLOURS)],
                "series": name, "label": labels[i], "value": value,
            })  # fmt: skip
    every = max(1, math.ceil(len(labels) / MAX_X_LABELS))
    return {
        "width": width, "height": height, "bars": bars, "base": TOP + plot_h, "left": LEFT,
        "right": width - RIGHT,
        "ticks": [{"y": round(TOP + plot_h * (1 - f), 1), "text": f"{top * f:g}"}
                  for f in (0, 0.25, 0.5, 0.75, 1)],
        "x_labels": [{"x": round(LEFT + (i + 0.5) * slot, 1), "text": text}
                     for i, text in enumerate(labels) if i % every == 0],
        "legend": [{"series": name, "colour": COLOURS[s % len(COLOURS)]}
                   for s, name in enumerate(series)],
        "rows": [{"label": label, "values": [values[i] for values in series.values()]}
                 for i, label in enumerate(labels)],
        "series_names": list(series),
        "empty": not any(v for values in series.values() for v in values),
    }  # fmt: skip
